"""TCP ports on 127.0.0.1 for tests, without the race of "find a free port, close it, use it".

The suite runs in several worker processes at once: a port found free and released can be
taken by another worker's server before the test binds it (its server then fails to start), or
start answering before a test that counted on nobody listening there connects. So a port that
must refuse connections stays bound, without listening, for as long as the test needs it
(:func:`closed_port`), and a server that takes its port by number is started again on another
one when it finds its port taken (:func:`start_on_free_port`). Servers that run inside the test
process bind port 0 and read their port back instead.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

#: Starts tried before giving up: each picks a new port, so a repeat of the race is unlikely.
START_ATTEMPTS = 5


class PortTaken(Exception):
    """A server could not listen on the port it was given: another process took it first."""


@contextmanager
def closed_port() -> Iterator[int]:
    """A port of 127.0.0.1 that refuses connections while the block runs: bound by this process
    (so no other process can listen on it) but not listening."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


def _unused_port() -> int:
    """A port of 127.0.0.1 nothing listens on right now (it may be taken the next moment)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_on_free_port(start: Callable[[int], T], attempts: int = START_ATTEMPTS) -> T:
    """``start(port)`` on a port that was free a moment ago; when it raises :class:`PortTaken`
    (another process bound the port in between), again on another port."""
    for _ in range(attempts - 1):
        try:
            return start(_unused_port())
        except PortTaken:
            continue
    return start(_unused_port())
