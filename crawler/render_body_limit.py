"""DOWNLOAD_MAXSIZE for a rendered page, while chromium loads it.

A plain download is cancelled once its answer announces, or has sent, more than
``DOWNLOAD_MAXSIZE`` bytes. Chromium has no such limit: it read a 50 MB page whole and spent the
render's time limit building its DOM. :class:`DocumentBodyWatch` follows the page's document
answers through the DevTools protocol (``Network.responseReceived`` and
``Network.dataReceived`` of the page's DevTools session) and tells, as soon as one of them
announces (``Content-Length``) or has delivered more bytes than the limit, so that the render
is stopped there and the page dropped as a plain download over the limit is. It holds counts,
never the bytes.
"""

from __future__ import annotations

import asyncio
from typing import Any

from playwright.async_api import CDPSession

#: The DevTools events the watch listens to.
_RESPONSE_EVENT = "Network.responseReceived"
_DATA_EVENT = "Network.dataReceived"


class DocumentBodyWatch:
    """Counts the bytes of the document answers one DevTools session sees (a page's main
    document; frames' documents are blocked by the crawl's routes) against ``limit``."""

    def __init__(self, session: CDPSession, limit: int) -> None:
        self.session = session
        self.limit = limit
        #: Bytes received so far, by the DevTools request id of each document answer.
        self.received: dict[str, int] = {}
        #: Set once an answer passes the limit; ``size`` then says by how much, and
        #: ``announced`` whether its Content-Length said so before any byte came.
        self.exceeded = asyncio.Event()
        self.size = 0
        self.announced = False

    async def start(self) -> None:
        """Listen to the session's network events (enabled here: a session of our own does not
        get them otherwise)."""
        self.session.on(_RESPONSE_EVENT, self._on_response)
        self.session.on(_DATA_EVENT, self._on_data)
        await self.session.send("Network.enable")

    def stop(self) -> None:
        """Stop listening (the session may serve the page's next render)."""
        self.session.remove_listener(_RESPONSE_EVENT, self._on_response)
        self.session.remove_listener(_DATA_EVENT, self._on_data)

    def _on_response(self, event: dict[str, Any]) -> None:
        if event.get("type") != "Document":
            return
        request_id = event.get("requestId", "")
        self.received[request_id] = 0
        headers = {name.lower(): value
                   for name, value in (event.get("response", {}).get("headers") or {}).items()}
        try:
            announced = int(str(headers.get("content-length", "")).split(",")[0].strip())
        except ValueError:
            return
        if announced > self.limit:
            self._exceed(announced, announced=True)

    def _on_data(self, event: dict[str, Any]) -> None:
        request_id = event.get("requestId", "")
        if request_id not in self.received:
            return
        # the decoded bytes (a body that decompresses past the limit is stopped too)
        self.received[request_id] += max(int(event.get("dataLength") or 0),
                                         int(event.get("encodedDataLength") or 0))
        if self.received[request_id] > self.limit:
            self._exceed(self.received[request_id], announced=False)

    def _exceed(self, size: int, *, announced: bool) -> None:
        if not self.exceeded.is_set():
            self.size, self.announced = size, announced
            self.exceeded.set()

    def reason(self) -> str:
        """The failure's sentence, as a plain download over the limit says it."""
        if self.announced:
            return (f"the answer announces {self.size} bytes, more than DOWNLOAD_MAXSIZE "
                    f"({self.limit} bytes): not rendered")
        return (f"the answer passed DOWNLOAD_MAXSIZE ({self.limit} bytes): rendering stopped "
                f"after {self.size} bytes")
