"""Price lines of a product page: a line whose whole text is an amount of money (the price, a
former price, the price of each add-on or accessory beside the product) goes; the product's
text stays, and so do a price written inside a sentence, a line holding words beside its
amount, the prices of a page that is no product and the prices of a grid of product cards that
is what the page lists."""

from __future__ import annotations

import pytest

from crawler.extraction import Extraction, extract
from crawler.extraction.frameworks import load_rules
from crawler.extraction.price_lines import price_lines
from tests.kept_and_removed import assert_kept_and_removed

PRODUCT_HEAD = "<meta property='og:type' content='product'>"
DESCRIPTION = "".join(
    f"<p>Hand-thrown stoneware mug with a two-tone glaze, fired twice in our studio and finished "
    f"by hand, glaze number {i}, safe in the dishwasher and the microwave.</p>" for i in range(5))
PRICE = "<div class='price'><span class='now'>59,99\u20ac</span></div>"
FORMER = "<div class='was'>-33%EUR 23.06</div>"
ADD_ONS = "<div class='add-ons'><h2>Goes well with</h2>" + "".join(
    f"<div class='add-on' id='a{i}'><div class='name'>Saucer in glaze {i}</div>"
    f"<div class='cost'>${12 + i}.00</div></div>" for i in range(4)) + "</div>"
SENTENCE = ("<p>The set of four costs <b>$89.00</b> and ships in a wooden crate lined with straw "
            "from the village.</p>")
WORDED = "<div class='offer'>From $24.00 or four payments</div>"
CARD_GRID = "<ul class='products'>" + "".join(
    f"<li class='card'><a href='/p/{i}'>Planter number {i}, glazed in blue</a>"
    f"<div class='sku'>SKU: X{i:04d}</div><div class='price'>${30 + i}.00</div></li>"
    for i in range(8)) + "</ul>"


def extracted(body: str, head: str = PRODUCT_HEAD) -> Extraction:
    """The case's body extracted as a shop's page (a product when ``head`` declares one)."""
    html = (f"<!doctype html><html><head><title>Mug</title>{head}</head><body><header><a "
            f"href='/'>Shop</a></header><main><h1>Stoneware mug</h1>{body}</main><footer>"
            f"Impressum</footer></body></html>")
    return extract(html, "https://shop.example/pages/stoneware", trace=True)


CASES = [
    # (name, head, body, must stay, must go)
    ("the price under the title and a former price go, the description stays",
     PRODUCT_HEAD, PRICE + FORMER + DESCRIPTION, ["glaze number 0", "glaze number 4"],
     ["59,99", "23.06"]),
    ("each add-on's price goes, its name stays",
     PRODUCT_HEAD, DESCRIPTION + ADD_ONS, ["glaze number 4", "Saucer in glaze 3"],
     ["$12.00", "$15.00"]),
    ("a price inside a sentence and a line with words beside its amount stay",
     PRODUCT_HEAD, PRICE + DESCRIPTION + SENTENCE + WORDED,
     ["costs $89.00 and ships", "From $24.00 or four payments"], ["59,99"]),
    ("a page that is no product keeps its prices",
     "", DESCRIPTION + ADD_ONS, ["glaze number 4", "$12.00", "$15.00"], []),
    ("a grid of product cards holding most of the text is what the page lists: prices stay",
     PRODUCT_HEAD, "<p>Planters for indoor plants, glazed and fired in our studio.</p>"
     + CARD_GRID, ["Planter number 7", "$30.00", "$37.00"], []),
]


@pytest.mark.parametrize("name,head,body,stay,go", CASES, ids=[c[0] for c in CASES])
def test_price_lines(name: str, head: str, body: str, stay: list[str], go: list[str]) -> None:
    assert_kept_and_removed(extracted(body, head).content_text, name, stay, go)


def test_the_removal_is_traced() -> None:
    result = extracted(PRICE + DESCRIPTION)
    assert any(entry.get("rule") == "price-line" for entry in result.trace)


@pytest.mark.parametrize("text,price", [
    ("59,99\u20ac", True), ("EUR10.37", True), ("-33%EUR 23.06", True), ("$149.00 - $159.00", True),
    ("US$ 12", True), ("1 500 \u20bd", True), ("From $1099", False), ("2024", False),
    ("12 %", False), ("Total: $2971.40", False), ("$5 off", False)])
def test_price_line_pattern(text: str, price: bool) -> None:
    pattern = load_rules().cleaning.price_line_pattern
    assert pattern is not None and (pattern.search(text) is not None) == price

