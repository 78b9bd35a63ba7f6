"""``crawler demo`` prints page fields from a crawl: a title carrying terminal control sequences
(from JSON-LD, where a JSON escape can hold any character) is shown with them made visible,
never sent to the terminal raw."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO_ROOT
from tests.hostile import pages


def test_demo_shows_control_characters_of_page_fields_visibly(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    data = json.dumps({"@context": "https://schema.org", "@type": "Article",
                       "headline": "Clear\x1b[2J\x1b]0;owned\x07 <b>title</b>"})
    html = (f'<html><head><script type="application/ld+json">{data}</script></head><body>'
            f"<article><p>{pages.FILLER}</p><p>Body with \x9b31mred text. {pages.FILLER}</p>"
            "</article></body></html>")
    (site / "index.html").write_text(html, encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "crawler", "demo", "--site", str(site), "--output",
         str(tmp_path / "out")], cwd=REPO_ROOT, capture_output=True, text=True, timeout=240)
    assert completed.returncode == 0, completed.stderr[-2000:]
    out = completed.stdout
    assert not any(c in out for c in "\x1b\x07\x9b")
    assert "Clear\\x1b[2J\\x1b]0;owned\\x07 <b>title</b>" in out  # text, shown as it is
    assert "Body with \\x9b31mred text." in out
    assert "1 pages stored" in out
