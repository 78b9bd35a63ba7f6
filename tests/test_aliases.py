"""Same content under another URL: a page is an alias of a stored URL only when its main text
and its title are the same; different pages that extract to the same text stay pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from crawler.aliases import ensure_aliases_table, first_url_with_content
from crawler.content_hash import content_hash
from crawler.storage import open_database, upsert_page

DOMAIN = "site.example"
STORED = "https://site.example/page"
TEXT = "The same long main text of one page, served under several URLs of the site."


@pytest.mark.parametrize(("url", "text", "title", "expected"), [
    ("https://site.example/PAGE", TEXT, "Page", STORED),      # a case-variant copy: an alias
    ("https://site.example/page?s=1", TEXT, "Page", STORED),  # a session-token copy: an alias
    ("https://site.example/other", TEXT, "Other", None),      # same text, its own title: a page
    ("https://site.example/copy", TEXT + " More.", "Page", None),  # other text: a page
    (STORED, TEXT, "Page", None),                              # the stored URL itself
])
def test_an_alias_repeats_text_and_title(url: str, text: str, title: str,
                                         expected: str | None, tmp_path: Path) -> None:
    db = open_database(tmp_path / "crawl.db")
    ensure_aliases_table(db)
    upsert_page(db, {"url": STORED, "domain": DOMAIN, "title": "Page",
                     "content_text": TEXT, "content_hash": content_hash(TEXT)}, b"<p>x</p>")
    assert first_url_with_content(db, DOMAIN, content_hash(text), url, title) == expected
    # the stored page stays whatever the answer
    assert db.execute("SELECT count(*) FROM pages WHERE url = ?", [STORED]).fetchone()[0] == 1
