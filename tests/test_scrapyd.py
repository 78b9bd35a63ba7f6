"""Deploy to a real Scrapyd with scrapyd-deploy, schedule a crawl over HTTP, check its outputs."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.error import URLError
from urllib.parse import urlencode
from urllib.request import urlopen

import pytest

from tests.conftest import REPO_ROOT
from tests.test_crawl import FULL_SITES, html_paths
from tests.ports import PortTaken, start_on_free_port

SITE = "mkdocs-material-starlette-injected"
PROJECT = "crawler"
#: What the deploy needs from a checkout (copied, so building the egg leaves the checkout clean).
PROJECT_FILES = ("scrapy.cfg", "setup.py", "pyproject.toml", "README.md", "crawler", "site_rules")


@dataclass
class Scrapyd:
    """A running Scrapyd: its base URL and its working folder."""

    url: str
    home: Path

    def get(self, endpoint: str, **params: str) -> dict[str, Any]:
        """GET a JSON endpoint."""
        query = f"?{urlencode(params)}" if params else ""
        with urlopen(f"{self.url}{endpoint}{query}", timeout=10) as response:
            return json.load(response)

    def post(self, endpoint: str, fields: list[tuple[str, str]]) -> dict[str, Any]:
        """POST form fields (repeated names allowed, as ``setting=`` is) to a JSON endpoint."""
        with urlopen(f"{self.url}{endpoint}", data=urlencode(fields).encode(), timeout=10) as r:
            return json.load(r)


def start_scrapyd(home: Path, port: int) -> tuple[subprocess.Popen[bytes], Scrapyd]:
    """Scrapyd on ``port`` once it answers; PortTaken when another process holds the port."""
    (home / "scrapyd.conf").write_text(
        "[scrapyd]\n"
        "bind_address = 127.0.0.1\n"
        f"http_port = {port}\n"
        f"eggs_dir = {home / 'eggs'}\n"
        f"logs_dir = {home / 'logs'}\n"
        f"items_dir = {home / 'items'}\n"
        f"dbs_dir = {home / 'dbs'}\n"
        "poll_interval = 0.5\n"
        "max_proc = 1\n", encoding="utf-8")
    output = home / "scrapyd.out"
    process = subprocess.Popen([sys.executable, "-m", "scrapyd"], cwd=home,
                               stdout=output.open("wb"), stderr=subprocess.STDOUT)
    server = Scrapyd(f"http://127.0.0.1:{port}/", home)
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            if "Address already in use" in output.read_text():
                raise PortTaken(port)
            pytest.fail("scrapyd did not start:\n" + output.read_text())
        try:
            if server.get("daemonstatus.json")["status"] == "ok":
                return process, server
        except (URLError, ConnectionError):
            pass
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("scrapyd did not start:\n" + output.read_text())
        time.sleep(0.2)


@pytest.fixture
def scrapyd(tmp_path: Path) -> Iterator[Scrapyd]:
    """Scrapyd on a free 127.0.0.1 port, with eggs, logs and items in a temporary folder."""
    home = tmp_path / "scrapyd"
    home.mkdir()
    process, server = start_on_free_port(lambda port: start_scrapyd(home, port))
    yield server
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def deploy(scrapyd: Scrapyd, workdir: Path) -> subprocess.CompletedProcess[str]:
    """``scrapyd-deploy`` a copy of the project to a target named in the user's ~/.scrapy.cfg."""
    project = workdir / "project"
    for name in PROJECT_FILES:
        source = REPO_ROOT / name
        if source.is_dir():
            shutil.copytree(source, project / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            project.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, project / name)
    home = workdir / "home"
    home.mkdir()
    (home / ".scrapy.cfg").write_text(f"[deploy:test]\nurl = {scrapyd.url}\nproject = {PROJECT}\n",
                                      encoding="utf-8")
    deploy_script = Path(sys.executable).with_name("scrapyd-deploy")
    return subprocess.run([str(deploy_script), "test", "--version", "r1"], cwd=project,
                          env={"HOME": str(home), "PATH": str(Path(sys.executable).parent)},
                          capture_output=True, text=True, timeout=120)


def wait_until_finished(scrapyd: Scrapyd, job: str, timeout: float = 180) -> None:
    """Poll listjobs.json until the job is listed as finished."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        jobs = scrapyd.get("listjobs.json", project=PROJECT)
        if any(j["id"] == job for j in jobs.get("finished", [])):
            return
        time.sleep(0.5)
    log = scrapyd.home / "logs" / PROJECT / "domain" / f"{job}.log"
    pytest.fail(f"job {job} did not finish in {timeout}s:\n"
                + (log.read_text()[-3000:] if log.exists() else "(no log)"))


def test_a_deployed_project_crawls_a_site_scheduled_over_the_http_api(
        tmp_path: Path, scrapyd: Scrapyd, serve_site: Any) -> None:
    site = serve_site(SITE)
    expected = {site.url(p) for p in html_paths(SITE) - FULL_SITES[SITE]["not_pages"]}

    deployed = deploy(scrapyd, tmp_path)
    assert deployed.returncode == 0, deployed.stdout + deployed.stderr
    assert json.loads(deployed.stdout)["status"] == "ok", deployed.stdout[-3000:]
    assert scrapyd.get("listspiders.json", project=PROJECT)["spiders"] == ["domain"]

    database = tmp_path / "crawls" / "job-1.db"
    scheduled = scrapyd.post("schedule.json", [
        ("project", PROJECT), ("spider", "domain"), ("jobid", "job-1"),
        ("start", site.url("/")), ("render", "never"),
        ("setting", f"SQLITE_PATH={database}"),
        ("setting", "AUTOTHROTTLE_ENABLED=false"),
    ])
    assert scheduled == {"node_name": scheduled["node_name"], "status": "ok", "jobid": "job-1"}
    wait_until_finished(scrapyd, "job-1")

    log = (scrapyd.home / "logs" / PROJECT / "domain" / "job-1.log").read_text()
    assert "Spider closed (finished)" in log
    assert "Traceback" not in log
    items_file = scrapyd.home / "items" / PROJECT / "domain" / "job-1.jl"
    items = [json.loads(line) for line in items_file.read_text().splitlines()]
    assert sorted(item["url"] for item in items) == sorted(expected)

    conn = sqlite3.connect(database)
    try:
        rows = dict(conn.execute("SELECT url, framework FROM pages"))
    finally:
        conn.close()
    assert sorted(rows) == sorted(expected)
    # The generator is recognised from site_rules/, which therefore shipped inside the egg.
    assert set(rows.values()) == {"mkdocs-material"}

    # A misspelt argument stops the job at start with one sentence and a non-zero exit code,
    # which Scrapyd records; the job that finished exited 0 (Scrapyd logs nothing for it).
    scheduled = scrapyd.post("schedule.json", [
        ("project", PROJECT), ("spider", "domain"), ("jobid", "job-2"),
        ("start", site.url("/")), ("max_pagez", "5"),
        ("setting", f"SQLITE_PATH={tmp_path / 'crawls' / 'job-2.db'}"),
    ])
    assert scheduled["status"] == "ok"
    wait_until_finished(scrapyd, "job-2")
    log = (scrapyd.home / "logs" / PROJECT / "domain" / "job-2.log").read_text()
    assert ("Cannot start the crawl: unknown spider argument -a max_pagez; valid arguments: "
            "start, ") in log
    assert "Traceback" not in log
    assert not (scrapyd.home / "items" / PROJECT / "domain" / "job-2.jl").exists()
    scrapyd_log = (scrapyd.home / "scrapyd.out").read_text()
    assert scrapyd_log.count("Process died: exitstatus=") == 1
    assert "Process died: exitstatus=2" in scrapyd_log
