"""Worker processes die with the process that started them (Linux ``PR_SET_PDEATHSIG``).

Imported in the forkserver (as a preload module) and run in every pool worker (as the
initializer), so a crawl killed with ``kill -9`` leaves no orphaned extraction processes. On
other systems it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import signal
import sys

logger = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Have the kernel send SIGKILL to this process when its parent exits."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no libc or no prctl: nothing to guard with
        logger.debug("PR_SET_PDEATHSIG unavailable")


# Imported in the forkserver: the forkserver dies with the crawl.
die_with_parent()
