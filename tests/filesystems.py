"""Real small filesystems for storage tests: a tmpfs of a few hundred KiB that fills up, or one
remounted read-only. Mounting needs root (CAP_SYS_ADMIN); without it the test is skipped."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["mount", *args], capture_output=True, text=True, check=False)


@contextmanager
def small_filesystem(mountpoint: Path, size_kib: int) -> Iterator[Path]:
    """A tmpfs of ``size_kib`` KiB mounted at ``mountpoint`` until the block ends."""
    mountpoint.mkdir(parents=True, exist_ok=True)
    mounted = _mount("-t", "tmpfs", "-o", f"size={size_kib}k,mode=0755", "tmpfs", str(mountpoint))
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {mounted.stderr.strip()}")
    try:
        yield mountpoint
    finally:
        subprocess.run(["umount", "-l", str(mountpoint)], check=False)


def make_read_only(mountpoint: Path) -> None:
    """Remount a filesystem from :func:`small_filesystem` read-only (root bypasses file modes,
    not a read-only mount)."""
    remounted = _mount("-o", "remount,ro", str(mountpoint))
    assert remounted.returncode == 0, remounted.stderr
