"""``crawler extract`` on many inputs (files, a folder, a glob, standard input) into ``-o DIR``,
and input that is not HTML refused with one sentence, as a user runs it."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, SITES_DIR

DOCS = SITES_DIR / "hugo-book" / "public" / "docs" / "content" / "shortcodes"
PDF = SITES_DIR / "behaviours" / "public" / "report.pdf"


def cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m crawler ...`` as a user would."""
    return subprocess.run([sys.executable, "-m", "crawler", *args], cwd=REPO_ROOT, input=stdin,
                          capture_output=True, timeout=180)


@pytest.fixture
def pages(tmp_path: Path) -> Path:
    """A folder of real pages (one gzipped, one nested) and inputs that are not pages."""
    folder = tmp_path / "pages"
    (folder / "nested").mkdir(parents=True)
    shutil.copy(DOCS / "mermaid" / "index.html", folder / "mermaid.html")
    (folder / "katex.html.gz").write_bytes(gzip.compress((DOCS / "katex" / "index.html").read_bytes()))
    shutil.copy(DOCS / "tabs" / "index.html", folder / "nested" / "tabs.htm")
    (folder / ".hidden.html").write_text("<p>not read</p>")
    return folder


NOT_HTML = [
    ("empty.html", b"", "is empty: no page to extract"),
    ("blank.html", b"  \n\t ", "is empty: no page to extract"),
    ("stream.html", zlib.compress(b"<html><body><p>text</p></body></html>" * 40),
     "is a zlib stream, not HTML"),
    ("report.html", PDF.read_bytes(), "is a PDF file, not HTML"),
    ("image.html", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8, "is a PNG file, not HTML"),
    ("noise.html", bytes(range(32)) * 64, "is binary data, not HTML"),
    ("broken.html.gz", b"\x1f\x8b\x08\x00garbage", "is not a valid gzip file"),
]


@pytest.mark.parametrize(("name", "data", "message"), NOT_HTML)
def test_input_that_is_not_html_is_refused(name: str, data: bytes, message: str,
                                           tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    completed = cli("extract", str(path), "--format", "markdown")
    assert completed.returncode == 1
    assert completed.stdout == b""
    assert message in completed.stderr.decode() and "Traceback" not in completed.stderr.decode()


def test_a_folder_is_extracted_one_file_per_page_and_bad_inputs_are_counted(
        pages: Path, tmp_path: Path) -> None:
    for name, data, _ in NOT_HTML[:3]:
        (pages / name).write_bytes(data)
    out = tmp_path / "out"
    completed = cli("extract", "--input-dir", str(pages), "-o", str(out), "--format", "markdown",
                    "--jobs", "2")
    stderr = completed.stderr.decode()
    assert completed.returncode == 1  # some inputs were not pages
    assert f"extracted 3 of 6 inputs into {out}" in stderr and "3 failed" in stderr
    assert stderr.count("error: ") == 3 and "is a zlib stream" in stderr
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert written == ["katex.md", "mermaid.md", "nested/tabs.md"]
    assert (out / "mermaid.md").read_text().startswith("# Mermaid")
    assert "KaTeX" in (out / "katex.md").read_text()
    assert "hidden" not in " ".join(written)


@pytest.mark.parametrize(("fmt", "suffix", "check"), [
    ("json", ".json", lambda text: json.loads(text)["title"] == "Mermaid"),
    ("markdown", ".md", lambda text: text.startswith("# Mermaid")),
    ("html", ".html", lambda text: "<h1>Mermaid</h1>" in text and "<script" not in text),
    ("text", ".txt", lambda text: text.startswith("Mermaid") and "#" not in text[:2]),
])
def test_a_glob_and_standard_input_in_every_format(fmt: str, suffix: str, check, pages: Path,
                                                   tmp_path: Path) -> None:
    out = tmp_path / "out"
    completed = cli("extract", str(pages / "**" / "*.htm*"), "-", "-o", str(out),
                    "--format", fmt, stdin=(DOCS / "mermaid" / "index.html").read_bytes())
    assert completed.returncode == 0, completed.stderr.decode()
    names = sorted(p.name for p in out.rglob("*") if p.is_file())
    assert names == sorted([f"mermaid{suffix}", f"katex{suffix}", f"tabs{suffix}", f"stdin{suffix}"])
    assert check((out / f"stdin{suffix}").read_text())
    assert check((out / f"mermaid{suffix}").read_text())


def test_one_page_from_standard_input_prints_it(tmp_path: Path) -> None:
    completed = cli("extract", "-", "--format", "json", "--url", "https://docs.example/mermaid/",
                    stdin=(DOCS / "mermaid" / "index.html").read_bytes())
    assert completed.returncode == 0
    record = json.loads(completed.stdout)
    assert record["title"] == "Mermaid" and record["url"] == "https://docs.example/mermaid/"


@pytest.mark.parametrize(("args", "code", "message"), [
    (["{a}", "{b}"], 2, "several inputs are written into a folder: add -o DIR."),
    (["{a}", "-o", "{out}", "--trace"], 2, "--trace explains one page"),
    (["{a}", "{b}", "-o", "{out}", "--url", "https://x.example/"], 2, "--url names one page"),
    (["{a}", "-o", "{a}"], 2, "is a file; -o takes a folder."),
    (["{pages}/*.nothing", "-o", "{out}"], 1, "no file matches"),
    (["-", "-", "-o", "{out}"], 1, "standard input (-) can be read only once"),
    (["--input-dir", "{a}", "-o", "{out}"], 1, "is not a folder"),
    ([], 1, "give a FILE_OR_URL"),
])
def test_arguments_that_do_not_fit_are_refused(args: list[str], code: int, message: str,
                                               pages: Path, tmp_path: Path) -> None:
    names = {"a": pages / "mermaid.html", "b": pages / "nested" / "tabs.htm",
             "out": tmp_path / "out", "pages": pages}
    completed = cli("extract", *[a.format(**names) for a in args])
    assert completed.returncode == code
    assert message in completed.stderr.decode()
    assert not (tmp_path / "out").exists()
