"""Every number the container choice uses, in one frozen, documented object.

Each field says what it means and how its value was set: "structural" means the value follows
from what the check is for (half, a repetition needs two); "hand-set on <pages>" means it was
chosen when the check was written, by looking at those extraction-dev pages, and has not been
swept since (an honest label, not a calibration). A benchmark
can sweep a value with ``dataclasses.replace(THRESHOLDS, name=value)`` passed to
``extract(..., thresholds=...)``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The container choice's numbers (see each field)."""

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

    def as_dict(self) -> dict[str, float]:
        """Every threshold by name (for the trace and benchmarks)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def pick(self, names: tuple[str, ...]) -> dict[str, float]:
        """The named thresholds and their values (what a decision used)."""
        return {name: getattr(self, name) for name in names}


THRESHOLDS = Thresholds()
"""The thresholds the engine runs with unless a caller passes others."""
