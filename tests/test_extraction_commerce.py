"""Shop pages (products, collections, listings): the page's own content wins over shop chrome."""

from __future__ import annotations

import pytest

from crawler.extraction import candidates as tiers
from crawler.extraction import extract
from crawler.extraction.document import parse_html
from crawler.extraction.frameworks import load_rules
from crawler.extraction.scoring import compute_stats, density_scores
from crawler.extraction.thresholds import THRESHOLDS

INTRO = ("Lightweight, supportive and comfortable, our sneakers make any outing feel easy, "
         "whether you walk the dog, run errands or sit at your desk all day long. ")
GUIDE = "".join(f"<div class='faq-item'><h3>Question {i}</h3><div>{INTRO}Answer {i} explains the "
                f"fit, the care and the materials, number {i}.</div></div>" for i in range(3))
"""Text in bare divs, as shop themes print it: no paragraph-scored container validates alone."""
POLICY = "".join(f"<p>Policy clause {i}: we process personal information, with your consent, "
                 f"for the purposes listed here, and share it with partners, processors and "
                 f"affiliates, as the law allows.</p>" for i in range(40))
DESCRIPTION = "".join(f"<p>Hand-thrown stoneware mug, glaze number {i}: each one is made on the "
                      f"wheel, glazed in two tones and fired twice, so no two are alike.</p>"
                      for i in range(4))
RELATED = "<div class='related-products'>" + "".join(
    f"<div class='related-products__item'><p>Another mug {i}, also glazed in two tones, from the "
    f"same shop, on sale now for a short while only, while stocks last.</p></div>"
    for i in range(3)) + "</div>"
REVIEWS = "<div class='product-reviews'><h2>Customer reviews</h2>" + "".join(
    f"<div class='review'><p>Reviewer {i} says: I love this mug, it keeps the coffee warm, the "
    f"glaze is lovely and it arrived well packed, five stars from me.</p></div>"
    for i in range(8)) + "</div>"
CARDS = "".join(
    f"<a class='card' href='/recipes/{i}'><h3>Crispy air fryer dish {i}</h3><p>Ready in "
    f"{10 + i} minutes, with a golden crust and a soft middle, serves four.</p></a>"
    for i in range(16))
"""A listing grid whose cards are each wrapped in a link: link density close to 1."""
DAWN_CARDS = "<ul id='product-grid' class='grid product-grid'>" + "".join(
    f"<li class='grid__item'><div class='card-wrapper product-card-wrapper'><div class='card'>"
    f"<div class='card__inner'><div class='card__content'><h3 class='card__heading'>"
    f"<a href='/products/roast-{i}'>Dark roast number {i}</a></h3></div></div>"
    f"<div class='card__content'><h3 class='card__heading'><a href='/products/roast-{i}'>"
    f"Dark roast number {i}</a></h3><div class='price'><div class='price__regular'>"
    f"<span>$19.{i}9</span></div><div class='price__sale'><span>$19.{i}9</span></div></div>"
    f"<div class='quick-add'><span>Choose options</span></div></div></div></div></li>"
    for i in range(10)) + "</ul>"
"""A Shopify (Dawn) collection grid: every card prints its title and price twice."""
BOXES = "".join(
    f"<div class='col-md-3 cat_box'><div class='box'><h2><a href='/category/{i}'>Whetstone "
    f"set {i}<br>$7.95 - $179.95</a></h2><span class='cat_description'>Fine grit stones "
    f"for kitchen knives and chisels, kit number {i}.</span><a href='/category/{i}'>Get "
    f"Details</a></div></div>" for i in range(12))
"""A category grid of bare divs and spans: no landmark, no content-like class name."""
STORIES = "<div class='feed'>" + "".join(
    f"<div class='story'><h2><a href='/posts/{i}'>How we rebuilt the search index, part {i}</a>"
    f"</h2><a href='/u/{i}'>Author {i}</a> <a href='/t/search'>#search</a> "
    f"<a href='/t/infra'>#infra</a></div>" for i in range(24)) + "</div>"
"""A feed of story cards made of links only: each card alone looks like a menu."""
SHOPIFY = "<link rel='stylesheet' href='https://cdn.shopify.com/s/files/theme.css'>"
GRID = "<ul class='grid'>" + "".join(
    f"<li class='card'><a href='/p/{i}'>Runner {i}</a><span>$98</span></li>" for i in range(12)
) + "</ul>"


def page(body: str) -> str:
    return f"<!doctype html><html><head><title>Sneakers</title></head><body>{body}</body></html>"


CASES = [
    # (name, body, text that must be in the content, text that must not)
    ("policy modal in the footer is not the content",
     f"<main><h1>Sneakers</h1>{GRID}<div>{GUIDE}</div></main>"
     f"<footer><div role='dialog' aria-modal='true'><div class='prose'>{POLICY}</div></div>"
     f"</footer>",
     ["Answer 2 explains the fit"], ["Policy clause 3"]),
    ("a policy in a wrapped footer does not widen the choice to the page",
     f"<div class='section-header'><p>Free shipping on orders over $75.</p></div>"
     f"<main><h1>Sneakers</h1>{GUIDE}</main><div class='section-footer'><footer>"
     f"<div class='modal-privacy-policy'><div>{POLICY}</div></div></footer></div>",
     ["Answer 2 explains the fit"], ["Policy clause 3", "Free shipping"]),
    ("prose in a nav menu is not the content",
     f"<nav><div class='rich-text'>{POLICY}</div></nav><main><h1>Sneakers</h1>{GRID}{GUIDE}</main>",
     ["Answer 1 explains the fit"], ["Policy clause 3"]),
    ("a wrapper kept despite its name does not switch the name rule off",
     f"<main><h1>Mug</h1><div class='buy-box'>{DESCRIPTION}</div>{RELATED}</main>",
     ["glaze number 3"], ["Another mug 1"]),
    ("a collapsed read-more description is the product's text",
     f"<main><h1>Mug</h1><div id='description-read-more' class='content-toggle__body'>"
     f"{DESCRIPTION}</div>{RELATED}</main>",
     ["glaze number 0", "glaze number 3"], ["Another mug 2"]),
    ("customer reviews longer than the description are not the product's content",
     f"<main><h1>Mug</h1><div class='product-description'>{DESCRIPTION}</div>{REVIEWS}</main>",
     ["glaze number 2"], ["Reviewer 3 says", "Customer reviews"]),
    ("a main made of linked cards is the listing's content",
     f"<header><nav>{GRID}</nav></header><main><h1>Air fryer recipes</h1>"
     f"<div class='grid'>{CARDS}</div></main><footer><p>{INTRO}</p></footer>",
     ["Crispy air fryer dish 0", "Crispy air fryer dish 15", "Ready in 15 minutes"],
     ["Runner 3", INTRO[:40]]),
    ("a grid of linked cards outweighs a short note beside it",
     f"<div class='col-lg-10'><h1>Air fryer recipes</h1><div class='grid'>{CARDS}</div></div>"
     f"<div class='pricing-note'>{DESCRIPTION}</div>",
     ["Crispy air fryer dish 0", "Crispy air fryer dish 15"], ["glaze number 2"]),
    ("a feed of link-only story cards keeps its cards",
     f"<header><nav>{GRID}</nav></header><main><h1>Latest posts</h1>{STORIES}</main>",
     ["rebuilt the search index, part 0", "rebuilt the search index, part 23"], ["Runner 3"]),
    ("slides of a carousel hidden from screen readers are content",
     f"<main><h1>Homes for sale</h1><p>{INTRO}</p><ul class='carousel'>" + "".join(
         f"<li class='carousel__cell' aria-hidden='true'><p>Home {i}: {INTRO}</p></li>"
         for i in range(4)) + f"</ul>{RELATED}</main>",
     ["Home 0: Lightweight", "Home 3: Lightweight"], ["Another mug 1"]),
    ("a product-details panel shown in a modal is the product's text",
     f"<main><h1>Mug</h1>{GUIDE}<div class='product-details-modal'>{DESCRIPTION}</div>"
     f"<div class='newsletter-modal'><p>{INTRO.upper()}</p></div></main>",
     ["glaze number 0", "glaze number 3"], [INTRO.upper()[:40]]),
    ("readers' comments under a list are not the list",
     f"<main><h1>Best mugs</h1><ol>" + "".join(
         f"<li><a href='/mug/{i}'>Mug {i}</a> by Potter {i}, glazed in two tones, fired twice, "
         f"voted for by {i} readers this year</li>" for i in range(12)) + "</ol>"
     "<div id='comment_list'>" + "".join(
         f"<div class='comment'><p>Reader {i} wrote: my favourite is missing from this list, and "
         f"the order makes no sense to me at all.</p></div>" for i in range(4)) + "</div></main>",
     ["Mug 11 by Potter 11"], ["Reader 2 wrote"]),
    ("a filter list box with item counts is not the collection's content",
     f"<main><h1>Sneakers</h1><div role='listbox' aria-label='Item type options'>" + "".join(
         f"<div role='option'><span>Walking shoe type {i}</span><span>{i * 7}</span>"
         f"</div>" for i in range(12)) + f"</div>{GUIDE}</main>",
     ["Answer 2 explains the fit"], ["Walking shoe type 3"]),
    ("a star rating widget in each card is not the listing's text",
     f"<main><h1>Headphones</h1><div class='products'>" + "".join(
         f"<div class='product'><h3><a href='/p/{i}'>Studio headphone model {i}</a></h3>"
         f"<div class='product__rating-stars'><span>4.{i}</span><span>({6200 + i} ratings)"
         f"</span></div><p>Closed back, circumaural, dynamic drivers for mixing and recording, "
         f"model {i}.</p></div>" for i in range(8)) + "</div></main>",
     ["Studio headphone model 7", "dynamic drivers for mixing"], ["6207 ratings"]),
    ("a sort control above a listing is not its text",
     f"<main><h1>Sneakers</h1><div class='category-sort-order'><label>Sort products by the "
     f"newest arrivals first, or by price</label></div>{GUIDE}</main>",
     ["Answer 2 explains the fit"], ["Sort products by"]),
    ("a Shopify card grid prints each title and price once",
     f"{SHOPIFY}<main><h1>Coffee</h1><p>{INTRO}</p>{DAWN_CARDS}</main>",
     ["Dark roast number 7", "$19.79"], ["Choose options"]),
]


@pytest.mark.parametrize("name, body, kept, gone", CASES, ids=[c[0] for c in CASES])
def test_shop_page_content(name: str, body: str, kept: list[str], gone: list[str]) -> None:
    result = extract(page(body), "https://shop.example/collections/sneakers")
    for snippet in kept:
        assert snippet in result.content_text, snippet
    for snippet in gone:
        assert snippet not in result.content_text, snippet
    if name.startswith("a Shopify"):
        assert result.framework == "shopify"
        assert result.content_text.count("Dark roast number 7") == 1
        assert result.content_text.count("$19.79") == 1


GRID_CASES = [
    # (name, body, class of the grid found or None)
    ("bare divs of linked boxes", f"<div class='col-lg-10'><h1>Stones</h1>"
     f"<div class='row border'>{BOXES}</div></div>", "row border"),
    ("boxes outside the main landmark are a carousel",
     f"<main><h1>Whetstone</h1><p>{DESCRIPTION}</p></main><div class='row more'>{BOXES}</div>",
     None),
    ("a menu of link sections is no grid",
     "<div class='menu-panel'>" + "".join(
         f"<div class='section'><h4>Section {i}</h4>" + "".join(
             f"<a href='/c/{i}/{j}'>Socks {j}</a>" for j in range(12)) + "</div>"
         for i in range(6)) + "</div>", None),
    ("repeated paragraphs without links are no grid",
     f"<div class='text'>{DESCRIPTION * 2}</div>", None),
]


@pytest.mark.parametrize("name, body, grid_class", GRID_CASES, ids=[c[0] for c in GRID_CASES])
def test_grid_of_linked_items(name: str, body: str, grid_class: str | None) -> None:
    tree = parse_html(page(body)).tree.find("body")
    scored: list = []
    stats = compute_stats(tree, THRESHOLDS, scored)
    grid = tiers.item_grid(tree, stats, density_scores(stats, scored, THRESHOLDS, load_rules().cleaning), load_rules().cleaning.chrome)
    assert (grid.element.get("class") if grid is not None else None) == grid_class


PRODUCT_HEAD = "<meta property='og:type' content='product'>"
BUY_BOX = ("<div class='buy-panel'><h1>Stoneware mug</h1><p>$24.00 or four payments of $6.00 "
           "with our partner, interest free, at checkout, for orders over $20.</p>"
           "<p>Free shipping over $75 and free returns within 30 days, no questions asked.</p>"
           "</div>")
SPECS = ("<div class='specs'><h2>Specifications</h2><table>" + "".join(
    f"<tr><td>Property {i}</td><td>Value {i} of the mug, measured in the lab</td></tr>"
    for i in range(8)) + "</table></div>")
WARRANTY = ("<div class='warranty'><h2>Warranty</h2><p>Our free two-year coverage repairs or "
            "replaces any item that breaks in normal use, parts and labour included.</p></div>")

DESCRIPTION_CASES = [
    # (name, head, body, text that must be in the content, text that must not)
    ("a product page is its description block",
     PRODUCT_HEAD, f"<main>{BUY_BOX}<div id='description'><h2>Description</h2>{DESCRIPTION}"
     f"</div>{SPECS}{WARRANTY}</main>",
     ["glaze number 0", "glaze number 3"], ["four payments", "Property 3", "two-year coverage"]),
    ("a short teaser named description does not replace the product page",
     PRODUCT_HEAD, f"<main>{BUY_BOX}<p class='description'>A mug.</p><div class='story'>"
     f"{DESCRIPTION}</div>{WARRANTY}</main>",
     ["glaze number 0", "glaze number 3"], []),
    ("a page that is no product keeps the text around a description block",
     "", f"<main><h1>Workshop</h1><div class='intro'>{DESCRIPTION}</div>"
     f"<div class='description'>{DESCRIPTION.replace('mug', 'bowl')}</div></main>",
     ["Hand-thrown stoneware mug", "Hand-thrown stoneware bowl"], []),
]


@pytest.mark.parametrize("name, head, body, kept, gone", DESCRIPTION_CASES,
                         ids=[c[0] for c in DESCRIPTION_CASES])
def test_product_description(name: str, head: str, body: str, kept: list[str],
                             gone: list[str]) -> None:
    html = f"<!doctype html><html><head><title>Mug</title>{head}</head><body>{body}</body></html>"
    result = extract(html, "https://shop.example/pages/stoneware")
    for snippet in kept:
        assert snippet in result.content_text, snippet
    for snippet in gone:
        assert snippet not in result.content_text, snippet


def card_grid(card: str) -> str:
    """A collection page whose grid repeats one card layout eight times."""
    return page(f"<main><h1>Coffee</h1>{DESCRIPTION}<ul class='products'>" + "".join(
        "<li class='product'>" + card.format(i=i) + "<p>Bold and smoky, roasted in small batches "
        f"every week, lot {i}.</p><span>$19.{i}9</span></li>" for i in range(8)) + "</ul></main>")


CARD_CASES = [
    # (name, card markup, times the title of card 7 is printed)
    ("an image link repeating the heading is dropped",
     "<a class='media' href='/p/{i}'>Dark roast number {i}</a>"
     "<h3><a href='/p/{i}'>Dark roast number {i}</a></h3>", 1),
    ("a heading alone stays", "<h3><a href='/p/{i}'>Dark roast number {i}</a></h3>", 1),
    ("two links without a heading both stay",
     "<a href='/p/{i}'>Dark roast number {i}</a> <a href='/p/{i}#buy'>Dark roast number {i}</a>",
     2),
]


@pytest.mark.parametrize("name, card, times", CARD_CASES, ids=[c[0] for c in CARD_CASES])
def test_card_title_printed_once(name: str, card: str, times: int) -> None:
    result = extract(card_grid(card), "https://shop.example/collections/coffee")
    assert result.content_text.count("Dark roast number 7") == times
