"""Reader comments: set apart from the main content by structure, given as their own output, and
stored beside the content in SQLite and the JSONL feed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crawler.extraction import extract
from tests.conftest import run_crawl
from tests.kept_and_removed import assert_kept_and_removed

STORY = "".join(f"<p>The harbour reopened on Monday after three weeks of repairs, and the first "
                f"boats, loaded with fish and visitors, arrived before noon. Paragraph {i}.</p>"
                for i in range(6))
REMARK = "I sailed there last week and the new pier is wonderful, well done to everyone"


def wp_comments(n: int = 4) -> str:
    """A WordPress-style thread: ol.comment-list of li.comment holding article#comment-N."""
    return "".join(
        f"<li class='comment' id='li-comment-{j}'><article id='comment-{j}' class='comment-body'>"
        f"<footer class='comment-meta'><div class='comment-author vcard'><b class='fn'>Reader {j}"
        f"</b></div><time datetime='2024-05-0{j + 1}'>May {j + 1}</time></footer><div class="
        f"'comment-content'><p>Remark {j}: {REMARK}.</p></div><div class='reply'><a href='#r{j}'>"
        f"Reply</a></div></article></li>" for j in range(n))


def plain_items(n: int = 4) -> str:
    """Dated, authored items with neutral class names: only their structure says comments."""
    return "".join(
        f"<div class='x1'><span class='author-name'>Reader {j}</span> <time datetime='2024-05-0"
        f"{j + 1}'>May {j + 1}</time><p>Remark {j}: {REMARK}.</p></div>" for j in range(n))


def microdata_items(n: int = 3) -> str:
    """Items declared as schema.org Comment, with neutral class names."""
    return "".join(
        f"<div class='k' itemprop='comment' itemscope itemtype='https://schema.org/Comment'>"
        f"<span itemprop='author'>Reader {j}</span><p itemprop='text'>Remark {j}: {REMARK}.</p>"
        f"</div>" for j in range(n))


def page(body: str, head: str = "") -> str:
    return f"<html><head><title>Harbour reopens</title>{head}</head><body>{body}</body></html>"


FORUM_LD = ('<script type="application/ld+json">{"@context": "https://schema.org", "@type": '
            '"DiscussionForumPosting", "headline": "Harbour reopens"}</script>')

CASES = [
    # (name, page html, main content must hold, comments must hold)
    ("a WordPress comment area after the story",
     page(f"<article><h1>Harbour reopens</h1>{STORY}</article><div id='comments' class='comments"
          f"-area'><h2>4 replies</h2><ol class='comment-list'>{wp_comments()}</ol></div>"),
     ["Paragraph 0", "Paragraph 5"], ["Remark 0:", "Remark 3:", "Reader 2"]),
    ("comments inside the article element",
     page(f"<article><h1>Harbour reopens</h1><div class='entry'>{STORY}</div><section class="
          f"'comments'><ol>{wp_comments(3)}</ol></section></article>"),
     ["Paragraph 0", "Paragraph 5"], ["Remark 0:", "Remark 2:"]),
    ("repeated dated and authored items with neutral names",
     page(f"<div class='main'><h1>Harbour reopens</h1>{STORY}<div class='y'>{plain_items()}"
          f"</div></div>"),
     ["Paragraph 0", "Paragraph 5"], ["Remark 0:", "Remark 3:"]),
    ("items declared as schema.org Comment",
     page(f"<div class='main'><h1>Harbour reopens</h1>{STORY}<div class='y'>"
          f"{microdata_items()}</div></div>"),
     ["Paragraph 0", "Paragraph 5"], ["Remark 0:", "Remark 2:"]),
    ("a long thread does not replace the story",
     page(f"<div class='wrap'><h1>Harbour reopens</h1><div class='text'>{STORY}</div></div>"
          f"<div id='comments'><ol class='commentlist'>{wp_comments(9)}</ol></div>"),
     ["Paragraph 0", "Paragraph 5"], ["Remark 8:"]),
]


@pytest.mark.parametrize("name, html, content, comments", CASES, ids=[c[0] for c in CASES])
def test_comments_are_set_apart(name: str, html: str, content: list[str],
                                comments: list[str]) -> None:
    result = extract(html, "https://news.example/harbour")
    for snippet in content:
        assert snippet in result.content_text, snippet
    assert "Remark" not in result.content_text
    for snippet in comments:
        assert snippet in result.comments_text, snippet
        assert snippet in result.comments_markdown
        assert snippet in result.comments_html
    assert "Paragraph" not in result.comments_text


KEPT = [
    # (name, page html, main content must hold): no comments set apart
    ("a forum thread declared as DiscussionForumPosting keeps its posts",
     page(f"<div class='main'><h1>Harbour reopens</h1>{STORY}<div class='posts'>{plain_items()}"
          f"</div></div>", head=FORUM_LD),
     ["Paragraph 0", "Remark 0:", "Remark 3:"]),
    ("a page of nothing but comments keeps them",
     page(f"<div class='main'><h1>Guestbook</h1><div class='y'>{plain_items()}</div></div>"),
     ["Remark 0:", "Remark 3:"]),
    ("a state class naming comments does not make the page a comment section",
     page(f"<div class='page has-comments'><div class='title'>Harbour reopens</div>{STORY}"
          f"</div>"),
     ["Paragraph 0", "Paragraph 5"]),
    ("an empty comment box a script would fill gives no comments, only its absence",
     page(f"<article><h1>Harbour reopens</h1>{STORY}</article><div id='comments' class="
          f"'comments-area'><div class='comment-list'><span></span></div></div>"),
     ["Paragraph 0", "Paragraph 5"]),
    ("a teaser list of dated, authored headline links is not comments",
     page(f"<article><h1>Harbour reopens</h1>{STORY}</article><div class='more'>" + "".join(
         f"<div class='t'><h3><a href='/story-{j}'>Story {j} about the coast and its piers</a>"
         f"</h3><span class='author'>Jo {j}</span><time datetime='2024-05-01'>May 1</time>"
         f"</div>" for j in range(4)) + "</div>"),
     ["Paragraph 0", "Paragraph 5"]),
]


def replies(n: int = 4) -> str:
    """A forum engine's replies: items of one shape, each an author link and prose."""
    return "".join(
        f"<li class='item'><div class='author'><a href='/u/{j}'>Reader {j}</a></div><div class="
        f"'message'><p>Reply {j}: {REMARK}, and the ferry times are posted at the gate.</p></div>"
        f"</li>" for j in range(n))


def thread(head: str) -> str:
    """A thread page: the opening post, then the replies in a block named as comments."""
    return page(
        f"<header><nav><a href='/'>Forum</a> <a href='/latest'>Latest</a></nav></header><main>"
        f"<h1>Harbour reopens</h1><div class='first-post'><div class='post-body'>{STORY}</div>"
        f"</div><div class='databox databox-comments'><h2>Comments</h2><ul class='messagelist "
        f"comments'>{replies()}</ul></div></main><footer class='footer'><p>Forum rules, imprint "
        f"and privacy of this community board</p></footer>", head=head)


DISCUSSIONS = [
    # (name, page html, must stay, must go)
    ("a declared forum posting keeps the replies named as comments",
     thread(FORUM_LD),
     ["Paragraph 0", "Paragraph 5", "Reply 0:", "Reply 3:", "Reader 2"],
     ["Forum rules, imprint", "Latest"]),
    ("a declared Q&A page keeps its answers named as comments",
     thread(FORUM_LD.replace("DiscussionForumPosting", "QAPage")),
     ["Paragraph 0", "Reply 0:", "Reply 3:"], ["Forum rules, imprint"]),
]


@pytest.mark.parametrize("name, html, stay, go", DISCUSSIONS, ids=[c[0] for c in DISCUSSIONS])
def test_discussion_posts(name: str, html: str, stay: list[str], go: list[str]) -> None:
    """On a discussion page the replies are the content, even where its markup names them as
    comments: neither the choice nor the cleaning leaves them out (rule discussion-posts)."""
    result = extract(html, "https://forum.example/t/harbour", trace=True)
    assert_kept_and_removed(result.content_text, name, stay, go)
    assert any(e.get("rule") == "discussion-posts" for e in result.trace)


def test_replies_named_as_comments_under_a_story_stay_apart() -> None:
    """The same page declaring no discussion: the block named as comments is no content."""
    result = extract(thread(""), "https://news.example/harbour", trace=True)
    assert_kept_and_removed(result.content_text, "a story", ["Paragraph 0", "Paragraph 5"],
                            ["Reply 0:", "Reply 3:", "Forum rules, imprint"])
    assert not any(e.get("rule") == "discussion-posts" for e in result.trace)


@pytest.mark.parametrize("name, html, content", KEPT, ids=[c[0] for c in KEPT])
def test_no_comments_set_apart(name: str, html: str, content: list[str]) -> None:
    result = extract(html, "https://forum.example/t/harbour")
    for snippet in content:
        assert snippet in result.content_text, snippet
    assert result.comments_text == result.comments_markdown == result.comments_html == ""


def test_comments_are_stored_and_fed(serve_site, tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(page(
        f"<article><h1>Harbour reopens</h1>{STORY}</article><div id='comments' class='comments-"
        f"area'><ol class='comment-list'>{wp_comments(2)}</ol></div>"), encoding="utf-8")
    server = serve_site(site)
    result = run_crawl(server.url("/"), tmp_path / "crawl",
                       spider_args={"render": "never", "sitemaps": "false"})
    assert result.returncode == 0, result.log[-3000:]
    [row] = result.rows("content_text, comments_text, comments_markdown, comments_html")
    assert "Paragraph 5" in row["content_text"] and "Remark" not in row["content_text"]
    assert "Remark 1:" in row["comments_text"] and "Remark 1:" in row["comments_markdown"]
    assert "Remark 1:" in row["comments_html"]
    [item] = result.items
    assert "Remark 0:" in item["comments_text"] and "Paragraph" not in item["comments_text"]
    assert json.dumps(item["comments_markdown"])
