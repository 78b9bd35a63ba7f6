"""Process checks for tests that start, kill or watch processes (Linux /proc)."""

from __future__ import annotations

from pathlib import Path


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie, ended but not yet reaped, counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
