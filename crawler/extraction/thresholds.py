"""Every number the container choice and the cleaning use, in one frozen, documented object.

Each field says what it means and how its value was set. "Structural" means the value follows
from what the check is for (half, a repetition needs two). "Swept" records a calibration: the
engine was run on both development corpora with the value changed to a few values around it
(``benchmarks/extraction.py --threshold NAME=VALUE``; the pages whose output could change were
run again and all pages scored with the corpus scorer, split by site into folds as
``benchmarks/folds.py`` does: folds 0-1 development, 2-3 held out). The figures are body F1 on
extraction-dev (857 pages) and snippet F1 on snippets-dev (817 pages), each as
all / development folds / held-out folds; at the current values they are body F1
{BODY} and snippet F1 {SNIPPET}. A value is changed only when it helps the held-out
folds of both corpora and costs nothing elsewhere; otherwise it is kept and the sweep recorded.
"Not swept" says why a value was left as set when the check was written.

A benchmark sweeps a value with ``dataclasses.replace(THRESHOLDS, name=value)`` passed to
``extract(..., thresholds=...)``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The numbers of the container choice and of the cleaning (see each field)."""

    # --- validation --------------------------------------------------------------------------
    min_chars: int = 100
    """A candidate needs more than this many non-space characters (a caption or a teaser is
    shorter). Structural: about one sentence and a half."""
    min_paragraphs: int = 2
    """... and at least this many paragraphs of 40+ characters, unless it is long
    (``paragraphs_waived_chars``). Hand-set on extraction-dev pages."""
    paragraphs_waived_chars: int = 600
    """A candidate this long passes without the paragraph count (one long paragraph, a table,
    a code listing). Hand-set on extraction-dev pages."""
    max_link_density: float = 0.5
    """A candidate with this share of its text in links or more is navigation, not content.
    Structural (half), the value Readability-style extractors use."""
    nearly_max_link_density: float = 0.7
    """A density candidate failing on link density alone but below this is a hub page's own
    content (a list of links with short descriptions). Hand-set on extraction-dev listing and
    collection pages."""

    # --- proposers ---------------------------------------------------------------------------
    pattern_limit: int = 4
    """Class/id-pattern candidates kept, largest first. Hand-set."""
    density_limit: int = 3
    """Density-scored candidates kept, best first. Hand-set."""
    min_repeats: int = 2
    """Content wrappers of one tag and class repeating this often are posts of one thread (their
    common container is proposed). Structural: a repetition needs two."""
    repeated_items_share: float = 0.5
    """... when together they hold at least this share of the container's content-like text
    (otherwise they are cards beside an article). Structural (half)."""
    article_dominance: float = 2.0
    """The largest ``<article>`` is proposed when it holds this many times the text of all other
    articles outside it. Structural: it must dominate, not tie."""
    article_body_min_chars: int = 200
    """A declared articleBody shorter than this is a summary, not the body. Hand-set on
    extraction-dev article pages."""
    article_body_agreement: float = 0.8
    """A declared articleBody stands in for the page only when this share of its words is on the
    page (an outdated or foreign body does not). Hand-set on extraction-dev pages."""

    # --- agreement ---------------------------------------------------------------------------
    container_extra_chars_share: float = 0.1
    """A semantic/pattern container holding the density winner agrees with it when it adds at
    most this share of text ... Hand-set on extraction-dev pages."""
    container_extra_good: float = 0.4
    """... or when this share of what it adds is content-like. Hand-set on extraction-dev pages."""
    inside_share: float = 0.7
    """A container inside the density winner agrees with it when it holds this share of the
    winner's content-like text. Hand-set on extraction-dev pages."""
    expand_good_share: float = 0.5
    """The density winner widens to a parent when at least this share of what the parent adds
    is content-like (sectioned articles). Structural (half)."""

    # --- coverage ----------------------------------------------------------------------------
    coverage_min: float = 0.4
    """A choice holding less than this share of the page's content-like text is widened
    (sectioned service and landing pages). Hand-set on extraction-dev service pages."""
    coverage_target: float = 0.6
    """... to the lowest ancestor holding at least this share. Hand-set on extraction-dev
    service pages."""

    # --- listings ----------------------------------------------------------------------------
    min_list_chars: int = 1000
    """A list of linked items shorter than this is a menu or a hero section, not a listing.
    Hand-set on extraction-dev listing pages."""
    min_grid_items: int = 4
    """A grid has at least this many sibling items of one tag and class. Structural: a row of
    three is a teaser rail."""
    grid_min_chars: int = 300
    """A grid's container holds at least this many characters (three validation minimums)."""
    grid_items_share: float = 0.7
    """The items hold at least this share of their container's text. Hand-set on
    extraction-dev listing and collection pages."""
    min_grid_item_chars: int = 40
    """Items shorter than this on average are menu entries, not cards. Structural: one line."""
    grid_linked_share: float = 0.8
    """At least this share of the items link out (four in five). Structural."""
    grid_over_choice: float = 2.5
    """A grid of linked items replaces a chosen block outside it when it holds this many times
    its text (a category page whose short intro won the density score). Hand-set on
    extraction-dev listing pages."""
    grid_over_fallback: float = 2.0
    """A grid of linked cards replaces the trafilatura fallback when it holds this many times
    its text (the fallback kept the intro paragraph of a category page). Hand-set on
    extraction-dev listing pages."""

    # --- product pages -----------------------------------------------------------------------
    min_description_share: float = 0.3
    """A product's description block replaces the product page when it holds this share of the
    page's content-like text (a one-line teaser is not the description). Hand-set on
    extraction-dev product pages."""

    # --- cleaning: guards -------------------------------------------------------------------
    generic_max_share: float = 0.5
    """A generic cleaning rule (selector, boilerplate name, link density) never removes an
    element holding more than this share of the container's text, and removals of one kind
    that together would take more than this share are taken back (the page is made of what
    they matched). Structural (half)."""
    secondary_max_share: float = 0.8
    """A secondary section (reviews, recommendations, a table of contents) is removed up to
    this share of the container: shop pages print dozens of reviews under a short product
    description."""
    hidden_copy_share: float = 0.8
    """A large hidden block whose words are at least this share repeated in the visible rest of
    the container is a copy of it (raw markdown for a copy button, a print version)."""
    named_discount_max_share: float = 0.5
    """A block named as never content (``not_content_pattern``) keeps its content-like count
    when it holds more than this share of the page's content-like text (the name is then the
    site's vocabulary). Structural (half)."""
    named_discount_min_good: int = 80
    """Named blocks with less content-like text than this are not worth discounting (a label,
    a caption)."""

    # --- cleaning: preparing the page --------------------------------------------------------
    noscript_content_chars: int = 200
    """A ``<noscript>`` with at least this much text is the server-rendered page (forum engines
    print the posts there for clients without JavaScript): it is kept as content."""
    swallowing_chrome_share: float = 0.6
    """A navigation, header, footer or aside that runs to the end of its parent, holds the
    page's h1, main or article and more than this share of the page's text has swallowed the
    page (an unclosed ``<nav>``): it is closed where its links end."""
    chrome_link_share: float = 0.5
    """... at the first child with at most this share of its text in links. Structural
    (half)."""
    signup_max_chars: int = 400
    """A block around an email field with at most this much text is a sign-up box (newsletter,
    alerts), not content; a larger one is a page that happens to hold a form."""
    toggle_panel_depth: int = 2
    """How many wrappers a collapsed toggle may sit in (a link in a div in a heading) and still
    open the block that follows the outermost of them. Structural."""
    form_content_chars: int = 200
    """A form or fieldset in the chosen container holding at least this much text is a page
    wrapped in a form (ASP.NET) and becomes a plain block."""

    # --- cleaning: code blocks, repeats and cards --------------------------------------------
    code_chrome_max_chars: int = 20
    """A code block's chrome (a language label, a copy button's text) is a line of at most this
    many characters beside the ``<pre>``, in a wrapper that holds nothing else ..."""
    code_chrome_max_words: int = 2
    """... and of at most this many words."""
    code_wrapper_max_outside: int = 40
    """A wrapper around a ``<pre>`` whose own text outside it is at most this long is the code
    block's frame (its toolbar); a wrapper with more text is the prose around the code."""
    code_wrapper_depth: int = 3
    """How many wrappers above a ``<pre>`` are searched for its frame. Structural."""
    min_repeat_chars: int = 40
    """A text block repeating an earlier one word for word is dropped only when it has at least
    this many characters (short labels repeat legitimately). Structural: one line of prose."""
    min_cards: int = 4
    """Siblings of one tag and class, at least this many, are the cards of a grid or list
    (a card printing its title twice loses the copy in its image link)."""
    max_card_chars: int = 500
    """A card is short: a longer item (a forum post, a section) is read as it stands."""
    min_card_line_chars: int = 8
    """A line of a card shorter than this (a price, a count) may repeat legitimately."""

    # --- cleaning: link-dense blocks ---------------------------------------------------------
    nav_min_links: int = 3
    """A block with fewer links than this is never pruned as navigation."""
    nav_link_density: float = 0.65
    """A block with more than this share of its text in links ..."""
    nav_max_link_chars: float = 28.0
    """... and links this short on average (menu entries, tags, share buttons, page numbers) is
    navigation: pruned from the container and no grid of items."""

    # --- comments ----------------------------------------------------------------------------
    comment_min_story_chars: int = 200
    """Characters of text the page must keep before and outside its comment sections: a page
    that is nothing but comments keeps them as its content."""
    discussion_over_story: float = 5.0
    """Comments holding more than this many times the story's prose make a discussion page
    (there they are the content). Measured on the development folds: forum threads without an
    engine rule or a declared type held 3 to 160 times their opening post's prose (two of four
    above 5); on the snippet corpus, 153 of 157 comment sections under stories held less than 5
    times the story (median 0)."""
    comment_min_prose_chars: int = 40
    """A paragraph of the story has at least this many characters ... Structural: one line
    of prose."""
    comment_prose_max_link_share: float = 0.5
    """... and less than this share of them in links. Structural (half)."""
    min_comment_items: int = 2
    """Sibling items of one shape, each with a date and an author, at least this many, are a
    comment list. Structural: a repetition needs two."""
    min_comment_item_chars: int = 20
    """A comment holds some prose: an item with less text is a link card or a date line."""
    comment_item_depth: int = 6
    """How far above a date its comment item may sit (the date in a meta line in a header)."""

    def as_dict(self) -> dict[str, float]:
        """Every threshold by name (for the trace and benchmarks)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def pick(self, names: tuple[str, ...]) -> dict[str, float]:
        """The named thresholds and their values (what a decision used)."""
        return {name: getattr(self, name) for name in names}


THRESHOLDS = Thresholds()
"""The thresholds the engine runs with unless a caller passes others."""
