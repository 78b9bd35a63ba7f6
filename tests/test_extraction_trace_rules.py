"""Every entry the cleaning writes to the trace names its rule (``rule``), as each cleaning
stage's own entries do, so a trace can be read, counted and ablated by rule: the generic
removals (sign-up box, form box, image caption, selectors, names, link-dense blocks) and the
sweeps after them (orphan labels, code chrome, repeated blocks, empty elements) included."""

from __future__ import annotations

import pytest

from crawler.extraction import extract

STORY = "".join(f"<p>The council met on Monday evening to discuss the new cycle path along the "
                f"river and, after a long debate, reached a decision, paragraph {i}.</p>"
                for i in range(6))

PARTS = {
    "sign-up-box": "<div><p>Get the news by mail</p><input type='email' name='e'>"
                   "<button>Go</button></div>",
    "form-box": "<form action='/rate'><fieldset><h2>Was this helpful?</h2>"
                "<input type='radio' name='r' value='1'><label>yes</label>"
                "<input type='radio' name='r' value='0'><label>no</label></fieldset></form>",
    "boilerplate-name": "<div class='share-buttons'><span>Share this</span></div>",
    "link-dense": "<ul>" + "".join(f"<li><a href='/topic/{i}'>Topic number {i}</a></li>"
                                   for i in range(12)) + "</ul>",
    "empty-elements": "<div><span></span></div>",
}


#: Text of each part that must be gone from the content ("" when it has none).
GONE = {"sign-up-box": "Get the news by mail", "form-box": "Was this helpful?",
        "boilerplate-name": "Share this", "link-dense": "Topic number 3", "empty-elements": ""}


@pytest.mark.parametrize("rule", sorted(PARTS))
def test_every_cleaning_entry_names_its_rule(rule: str) -> None:
    html = (f"<html><head><title>Cycle path</title></head><body><main><article>"
            f"<h1>A new cycle path</h1>{STORY}{PARTS[rule]}<p>The last paragraph stays.</p>"
            f"</article></main></body></html>")
    result = extract(html, "https://town.example/2024/05/cycle-path", trace=True)
    cleaning = [entry for entry in result.trace if entry.get("step") == "clean"]
    assert cleaning, result.trace
    unnamed = [entry for entry in cleaning if not entry.get("rule")]
    assert unnamed == [], unnamed
    assert rule in {entry["rule"] for entry in cleaning}, cleaning
    # the story stays whole, the part is gone
    assert "paragraph 5" in result.content_text and "The last paragraph stays." in result.content_text
    assert "paragraph 0" in result.content_text
    assert GONE[rule] == "" or GONE[rule] not in result.content_text
