"""The words metadata reads around names and dates (``site_rules/metadata.yaml``): each kind of
cue checked when the rules load, and the bylines and update labels of each language read from
them (what must be found, and what must not be taken for a name or an update)."""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest

from crawler.extraction.document import parse_html
from crawler.extraction.frameworks import load_rules
from crawler.extraction.metadata import Metadata, extract_metadata, visible_dates
from crawler.extraction.metadata_cues import CUE_KINDS, MIN_LANGUAGES, metadata_cues_from_data
from crawler.extraction.structured import parse_structured


def _metadata(html: str) -> Metadata:
    tree = parse_html(html.encode("utf-8")).tree
    return extract_metadata(tree, "https://site.example/a/b", parse_structured(tree, ""))


@pytest.mark.parametrize("data, error", [
    ({"byline_leadins": {"en": "by"}}, "metadata.yaml: unknown kind of cue 'byline_leadins'"),
    ({"byline_lead_ins": "by"}, "metadata.yaml: byline_lead_ins is not a mapping of languages"),
    ({"byline_lead_ins": {"English": "by"}},
     "metadata.yaml: byline_lead_ins has 'English', which is not a language code"),
    ({"byline_lead_ins": {"en": ["by"]}}, "metadata.yaml: byline_lead_ins en is not phrases"),
    ({"role_words": {"en": "editor | Writer"}},
     "metadata.yaml: role_words en has 'Writer', which is not lower-case words"),
    ({"role_words": {"en": "editor | writer.*"}},
     "metadata.yaml: role_words en has 'writer.*', which is not lower-case words"),
    ({"modified_cues": {"en": "updated | last  edited"}},
     "metadata.yaml: modified_cues en has 'last  edited', which is not lower-case words"),
    ({"modified_cues": {"en": "updated |  | revised"}},
     "metadata.yaml: modified_cues en has '', which is not lower-case words"),
    ({"speech_verbs": {"en": "says | wrote | says"}},
     "metadata.yaml: speech_verbs en has 'says' twice"),
    (["by"], "metadata.yaml is not a mapping of cue kinds to languages"),
    ({"speech_verbs": {"en": "says | wrote"}},
     "metadata.yaml: speech_verbs holds 1 language, fewer than 2"),
])
def test_bad_cues_are_refused_with_a_sentence(data: object, error: str) -> None:
    """A bad entry is one sentence naming the file, the kind and the entry; the sound entries
    of the same kind still load (what must stay)."""
    errors: list[str] = []
    sound = {"name_joiners": {"de": "und"}} if isinstance(data, dict) else {}
    cues = metadata_cues_from_data({**sound, **data} if isinstance(data, dict) else data,
                                   errors, {})
    assert any(e.startswith(error) for e in errors), errors
    if sound:
        assert cues.of("name_joiners") == {"und"}
    if data == {"role_words": {"en": "editor | Writer"}}:
        assert cues.of("role_words") == {"editor"}


def test_a_bad_cue_file_is_a_problem_of_the_rules_folder(tmp_path: Path) -> None:
    (tmp_path / "metadata.yaml").write_text("role_words:\n  en: 'editor | Editor-in-chief'\n")
    rules = load_rules(tmp_path)
    problem = rules.problem()
    assert problem is not None and "metadata.yaml: role_words en has 'Editor-in-chief'" in problem
    assert rules.cues.role_word.search("a senior editor")


def test_the_project_cues_are_sound() -> None:
    """The shipped file loads without a problem and names only known kinds."""
    rules = load_rules()
    assert rules.errors == ()
    assert set(rules.cues.words) <= set(CUE_KINDS)
    assert {"by", "von", "par"} <= rules.cues.not_names
    assert all(len(languages) >= MIN_LANGUAGES for languages in _shipped().values())


def _shipped() -> dict:
    import yaml

    path = Path(load_rules().folder) / "metadata.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("html, author", [
    # en: a lead-in in running text and at a byline's start; a job title after the name.
    ("<h1>T</h1><p>By Jane Doe, Senior Editor</p>", "Jane Doe"),
    ("<h1>T</h1><p class='byline'>Written by Ann Lee</p>", "Ann Lee"),
    # de, fr, es, it, nl: a byline element's lead-in goes, the name stays.
    ("<h1>T</h1><p class='byline'>Von Max Muster</p>", "Max Muster"),
    ("<h1>T</h1><p class='byline'>Par Marie Curie</p>", "Marie Curie"),
    ("<h1>T</h1><p class='byline'>Por Ana García</p>", "Ana García"),
    ("<h1>T</h1><p class='byline'>Articolo di Mario Rossi</p>", "Mario Rossi"),
    ("<h1>T</h1><p class='byline'>Door Jan de Vries</p>", "Jan de Vries"),
    # Lead-ins, labels, joiners, verbs and weekdays of other languages.
    ("<h1>T</h1><p>Geschrieben von Max Muster und Erika Muster</p>", "Max Muster and Erika Muster"),
    ("<h1>T</h1><p><span>Autor:</span> Petra Ruland</p>", "Petra Ruland"),
    ("<h1>T</h1><p>Escrito por Jose Pablo Segura Vargas</p>", "Jose Pablo Segura Vargas"),
    ("<h1>T</h1><p>Écrit par Marie Curie et Pierre Curie</p>", "Marie Curie and Pierre Curie"),
    ("<h1>T</h1><cite class='fn author'>Karoline Herr</cite> <span>sagt:</span>", "Karoline Herr"),
    ("<h1>T</h1><p class='byline'>Von Ida Berg am Samstag, 19. Oktober</p>", "Ida Berg"),
    ("<h1>T</h1><p class='byline'>Veröffentlicht von Chris Jung</p>", "Chris Jung"),
    # A weekday or a month before a day ends the name; a surname that is a month name after a
    # given name stays.
    ("<h1>T</h1><span class='byline'>Rae Lo Monday, 5 May 2024</span>", "Rae Lo"),
    ("<h1>T</h1><span class='author'>Max Muster 5. März 2024</span>", "Max Muster"),
    ("<h1>T</h1><span class='entry__author'>giampiero maggio</span>", "giampiero maggio"),
    # A preposition of running text before a capitalised noun is no byline (German nouns are
    # capitalised; "von" there is "from", "of").
    ("<h1>T</h1><p>Eine Liste von Informationen zum Thema.</p>", None),
    ("<h1>T</h1><p>Une liste par Région et par Département.</p>", None),
    # A month after "by" is a deadline, not a name.
    ("<h1>T</h1><p>Order now to receive it by June 18.</p>", None),
])
def test_bylines_of_each_language(html: str, author: str | None) -> None:
    assert _metadata(html).author == author


@pytest.mark.parametrize("shown, updated", [
    ("Updated March 5, 2020", True),
    ("Published March 5, 2020", False),
    ("Zuletzt aktualisiert am 5 März 2020", True),
    ("Veröffentlicht am 5 März 2020", False),
    ("Mis à jour le 5 mars 2020", True),
    ("Publié le 5 mars 2020", False),
    ("Actualizado el 5 marzo 2020", True),
    ("Aggiornato il 5 marzo 2020", True),
    ("Bijgewerkt op 5 maart 2020", True),
    ("Gepubliceerd op 5 maart 2020", False),
])
def test_update_labels_of_each_language(shown: str, updated: bool) -> None:
    tree = lxml.html.fromstring(f"<html><body><h1>Title</h1><p>{shown}</p></body></html>")
    assert visible_dates(tree) == [("2020-03-05", updated)]
