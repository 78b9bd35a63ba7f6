"""Form boxes: a short form the reader fills in (a comment form, a "rate this article" poll, a
contact form) goes with its heading; a page wrapped in a form, a form with nothing to fill in,
a form inside a list item (a card) and the story's text beside a form stay."""

from __future__ import annotations

import pytest

from crawler.extraction import extract
from tests.kept_and_removed import assert_kept_and_removed, cleaning_steps, page_around

STORY = "".join(f"<p>Der Gemeinderat hat am Montagabend über den neuen Radweg beraten und nach "
                f"langer Diskussion einen Beschluss gefasst, Absatz {i}.</p>" for i in range(5))


def page(main: str) -> str:
    return page_around(main, title='Radweg', heading='Neuer Radweg', article=True)


COMMENT_FORM = ("<div id='r'><h3>Was denkst du?</h3><form action='/c' method='post'>"
                "<p><input type='text' name='author'><label>Name *</label></p>"
                "<p><input type='text' name='url'><label>Website</label></p>"
                "<p><textarea name='comment'></textarea></p>"
                "<p><input type='submit' value='Abschicken'></p></form></div>")
POLL = ("<form action='/rate'><fieldset><h2>Wie hilfreich war das?</h2>"
        "<input type='radio' name='r' value='1'><label>hilfreich</label>"
        "<input type='radio' name='r' value='0'><label>nicht hilfreich</label>"
        "<p><span>Kommentar</span><select name='x'><option>eins</option></select></p>"
        "</fieldset></form>")

CASES = [
    # (name, main html, must stay, must go)
    ("a comment form after the story goes with its heading",
     STORY + COMMENT_FORM, ["Absatz 0", "Absatz 4"], ["Was denkst du?", "Name *", "Website"]),
    ("a rating poll with choices to tick goes",
     STORY + POLL, ["Absatz 4"], ["Wie hilfreich war das?", "nicht hilfreich", "Kommentar"]),
    ("a form between the story's paragraphs goes, the paragraphs stay",
     STORY[:len(STORY) // 2] + POLL + STORY[len(STORY) // 2:], ["Absatz 0", "Absatz 4"],
     ["Wie hilfreich war das?"]),
    ("a form with nothing to fill in (a download button) stays",
     STORY + "<form action='/pdf'><p>Beschluss als PDF, 2 MB</p>"
     "<input type='submit' value='Laden'><input type='hidden' name='id' value='7'></form>",
     ["Absatz 4", "Beschluss als PDF"], []),
    ("a page wrapped in a form keeps its text",
     "<form action='/page' method='post'><input type='text' name='q'>" + STORY + "</form>",
     ["Absatz 0", "Absatz 4"], []),
    ("the story beside a form in one wrapper stays",
     "<div>" + STORY + COMMENT_FORM + "</div>", ["Absatz 0", "Absatz 4"], ["Name *"]),
    ("a card's order field inside a list item stays",
     STORY + "<ul>" + "".join(f"<li><p>Fahrradhelm Modell {n}, geprüft</p><form action='/cart'>"
                              f"<input type='number' name='qty'></form></li>"
                              for n in ("Nord", "Süd")) + "</ul>",
     ["Absatz 4", "Fahrradhelm Modell Nord", "Fahrradhelm Modell Süd"], []),
]


@pytest.mark.parametrize("name,main,stay,go", CASES, ids=[c[0] for c in CASES])
def test_form_boxes(name: str, main: str, stay: list[str], go: list[str]) -> None:
    result = extract(page(main), "https://stadt.example/2024/05/radweg")
    assert_kept_and_removed(result.content_text, name, stay, go)


def test_the_removal_is_traced() -> None:
    result = extract(page(STORY + POLL), "https://stadt.example/2024/05/radweg", trace=True)
    assert any(entry.get("why", "").startswith("form-box") for entry in result.trace)
    assert "Absatz 4" in result.content_text


#: Pages of many forms or email fields, as a function of their number: (name, page of n,
#: must stay, must go). Each form's box is found by walking up from it.
MANY_FIELDS = [
    ("forms side by side in the story",
     lambda n: STORY + "".join(f"<form action='/v'><input type='text' name='v{i}'></form>"
                               for i in range(n)), ["Absatz 0", "Absatz 4"], []),
    ("forms each in a wrapper of their own",
     lambda n: STORY + "".join(f"<div><p>Frage {i}</p><form action='/v'><input type='text'"
                               f" name='v{i}'></form></div>" for i in range(n)),
     ["Absatz 0", "Absatz 4", "Frage 0"], []),
    ("email fields side by side before the story",
     lambda n: "<input type='email' name='e'>" * n + STORY, ["Absatz 0", "Absatz 4"], []),
    ("email fields each in a wrapper of their own",
     lambda n: STORY + "".join(f"<div><p>Newsletter {i}</p><input type='email' name='e'></div>"
                               for i in range(n)), ["Absatz 0", "Absatz 4", "Newsletter 0"], []),
]


@pytest.mark.parametrize("name,main,stay,go", MANY_FIELDS, ids=[c[0] for c in MANY_FIELDS])
def test_many_forms_cost_linear_steps(name: str, main, stay: list[str], go: list[str]) -> None:
    """Eight times the forms cost at most nine times the cleaning's steps: each form's walk up
    to its box reads the counts of the ancestors it shares with the others (their text, their
    like siblings) once, not once per form, which made 2,000 forms or email fields in one
    article take 4 to 10 s, and 8,000 minutes."""
    cleaning_steps(page(main(10)))  # first-use work out of the count
    small, _ = cleaning_steps(page(main(100)))
    large, text = cleaning_steps(page(main(800)))
    assert large <= 9 * small, (name, small, large)
    assert_kept_and_removed(text, name, stay, go)

