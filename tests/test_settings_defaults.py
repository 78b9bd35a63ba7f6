"""Every setting the project reads has its default in ``crawler/settings.py`` and nowhere else,
so ``scrapy settings --get NAME`` answers what a crawl will use."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.settings import default_settings

from crawler import settings as project_settings
from tests.conftest import REPO_ROOT

#: A read of a setting by its literal name through a Settings accessor, or through the checked
#: readers of ``crawler/startup.py`` (which take no default at all).
SETTING_READ = re.compile(
    r"(?:settings\.(?:get|getint|getfloat|getbool|getlist|getdict|getwithbase)\(|"
    r"read_(?:bool|number)\(\s*[\w.]*settings,)\s*\"([A-Z][A-Z0-9_]+)\"")


def setting_reads() -> list[tuple[str, str, str]]:
    """(file, setting name, the call's arguments) of every literal setting read in ``crawler/``."""
    reads = []
    for path in sorted((REPO_ROOT / "crawler").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for match in SETTING_READ.finditer(text):
            depth, end = 1, match.end()
            while depth:
                depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(text[end], 0)
                end += 1
            # the checked readers take no default: their keyword arguments are ranges
            arguments = "" if match.group(0).startswith("read_") else text[match.end():end - 1]
            reads.append((str(path.relative_to(REPO_ROOT)), match.group(1), arguments))
    return reads


def test_every_setting_read_has_its_one_default_in_the_settings_module() -> None:
    reads = setting_reads()
    assert len(reads) > 30  # the scan finds the project's reads
    undefined = sorted({(f, n) for f, n, _ in reads
                        if not hasattr(project_settings, n) and not hasattr(default_settings, n)})
    assert undefined == []
    defaults_in_code = sorted((f, n) for f, n, rest in reads if rest.strip().startswith(","))
    assert defaults_in_code == []
    names = {n for _, n, _ in reads}
    assert {"QUALITY_GATE_POLICY", "TRAP_STRIP_SESSION_IDS", "BODY_CHECK_BINARY"} <= names


@pytest.mark.parametrize(("name", "printed"), [
    ("QUALITY_GATE_POLICY", "flag"),
    ("QUALITY_GATE_MIN_SCORE", "0.5"),
    ("TRAP_STRIP_SESSION_IDS", "True"),
    ("CONTENT_TYPE_FILTER_ALLOWED", "['text/html', 'application/xhtml+xml']"),
])
def test_scrapy_settings_answers_the_default(name: str, printed: str) -> None:
    completed = subprocess.run([Path(sys.executable).with_name("scrapy"), "settings", "--get", name],
                               cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == printed
