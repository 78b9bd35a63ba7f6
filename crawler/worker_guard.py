"""Worker processes end with the crawl that uses them.

Called by every extraction pool worker (its initializer), never on import: the crawl process
itself must outlive the shell or script that launched it (``nohup scrapy crawl ... &``).

A worker forks from multiprocessing's forkserver, so its parent is the forkserver, not the crawl.
When the crawl is killed (``kill -9``), an idle worker would wait on its task queue forever (it
holds that queue's write end itself), and the forkserver stays up as long as any worker does. So
each worker watches the crawl process (a Linux pidfd, no polling) and exits when it ends, and dies
with its parent (``PR_SET_PDEATHSIG``); once the workers are gone the forkserver and
multiprocessing's resource tracker see their pipes close and exit too. On other systems these
guards do nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import select
import signal
import sys
import threading

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


def exit_with_process(pid: int) -> None:
    """End this process as soon as process ``pid`` ends (a thread waits on its pidfd)."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        os._exit(1)  # the crawl is already gone
    except (OSError, AttributeError):  # not Linux 5.3+: nothing to watch with
        logger.debug("pidfd_open unavailable")
        return

    def wait_for_exit() -> None:
        select.select([pidfd], [], [])
        os._exit(1)

    threading.Thread(target=wait_for_exit, name="exit-with-crawl", daemon=True).start()

