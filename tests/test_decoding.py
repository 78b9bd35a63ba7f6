"""The one decoder of page bytes: the crawl's recorded charset wins; without one the bytes decide."""

from __future__ import annotations

import codecs

import pytest

from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from crawler.decoding import CharsetChoice, choose_charset, decode_page
from crawler.middlewares.charset import CharsetMiddleware
from crawler.extraction import extract
from tests.conftest import run_crawl

TEXT = "Société Générale: «prix» 12 €, naïve café."


@pytest.mark.parametrize("data, encoding, expected_text, expected_codec", [
    # The charset the crawl recorded is used as is, whatever the bytes would suggest.
    (TEXT.encode("cp1252"), "cp1252", TEXT, "cp1252"),
    (TEXT.encode("utf-8"), "utf-8", TEXT, "utf-8"),
    (TEXT.encode("iso8859-15"), "iso8859_15", TEXT, "iso8859_15"),
    # An unknown recorded name reads as UTF-8 (stray bytes replaced, nothing raised).
    (TEXT.encode("utf-8"), "no-such-charset", TEXT, "utf-8"),
    # ... and so does a name the web knows and Python does not.
    (TEXT.encode("utf-8"), "x-sjis", TEXT, "utf-8"),
    # Nothing recorded: byte-order mark, then valid UTF-8, then <meta charset>.
    (codecs.BOM_UTF8 + TEXT.encode("utf-8"), None, TEXT, "utf-8"),
    (TEXT.encode("utf-8"), None, TEXT, "utf-8"),
    (b'<meta charset="windows-1252">' + TEXT.encode("cp1252"), None,
     '<meta charset="windows-1252">' + TEXT, "cp1252"),
    # Text is already decoded.
    (TEXT, None, TEXT, "str"),
    # UTF-16/32 markup without a byte-order mark, declared nowhere: the bytes tell (before,
    # read as UTF-8, a NUL beside each letter and the accented ones replaced).
    (f"<p>{TEXT}</p>".encode("utf-16-le"), None, f"<p>{TEXT}</p>", "utf-16-le"),
    (f"<p>{TEXT}</p>".encode("utf-16-be"), None, f"<p>{TEXT}</p>", "utf-16-be"),
    (f"<p>{TEXT}</p>".encode("utf-32-le"), None, f"<p>{TEXT}</p>", "utf-32-le"),
    (b"<p>plain ASCII</p>".decode().encode("utf-16-le"), None, "<p>plain ASCII</p>",
     "utf-16-le"),
    # A narrow page never reads so, NUL bytes or not.
    (b"<p>a\x00b</p>", None, "<p>a\x00b</p>", "utf-8"),
])
def test_decode_page(data: bytes | str, encoding: str | None, expected_text: str,
                     expected_codec: str) -> None:
    text, codec = decode_page(data, encoding)
    assert text == expected_text
    assert codec == expected_codec
    assert "\ufffd" not in text


def test_extraction_of_bytes_reads_them_as_the_decoder_does() -> None:
    """The engine given bytes decodes them with the same function (no second policy)."""
    body = "<p>" + " ".join([TEXT] * 6) + "</p>"
    page = f'<html><head><meta charset="windows-1252"></head><body><article>{body}{body}' \
           f'</article></body></html>'
    from_bytes = extract(page.encode("cp1252"), "https://example.org/a")
    from_text = extract(decode_page(page.encode("cp1252"))[0], "https://example.org/a")
    assert "Société Générale" in from_bytes.content_text
    assert from_bytes.content_text == from_text.content_text


def test_the_crawl_stores_utf16_pages_that_declare_nothing(serve_site, tmp_path) -> None:
    """Pages saved as UTF-16 (either byte order) without a byte-order mark, served as text/html
    with no charset: stored with their text (before, dropped as binary bodies); a binary file
    served so beside them is still dropped."""
    site = tmp_path / "site"
    site.mkdir()
    links = "".join(f'<a href="/{name}.html">{name}</a> ' for name in ("le", "be", "bin"))
    (site / "index.html").write_text(LEGACY_PAGE.replace("</article>", links + "</article>")
                                     .format("utf-8"), encoding="utf-8")
    for name, order in (("le", "utf-16-le"), ("be", "utf-16-be")):
        page = (f"<html><head><title>Wide {name}</title></head><body><article>"
                + "".join(f"<p>{TEXT} Wide page {name}, paragraph {i}.</p>" for i in range(6))
                + "</article></body></html>")
        (site / f"{name}.html").write_bytes(page.encode(order))
    (site / "bin.html").write_bytes(b"\x00<\x01\x02" * 2000)
    server = serve_site(site)
    crawl = run_crawl(server.url("/"), tmp_path / "crawl", spider_args={"render": "never"})
    assert crawl.returncode == 0, crawl.log[-3000:]
    rows = {row["url"].rsplit("/", 1)[1]: row for row in crawl.rows("url, title, content_text")}
    for name in ("le", "be"):
        assert rows[f"{name}.html"]["title"] == f"Wide {name}"
        assert f"{TEXT} Wide page {name}, paragraph 5." in rows[f"{name}.html"]["content_text"]
    assert "bin.html" not in rows
    assert crawl.stats["response/binary_as_html"] == 1
    assert "no charset declared: the bytes are utf_16_le markup without a byte-order mark" \
        in crawl.log


#: Python codecs that are no charset of the web (byte transforms, IDNA, punycode, Python's
#: escapes, UTF-7, 'undefined'), declared by a page: (label, what decoding them did before).
NOT_PAGE_CHARSETS = [
    ("rot13", "LookupError"), ("hex", "LookupError"), ("base64", "LookupError"),
    ("zlib", "LookupError"), ("uu", "LookupError"), ("quopri", "LookupError"),
    ("idna", "UnicodeError"), ("undefined", "UnicodeError"),
    ("punycode", "the page decoded to nothing"),
    ("unicode_escape", "escapes in the text decoded"),
    ("raw_unicode_escape", "escapes in the text decoded"),
    ("utf-7", "+ADw-script+AD4- read as <script>"),
]
ASCII_PAGE = ("<html><head><meta charset=\"{}\"><title>Charset</title></head><body><article>"
              + "".join(f"<p>A page of plain text, +ADw-script+AD4- and a path C:\\u0041\\x41 "
                        f"in it, paragraph {i} of the story, long enough to be kept.</p>"
                        for i in range(6))
              + "</article></body></html>")


@pytest.mark.parametrize("label, before", NOT_PAGE_CHARSETS, ids=[c[0] for c in NOT_PAGE_CHARSETS])
def test_a_python_codec_that_is_no_charset_is_no_declaration(label: str, before: str) -> None:
    """Such a declaration is ignored, as browsers ignore a label they do not know, whether the
    page declares it or a stored page carries it: the bytes are read as they are, nothing
    raised, nothing of the text lost or turned into markup."""
    html = ASCII_PAGE.format(label)
    body = html.encode("ascii")
    for encoding in (None, label):
        text, codec = decode_page(body, encoding)
        assert text == html, (label, encoding, before)
        assert codec in ("utf_8", "utf-8"), (label, encoding)
    result = extract(body, "https://example.org/a")
    assert "paragraph 5 of the story" in result.content_text
    assert "+ADw-script+AD4-" in result.content_text and "C:\\u0041\\x41" in result.content_text


@pytest.mark.parametrize("label, before", NOT_PAGE_CHARSETS, ids=[c[0] for c in NOT_PAGE_CHARSETS])
def test_the_crawl_reads_a_page_declaring_such_a_codec(label: str, before: str) -> None:
    """The crawl's charset middleware gives such a response the charset its bytes are in
    (before, it kept the declared codec, and reading the response's text raised or lost it)."""
    html = ASCII_PAGE.format(label)
    response = HtmlResponse("https://example.org/a", body=html.encode("ascii"))
    fixed = CharsetMiddleware(get_crawler()).process_response(response.request, response)
    assert fixed.text == html, (label, before)



#: Python codecs that read ASCII as ASCII but are no encoding of the web (browsers ignore such a
#: label), declared by a page of windows-1252 bytes: (label, what the text read before).
NOT_WEB_CHARSETS = [
    ("charmap", "Latin-1: the euro sign and the quotes turned into C1 control characters"),
    ("palmos", "Palm OS: the quotes and the dash read as other characters"),
    ("koi8_t", "Tajik Cyrillic letters"),
    ("cp850", "DOS box-drawing characters"),
]
LEGACY_PAGE = ("<html><head><meta charset=\"{}\"><title>Charset</title></head><body><article>"
               + "".join(f"<p>{TEXT} A “quoted” line — paragraph {i} of the story.</p>"
                         for i in range(6))
               + "</article></body></html>")


@pytest.mark.parametrize("label, before", NOT_WEB_CHARSETS, ids=[c[0] for c in NOT_WEB_CHARSETS])
def test_a_codec_no_browser_knows_is_no_declaration(label: str, before: str) -> None:
    """The bytes decide, as for a page declaring nothing: the text is the windows-1252 it is
    (in the crawl's charset middleware, in the decoder, in extraction), and a label of the web
    spelt in Python's way (``latin1``, ``utf_8``) still counts."""
    html = LEGACY_PAGE.format(label)
    body = html.encode("cp1252")
    assert decode_page(body) == (html, "cp1252"), before
    response = HtmlResponse("https://example.org/a", body=body)
    fixed = CharsetMiddleware(get_crawler()).process_response(response.request, response)
    assert fixed.text == html, before
    assert "A “quoted” line — paragraph 5" in extract(body, "https://example.org/a").content_text
    assert choose_charset(body, None, label).outcome == "detected"
    assert choose_charset(body, None, "latin1") == CharsetChoice("cp1252", "meta", "declared")
    assert choose_charset(html.encode(), "utf_8", None).source == "header"
