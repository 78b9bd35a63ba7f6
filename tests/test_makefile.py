"""The README's two commands as a user types them: ``make crawl`` passes the start URL intact
(``&`` and all) and prints its usage before installing anything without one."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.conftest import REPO_ROOT


def make(*args: str, cwd: Path = REPO_ROOT, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """Run ``make`` in the checkout as a user would."""
    return subprocess.run(["make", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={k: v for k, v in os.environ.items()
                                                if k not in _OUTER_MAKE_VARIABLES})


#: Variables an outer ``make`` (``make test``) exports; without them the inner ``make`` runs as
#: a user's would (no "Entering directory" lines, no inherited flags or START).
_OUTER_MAKE_VARIABLES = ("START", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")


@pytest.fixture
def ready_venv(tmp_path: Path) -> Path:
    """A virtualenv folder ``make`` takes as set up: its scrapy is this environment's, and its
    install stamp is newer than requirements.txt (so ``make`` installs nothing)."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "scrapy").symlink_to(Path(sys.executable).parent / "scrapy")
    stamp = venv / ".installed"
    stamp.touch()
    newer = (REPO_ROOT / "requirements.txt").stat().st_mtime + 60
    os.utime(stamp, (newer, newer))
    return venv


@pytest.mark.skipif(shutil.which("make") is None, reason="make is part of the README's set-up")
def test_make_crawl_without_start_prints_usage_and_installs_nothing(tmp_path: Path) -> None:
    venv = tmp_path / "not-created"
    completed = make("crawl", f"VENV={venv}", "SYSTEM_PACKAGES=no-such-debian-package",
                     "PYTHON=false")
    assert completed.returncode != 0
    assert completed.stdout.startswith("usage: make crawl START=https://site.example/")
    assert "Installing" not in completed.stdout + completed.stderr
    assert not venv.exists()


@pytest.mark.skipif(shutil.which("make") is None, reason="make is part of the README's set-up")
@pytest.mark.parametrize("query", ["?a=1&b=2", "?q=it's;x=1", '?q="quoted"&x=$HOME'])
def test_make_crawl_passes_the_start_url_intact(query: str, serve_site, ready_venv: Path,
                                                tmp_path: Path) -> None:
    server = serve_site("behaviours")
    start = server.url("/" + query)
    db = tmp_path / "crawl.db"
    completed = make("crawl", f"START={start}", f"VENV={ready_venv}", "SYSTEM_PACKAGES=",
                     f"ARGS=-a max_depth=0 -a sitemaps=false -a render=never "
                     f"-s SQLITE_PATH={db} -s AUTOTHROTTLE_ENABLED=false -s LOG_LEVEL=INFO")
    assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-2000:]
    # the server saw the whole query (percent-encoded as any client does), nothing expanded
    assert "/" + query in {unquote(path) for path in server.request_counts()}
    with sqlite3.connect(db) as conn:
        stored = [row[0] for row in conn.execute("SELECT url FROM pages")]
    assert len(stored) == 1 and stored[0].startswith(server.url("/?"))
