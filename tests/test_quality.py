"""Quality score of an extraction and the quality gate that flags or drops weak pages."""

from __future__ import annotations

import lxml.html
import pytest
from scrapy.exceptions import CloseSpider, DropItem, NotConfigured
from scrapy.utils.test import get_crawler

from crawler import settings as project_settings_module
from crawler.extraction.quality import assess_quality
from crawler.items import PageItem
from crawler.pipelines.quality import QualityGateConfig, QualityGateConfigError, QualityGatePipeline
from tests.conftest import project_settings

PARAGRAPH = "This paragraph explains one idea in plain words, with enough detail to be useful. " * 2
ARTICLE = lxml.html.fromstring("<article>" + f"<p>{PARAGRAPH}</p>" * 12 + "</article>")
LINKS = lxml.html.fromstring("<div><ul>" + "<li><a href='/x'>Another related story title</a></li>" * 30
                             + "</ul><p>Short intro.</p></div>")
FULL_META = {"title": "T", "author": "A", "published": "2024-01-01", "language": "en"}


def _assess(element, **kwargs):
    text = element.text_content() if element is not None else kwargs.pop("text", "")
    return assess_quality(text, element=element, page_html_length=kwargs.pop("html_length", 40_000), **kwargs)


def test_a_full_article_scores_high_without_reasons() -> None:
    score, reasons = _assess(ARTICLE, tier="semantic", **FULL_META)
    assert score >= 0.85 and reasons == []


@pytest.mark.parametrize("element, kwargs, reason", [
    (None, {"text": ""}, "empty content"),
    (lxml.html.fromstring("<div><p>Too short to read.</p></div>"), {"tier": "semantic"}, "very short content"),
    (LINKS, {"tier": "density"}, "link-dense content"),
    (ARTICLE, {"tier": "body"}, "weak tier"),
    (ARTICLE, {"tier": "semantic"}, "incomplete metadata"),
    (ARTICLE, {"tier": "semantic", "html_length": 5_000_000, **FULL_META}, "little text for the page size"),
])
def test_weaknesses_lower_the_score_and_are_named(element, kwargs, reason) -> None:
    score, reasons = _assess(element, **kwargs)
    full, _ = _assess(ARTICLE, tier="semantic", **FULL_META)
    assert 0.0 <= score < full
    assert any(reason in r for r in reasons), reasons


def test_content_that_is_a_small_part_of_the_page_is_named() -> None:
    page = lxml.html.fromstring("<html><body><aside>" + f"<p>{PARAGRAPH}</p>" * 60 + "</aside>"
                                "<article id='c'>" + f"<p>{PARAGRAPH}</p>" * 4 + "</article></body></html>")
    element = page.get_element_by_id("c")
    score, reasons = _assess(element, tier="semantic", **FULL_META)
    alone, _ = _assess(lxml.html.fromstring("<article>" + f"<p>{PARAGRAPH}</p>" * 4 + "</article>"),
                       tier="semantic", **FULL_META)
    assert score < alone
    assert any("small part of the page" in r for r in reasons), reasons


@pytest.mark.parametrize("stronger, weaker", [("rules", "semantic"), ("semantic", "density"), ("density", "body")])
def test_trusted_tiers_score_higher(stronger: str, weaker: str) -> None:
    assert _assess(ARTICLE, tier=stronger, **FULL_META)[0] > _assess(ARTICLE, tier=weaker, **FULL_META)[0]


def test_metadata_completeness_raises_the_score() -> None:
    bare, _ = _assess(ARTICLE, tier="semantic")
    full, _ = _assess(ARTICLE, tier="semantic", **FULL_META)
    assert full > bare


def test_text_without_element_is_scored_from_its_lines() -> None:
    blocks = "\n\n".join([PARAGRAPH] * 6)
    score_blocks, reasons = assess_quality(blocks, tier="structured", **FULL_META)
    score_line, line_reasons = assess_quality(blocks.replace("\n\n", " "), tier="structured", **FULL_META)
    assert score_blocks > score_line
    assert not any("paragraph" in r for r in reasons)
    assert any("few paragraphs" in r for r in line_reasons)


# --------------------------------------------------------------------------- pipeline

def _item(score: float | None, reasons: list[str] | None = None) -> PageItem:
    item = PageItem(url="https://x.example/p", domain="x.example", status=200, fetched_at="2024-01-01T00:00:00Z",
                    rendered=False, content_type="text/html", encoding="utf-8")
    item.quality_score = score
    item.quality_reasons = reasons or []
    return item


def _pipeline(**settings) -> QualityGatePipeline:
    pipeline = QualityGatePipeline.from_crawler(get_crawler(settings_dict=project_settings(**settings)))
    pipeline.open_spider()
    return pipeline


@pytest.mark.parametrize("score, flagged, stat", [
    (0.9, False, "quality/passed"),
    (0.5, False, "quality/passed"),
    (0.49, True, "quality/flagged"),
    (0.2, True, "quality/flagged"),
    (None, True, "quality/unscored"),
])
def test_flag_policy_keeps_every_page(score, flagged, stat) -> None:
    pipeline = _pipeline()
    item = pipeline.process_item(_item(score))
    assert item.quality_flagged is flagged
    assert pipeline.stats.get_value(stat) == 1


def test_drop_policy_drops_pages_below_the_threshold_with_the_reasons() -> None:
    pipeline = _pipeline(QUALITY_GATE_POLICY="drop", QUALITY_GATE_MIN_SCORE="0.5")
    assert pipeline.process_item(_item(0.6)).quality_flagged is False
    with pytest.raises(DropItem, match="very short content"):
        pipeline.process_item(_item(0.4, ["very short content (12 words)"]))
    assert pipeline.process_item(_item(None)).quality_flagged is True
    assert [pipeline.stats.get_value(k) for k in ("quality/passed", "quality/dropped", "quality/unscored")] == [1, 1, 1]


@pytest.mark.parametrize("settings, message", [
    ({"QUALITY_GATE_POLICY": "delete"}, "QUALITY_GATE_POLICY must be one of flag, drop"),
    ({"QUALITY_GATE_MIN_SCORE": "high"}, "QUALITY_GATE_MIN_SCORE must be a number"),
    ({"QUALITY_GATE_MIN_SCORE": 1.5}, "QUALITY_GATE_MIN_SCORE must be between 0 and 1"),
])
def test_invalid_settings_stop_the_crawl_with_a_sentence(settings, message) -> None:
    pipeline = QualityGatePipeline.from_crawler(get_crawler(settings_dict=project_settings(**settings)))
    with pytest.raises(CloseSpider):
        pipeline.open_spider()
    assert pipeline.stats.get_value("crawl/startup_error").startswith(message)


def test_config_accepts_setting_strings() -> None:
    assert QualityGateConfig.from_values(" DROP ", "0.25") == QualityGateConfig(policy="drop", min_score=0.25)
    with pytest.raises(QualityGateConfigError):
        QualityGateConfig.from_values("flag", None)


def test_disabled_gate_is_not_configured() -> None:
    with pytest.raises(NotConfigured):
        QualityGatePipeline.from_crawler(get_crawler(
            settings_dict=project_settings(QUALITY_GATE_ENABLED="false")))


def test_gate_runs_between_extraction_and_storage() -> None:
    order = sorted(project_settings_module.ITEM_PIPELINES, key=project_settings_module.ITEM_PIPELINES.get)
    gate = order.index("crawler.pipelines.quality.QualityGatePipeline")
    extraction = order.index("crawler.pipelines.extraction.ExtractionPipeline")
    storage = order.index("crawler.pipelines.storage.SQLitePipeline")
    assert extraction < gate < storage
    # only the browser fallback (which re-extracts a thin JavaScript page) sits between them
    assert order[extraction + 1:gate] == ["crawler.pipelines.render_fallback.RenderFallbackPipeline"]
    assert project_settings_module.ITEM_PIPELINES["crawler.pipelines.quality.QualityGatePipeline"] == 400
