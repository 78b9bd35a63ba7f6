"""A short news story in French, the page every story-rule table test builds its cases around:
numbered paragraphs (``Paragraphe N``) and a closing one (``Fin de l'article``) that each case
asserts stay, whatever else goes."""

from __future__ import annotations


def story_paragraphs(count: int) -> str:
    """``count`` numbered paragraphs of the story, from ``Paragraphe 0``."""
    return "".join(
        f"<p>La commune a inauguré lundi le nouveau port, après des travaux qui ont duré trois "
        f"semaines de plus que prévu; les premiers bateaux sont arrivés avant midi. Paragraphe {i}."
        f"</p>" for i in range(count))


STORY_END = ("<p>Le maire a remercié tous les participants et annoncé que le marché du quai "
             "rouvrira chaque samedi dès le printemps prochain. Fin de l'article.</p>")
"""The story's last paragraph."""
