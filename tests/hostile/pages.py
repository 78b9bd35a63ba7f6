"""Bodies the hostile server serves: articles, charsets, malformed HTML, binaries, XSS pages."""

from __future__ import annotations

import html
import io
import json
import struct
import zipfile
import zlib
from pathlib import Path

#: Text of every control article: enough prose that an extractor keeps it as main content.
FILLER = (
    "The harbour committee met on Tuesday evening to review the plans for the new ferry "
    "terminal, and after a long discussion about timetables, budgets and the state of the old "
    "pier, the members agreed to publish a full report before the end of the month. "
)

#: Sample sentences per charset: every one holds characters its legacy encoding has and ASCII lacks.
CHARSET_TEXTS: dict[str, str] = {
    "cp1252": (
        "Le café “Au Bon Coin” propose une crème brûlée à 5 € — naïve mais délicieuse. "
        "Les habitués y lisent le journal du matin, discutent de la météo et commandent "
        "un deuxième café avant de partir travailler. Le patron, très âgé, connaît "
        "chacun par son prénom et garde toujours une table près de la fenêtre."
    ),
    "shift_jis": (
        "東京都の天気は晴れです。今日は日本語のテキストを表示するための試験ページです。"
        "朝から多くの人が駅の前に集まり、新しい図書館の開館を祝いました。"
        "館長は地域の子供たちのために本を選び、午後には読み聞かせの会が開かれました。"
    ),
    "gbk": (
        "今天北京的天气很好，这是一个用于测试简体中文网页编码的页面。"
        "新的图书馆在市中心开放，很多市民带着孩子前来参观，工作人员介绍了借书的规则。"
        "下午还举办了一场关于城市历史的讲座，听众们提出了许多有趣的问题。"
    ),
    "iso-8859-15": (
        "L'œuvre coûte 20 € et Œdipe lit Šibenik à Žilina ; Ÿvette préfère la bière. "
        "Le musée municipal expose cette œuvre depuis le printemps, et les visiteurs "
        "viennent de loin pour voir les tableaux restaurés par l'équipe du conservateur."
    ),
}

#: Characters a correct decoding must keep, per charset (a wrong decoding loses at least one).
CHARSET_MARKERS: dict[str, list[str]] = {
    "cp1252": ["café", "“Au Bon Coin”", "5 €", "naïve"],
    "shift_jis": ["東京都の天気は晴れです", "図書館"],
    "gbk": ["今天北京的天气很好", "图书馆"],
    "iso-8859-15": ["20 €", "Œdipe", "Šibenik", "Žilina", "Ÿvette"],
    "ascii": ["Plain sample in ASCII only."],
}

#: Ways a page can declare (or fail to declare) its charset.
CHARSET_MODES = ("meta", "header", "none", "wrong")


def article(title: str, paragraphs: list[str], *, head: str = "", links: list[str] = ()) -> str:
    """A small, well-formed article page with optional extra <head> markup and links."""
    body = "\n".join(f"<p>{p}</p>" for p in paragraphs)
    nav = "".join(f'<li><a href="{html.escape(u, quote=True)}">{html.escape(u)}</a></li>'
                  for u in links)
    return (
        "<!DOCTYPE html>\n<html><head>" + head + f"<title>{html.escape(title)}</title></head>"
        f"<body><nav><ul>{nav}</ul></nav><main><article><h1>{html.escape(title)}</h1>\n"
        f"{body}\n</article></main><footer>Hostile test site</footer></body></html>"
    )


def control_page(name: str, links: list[str] = ()) -> str:
    """An ordinary page whose storage proves the crawl went on around the hostile cases."""
    return article(f"Control page {name}",
                   [f"Control page {name}. " + FILLER, FILLER * 2, FILLER], links=links)


def charset_page(charset: str, mode: str) -> tuple[bytes, str]:
    """Body bytes and Content-Type header of a charset sample in one declaration mode."""
    text = CHARSET_TEXTS[charset]
    meta = f'<meta charset="{charset}">' if mode == "meta" else ""
    if mode == "wrong":
        # The most common real-world mistake: a template says UTF-8, the content is legacy bytes.
        meta = '<meta charset="utf-8">'
    # The title names neither the charset nor the mode: a detector must not read the answer.
    # One ASCII sentence tells the pages apart (the same text under several URLs is one page).
    sample = f"Sample {CHARSET_MODES.index(mode) + 1} of {len(CHARSET_MODES)}."
    page = article("Encoding sample", [text, text, sample], head=meta)
    body = page.encode(charset)
    content_type = f"text/html; charset={charset}" if mode == "header" else "text/html"
    return body, content_type


#: Pages whose declarations disagree with each other or with the bytes: body bytes, Content-Type,
#: and the charset whose markers the stored text must hold.
def conflicting_charset_page(case: str) -> tuple[bytes, str, str]:
    """``utf16-header``: UTF-16 without a byte-order mark, declared in the header only;
    ``broken-utf8-as-sjis``: UTF-8 with one broken byte, declared Shift_JIS;
    ``latin2-header-utf8-meta`` and ``cp1251-header-utf8-meta``: a header charset the correct
    ``<meta charset=utf-8>`` and the bytes contradict; ``ascii-utf16-meta`` and
    ``ascii-utf16-header``: an ASCII page declaring UTF-16 in a ``<meta>`` or the header."""
    if case.startswith("ascii-utf16-"):
        meta = case.endswith("meta")
        page = article(f"Encoding sample {case}", [CHARSET_MARKERS["ascii"][0], FILLER],
                       head='<meta charset="utf-16">' if meta else "")
        return (page.encode("ascii"), "text/html" if meta else "text/html; charset=utf-16",
                "ascii")
    if case == "utf16-header":
        page = article("Encoding sample", [CHARSET_TEXTS["cp1252"], "Wide sample."])
        return page.encode("utf-16-le"), "text/html; charset=utf-16", "cp1252"
    if case == "broken-utf8-as-sjis":
        text = CHARSET_TEXTS["shift_jis"]
        body = article("Encoding sample", [text, text, "Broken sample."]).encode("utf-8")
        cut = body.index("館長".encode("utf-8"))
        return body[:cut] + b"\xff" + body[cut:], "text/html; charset=shift_jis", "shift_jis"
    header = {"latin2-header-utf8-meta": "iso-8859-2",
              "cp1251-header-utf8-meta": "windows-1251"}[case]
    page = article("Encoding sample", [CHARSET_TEXTS["cp1252"], f"Conflict sample {header}."],
                   head='<meta charset="utf-8">')
    return page.encode("utf-8"), f"text/html; charset={header}", "cp1252"


#: The cases of :func:`conflicting_charset_page`.
CONFLICTING_CHARSET_CASES = ("utf16-header", "broken-utf8-as-sjis", "latin2-header-utf8-meta",
                             "cp1251-header-utf8-meta", "ascii-utf16-meta", "ascii-utf16-header")


def utf8_declared_latin1_page() -> tuple[bytes, str]:
    """UTF-8 bytes whose header wrongly says ISO-8859-1 (the other common mistake)."""
    text = CHARSET_TEXTS["cp1252"]
    body = article("Encoding sample", [text, text]).encode("utf-8")
    return body, "text/html; charset=iso-8859-1"


def unclosed_tags_page() -> str:
    """Hundreds of unclosed block and inline tags around real paragraphs."""
    parts = ["<html><head><title>Unclosed tags<body><div><article><h1>Unclosed tags"]
    for i in range(300):
        parts.append(f"<div class=c{i}><p><b><i><span>Unclosed paragraph {i}. {FILLER}")
    return "".join(parts)


def nested_tables_page(depth: int = 500) -> str:
    """Tables nested ``depth`` deep with the only text in the innermost cell."""
    return ("<html><head><title>Nested tables</title></head><body>"
            + "<table><tr><td>" * depth
            + "<p>Innermost cell. " + FILLER + "</p>"
            + "</td></tr></table>" * depth + "</body></html>")


def many_attributes_page(count: int = 150_000) -> str:
    """An article after one element carrying ``count`` attributes (about 1.4 MB), linking a
    control page."""
    attributes = " ".join(f'data-a{i}="v"' for i in range(count))
    return article("Many attributes", [f"Text after the attributes. {FILLER}"],
                   links=["/ok/after-attributes"]).replace("<main>", f"<div {attributes}></div><main>")


def many_cards_page(count: int = 40_000) -> str:
    """A listing of ``count`` linked cards (about 5.6 MB, under the engine's input bound), each
    linking the same control page: seconds of extraction on any machine, where every other page
    here takes well under one."""
    cards = "".join(f'<div class="card"><a href="/ok/1">Harbour lantern item {i}</a>'
                    f"<p>Granite meadow copper valley, summary {i}.</p></div>" for i in range(count))
    return ("<html><head><title>Many cards</title></head><body><main><h1>Many cards</h1>"
            f"{cards}</main></body></html>")


def deep_block_page(depth: int = 10_000) -> str:
    """An article whose middle is ``depth`` nested elements, with text before and after."""
    return ("<html><head><title>Deep block</title></head><body><main><article><h1>Deep block</h1>"
            f"<p>Text before the deep block. {FILLER}</p>" + "<div>" * depth
            + "<span>Inside the deep block.</span>" + "</div>" * depth
            + f"<p>Text after the deep block. {FILLER}</p></article></main></body></html>")


def unreadable_urls_page() -> str:
    """An article whose links, canonical link and og:image cannot be read as URLs (an unclosed
    IPv6 bracket), one of them alone in a block as a share button is."""
    bad = "http://[::1"
    head = (f'<link rel="canonical" href="{bad}"><meta property="og:image" content="{bad}/i.png">'
            '<meta name="author" content="Ada Lovelace">')
    page = article("Unreadable URLs", [f"Text around unreadable links. {FILLER}",
                                       f"More text. {FILLER}"], head=head, links=[bad])
    return page.replace("</p>", f' <a href="{bad}/x">a link</a></p><div><a href="{bad}/s">'
                                "Share</a></div>", 1)


def unreadable_base_page() -> str:
    """An article whose ``<base href>`` no URL parser reads (an unclosed IPv6 bracket), with a
    relative link to a page nothing else links: browsers resolve its links against the page's
    own URL."""
    return article("Unreadable base", [f"Text under an unreadable base. {FILLER}",
                                       f"More text. {FILLER}"],
                   head='<base href="http://[::1">', links=["/ok/base-target"])


def json_ld_page(kind: str) -> str:
    """An article with a hostile JSON-LD block beside a good one: ``surrogates`` (lone UTF-16
    surrogates escaped in its strings, which no encoder can write) or ``deep`` (arrays nested
    100,000 deep, past the JSON decoder's recursion limit)."""
    hostile = {"surrogates": '{"@type": "Article", "headline": "Lone \\ud800 surrogate",'
                             ' "author": {"@type": "Person", "name": "Ada \\udfff Lovelace"}}',
               "deep": "[" * 100_000 + "]" * 100_000}[kind]
    good = ('{"@type": "WebPage", "publisher": {"@type": "Organization", "name": "Hostile"},'
            ' "datePublished": "2026-03-04"}')
    head = (f'<script type="application/ld+json">{hostile}</script>'
            f'<script type="application/ld+json">{good}</script>')
    return article(f"JSON-LD {kind}", [f"Text beside hostile JSON-LD. {FILLER}"], head=head)


def hostile_sitemap(kind: str, origin: str) -> str:
    """A urlset that hurts its parser: ``entities`` declares an entity-expansion bomb and an
    external entity reading a local file, used in its first entry, before an ordinary entry;
    ``broken`` breaks its XML after the first of three entries."""
    head = '<?xml version="1.0" encoding="UTF-8"?>'
    urlset = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    if kind == "entities":
        bomb = '<!ENTITY lol "lol">' + "".join(
            f'<!ENTITY lol{i} "{f"&lol{i - 1};" if i > 1 else "&lol;" * 10}'
            f'{f"&lol{i - 1};" * 9 if i > 1 else ""}">' for i in range(1, 10))
        doctype = f'<!DOCTYPE urlset [{bomb}<!ENTITY file SYSTEM "file:///etc/passwd">]>'
        return (f"{head}{doctype}{urlset}<url><loc>{origin}/ok/entity-&lol9;-&file;</loc></url>"
                f"<url><loc>{origin}/ok/after-entities</loc></url></urlset>")
    return (f"{head}{urlset}<url><loc>{origin}/ok/before-break</loc></url><url><loc "
            f"<<</url><url><loc>{origin}/ok/after-break-1</loc></url>"
            f"<url><loc>{origin}/ok/after-break-2</loc></url></urlset>")


def long_line_page(size: int = 5 * 1024 * 1024) -> bytes:
    """A page of about ``size`` bytes with no line break at all."""
    head = b"<html><head><title>Long line</title></head><body><article><h1>Long line</h1><p>"
    tail = b"</p></article></body></html>"
    unit = FILLER.encode()
    count = (size - len(head) - len(tail)) // len(unit)
    return head + unit * count + tail


def link_farm_page(links: int = 100_000) -> bytes:
    """A page of nothing but linked paragraphs (6 MB by default, just under the extraction's
    ``MAX_HTML_BYTES``): no container validates, and trafilatura's fast result
    fails on link density, so the extraction falls back on trafilatura's modes."""
    body = "".join(f'<p><a href="/p/{i}">link number {i} to somewhere</a></p>'
                   for i in range(links))
    return f"<html><head><title>Links</title></head><body>{body}</body></html>".encode()


def null_bytes_page() -> bytes:
    """An article with NUL bytes inside tags, attributes and text."""
    page = article("Null bytes", [f"Null\x00 bytes paragraph {i}. " + FILLER for i in range(5)])
    return page.replace("<p>", "<p\x00>", 2).replace("<h1>", "<h1 class=\"a\x00b\">").encode()


def pdf_bytes() -> bytes:
    """A minimal one-page PDF."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>"]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, obj in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + obj + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n"
              % (len(objects) + 1, xref))
    return out.getvalue()


def png_bytes(width: int = 64, height: int = 64) -> bytes:
    """A valid grey PNG image."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    raw = b"".join(b"\x00" + bytes((x * 4) % 256 for x in range(width)) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def zip_bytes() -> bytes:
    """A zip archive holding one HTML file (so its text mentions <html>)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("index.html", control_page("inside a zip"))
        archive.writestr("data.bin", bytes(range(256)) * 64)
    return out.getvalue()


def xss_payloads() -> list[str]:
    """The XSS payload corpus, one payload a line (blank lines and # comments skipped)."""
    path = Path(__file__).with_name("xss_payloads.txt")
    return [line for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def xss_page(index: int, payloads: list[str]) -> str:
    """An article whose paragraphs carry XSS payloads between ordinary sentences."""
    paragraphs = []
    for n, payload in enumerate(payloads):
        paragraphs.append(f"Paragraph {n} of XSS page {index}. {FILLER} {payload} {FILLER}")
    return article(f"XSS page {index}", paragraphs)


#: Sizes of the huge metadata values of :func:`huge_metadata_page`: the title, the others.
HUGE_TITLE_CHARS = 1024 * 1024
HUGE_METADATA_CHARS = 100_000


def huge_metadata_page() -> str:
    """An article with no heading whose ``<title>`` is 1 MB of words and whose author,
    description and site-name metas and JSON-LD headline, description and author are each
    100 kB, with 1000 more authors in the JSON-LD (nothing is deep or odd: only the values are
    huge, and the page stays under the parser's size limit)."""
    def words(size: int) -> str:
        return ("Endless " * (size // 8 + 1))[:size]
    value = words(HUGE_METADATA_CHARS)
    json_ld = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle",
                          "headline": value, "description": value,
                          "author": [{"@type": "Person", "name": value},
                                     *({"@type": "Person", "name": f"Author {i}"}
                                       for i in range(1000))],
                          "datePublished": "2026-03-04T10:00:00Z"})
    paragraphs = "".join(f"<p>{p}</p>" for p in ["Text beside huge metadata. " + FILLER, FILLER])
    return (f'<!DOCTYPE html>\n<html><head><title>{words(HUGE_TITLE_CHARS)}</title>'
            f'<meta name="author" content="{value}"><meta name="description" content="{value}">'
            f'<meta property="og:site_name" content="{value}">'
            f'<script type="application/ld+json">{json_ld}</script></head>'
            f'<body><main><article>{paragraphs}</article></main></body></html>')


def huge_text_page(size: int = 7 * 1024 * 1024) -> str:
    """An article of ``size`` characters of paragraphs, past the parser's size limit even with
    nothing left out, its last paragraph past it."""
    count = size // (len(FILLER) + 8)
    return article("Huge text", ["First paragraph of a huge article. " + FILLER,
                                 *[FILLER] * count, "Last paragraph past the limit."])


def huge_script_page(size: int = 7 * 1024 * 1024) -> str:
    """An article after ``size`` characters of inline script in its head (past the parser's
    size limit, which cut the page before its body), with JSON-LD after the script."""
    code = "var x = 1;\n" * (size // 11)
    json_ld = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle",
                          "author": {"@type": "Person", "name": "Ada Lovelace"},
                          "datePublished": "2026-03-04T10:00:00Z"})
    head = (f"<script>{code}</script><style>p {{ color: red }}</style>"
            f'<script type="application/ld+json">{json_ld}</script>')
    return article("Huge inline script", ["Text after a huge script. " + FILLER, FILLER],
                   head=head)
