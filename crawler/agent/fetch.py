"""Fetch one page for an agent: every redirect hop guarded, the body bounded in bytes and time.

``urllib`` follows redirects itself; the handler below checks each new location with the same
rules as the first URL, so a public page cannot redirect the server into its own network.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from dataclasses import dataclass
from email.message import Message
from typing import IO

from crawler.agent.guard import GuardError, check_url
from crawler.middlewares.body_checks import CLAIMS_HTML, binary_kind
from crawler.settings import USER_AGENT


class FetchError(ValueError):
    """The page could not be fetched as HTML; the message is one sentence for the caller."""


@dataclass(frozen=True)
class FetchedPage:
    """The bytes of a page and the URL they came from (after redirects)."""

    url: str
    body: bytes


class _GuardedRedirects(urllib.request.HTTPRedirectHandler):
    """Refuses a redirect whose target the guard refuses."""

    max_redirections = 10

    def __init__(self, allowed_hosts: frozenset[str]) -> None:
        self.allowed_hosts = allowed_hosts

    def redirect_request(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str,
                         headers: Message, newurl: str) -> urllib.request.Request | None:
        try:
            check_url(newurl, allowed_hosts=self.allowed_hosts, name="a redirect")
        except GuardError as exc:
            raise FetchError(f"{req.full_url} redirects to {newurl}: {exc}") from exc
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def fetch_page(url: str, *, allowed_hosts: frozenset[str], timeout: float,
               max_bytes: int) -> FetchedPage:
    """GET ``url`` (already checked) and return its body, or raise :class:`FetchError`."""
    opener = urllib.request.build_opener(_GuardedRedirects(allowed_hosts))
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT,
                                                   "Accept": "text/html,*/*;q=0.5"})
    try:
        with opener.open(request, timeout=timeout) as response:
            content_type = response.headers.get_content_type() \
                if response.headers.get("Content-Type") else ""
            if content_type not in CLAIMS_HTML:
                raise FetchError(f"{url} is not an HTML page (Content-Type {content_type}).")
            body = response.read(max_bytes + 1)
            final_url = response.geturl()
    except FetchError:
        raise
    except urllib.error.HTTPError as exc:
        raise FetchError(f"{url} answered HTTP {exc.code} ({exc.reason}).") from exc
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise FetchError(f"cannot fetch {url}: {reason}.") from exc
    if len(body) > max_bytes:
        raise FetchError(f"{url} is larger than {max_bytes} bytes.")
    if not body.strip():
        raise FetchError(f"{url} returned an empty body.")
    kind = binary_kind(body)
    if kind is not None:
        raise FetchError(f"{url} is not HTML (its bytes are a {kind}).")
    return FetchedPage(url=final_url, body=body)
