"""The installable package: ``pip install .`` into a fresh virtualenv gives the ``crawler``
command (the same sub-commands as ``python -m crawler``), the library API, the type marker and
the site rules as package data.

The install is real (pip builds a wheel from a copy of the source tree and installs it) but
offline: the new virtualenv sees the pinned dependencies through a ``.pth`` file pointing at
this interpreter's site-packages, and the wheel is built with ``--no-deps --no-build-isolation
--no-index`` (a test never reaches a package index). Only the project itself is installed, and
it is imported from the new environment, never from the checkout.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, SITES_DIR

#: What a wheel is built from (the rest of the checkout is not part of the package).
SOURCE_ITEMS = ("crawler", "site_rules", "pyproject.toml", "setup.py", "README.md")

LIBRARY_CHECK = """
import json, sys
from importlib.resources import files
import crawler
from crawler.extraction import Extraction, extract
from crawler.extraction.frameworks import default_rules_dir
page = open(sys.argv[1], encoding="utf-8").read()
result = extract(page, "https://docs.example/docs/content/shortcodes/mermaid/")
assert isinstance(result, Extraction)
print(json.dumps({
    "package": crawler.__file__, "rules": str(default_rules_dir()),
    "typed": (files("crawler") / "py.typed").is_file(),
    "rule_files": sorted(p.name for p in (files("crawler") / "site_rules" / "frameworks").iterdir()),
    "framework": result.framework, "title": result.title,
    "markdown": result.content_markdown[:200],
}))
"""


def commands(help_text: str) -> list[str]:
    """Sub-command names listed by ``--help``."""
    block = help_text.split("positional arguments:", 1)[1].split("options:", 1)[0]
    return re.findall(r"^    ([a-z][a-z-]+)", block, re.MULTILINE)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtualenv with the project installed by pip from a copy of its source."""
    root = tmp_path_factory.mktemp("package")
    source = root / "source"
    source.mkdir()
    for item in SOURCE_ITEMS:
        origin = REPO_ROOT / item
        if origin.is_dir():
            shutil.copytree(origin, source / item,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(origin, source / item)
    env_dir = root / "venv"
    venv.create(env_dir, with_pip=False, symlinks=True)
    python = env_dir / "bin" / "python"
    site_packages = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip()
    Path(site_packages, "pinned-dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
         "--no-build-isolation", "--no-index", str(source)],
        capture_output=True, text=True, timeout=600, cwd=root)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return env_dir


def test_the_console_script_has_the_same_commands_and_a_version(installed: Path,
                                                                 tmp_path: Path) -> None:
    script = installed / "bin" / "crawler"
    version = subprocess.run([script, "--version"], capture_output=True, text=True, cwd=tmp_path)
    assert version.returncode == 0
    assert re.fullmatch(r"crawler-extract \d+\.\d+\.\d+ \(Scrapy [\d.]+, trafilatura [\d.]+, "
                        r"Python 3\.\d+\.\d+\)\n", version.stdout)

    installed_help = subprocess.run([script, "--help"], capture_output=True, text=True,
                                    cwd=tmp_path).stdout
    checkout_help = subprocess.run([sys.executable, "-m", "crawler", "--help"],
                                   capture_output=True, text=True, cwd=REPO_ROOT).stdout
    assert installed_help.startswith("usage: crawler ")
    assert checkout_help.startswith("usage: python -m crawler ")
    assert commands(installed_help) == commands(checkout_help)
    assert {"extract", "export", "search", "reextract", "dedup", "merge"} <= set(commands(installed_help))

    page = SITES_DIR / "hugo-book" / "public" / "docs" / "content" / "shortcodes" / "mermaid" / "index.html"
    extracted = subprocess.run([script, "extract", str(page), "--format", "markdown"],
                               capture_output=True, text=True, cwd=tmp_path)
    assert extracted.returncode == 0, extracted.stderr
    assert extracted.stdout.startswith("# Mermaid") and "Render diagrams" in extracted.stdout


def test_the_library_and_its_rules_come_from_the_installed_package(installed: Path,
                                                                   tmp_path: Path) -> None:
    page = SITES_DIR / "hugo-book" / "public" / "docs" / "content" / "shortcodes" / "mermaid" / "index.html"
    completed = subprocess.run([installed / "bin" / "python", "-c", LIBRARY_CHECK, str(page)],
                               capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert completed.returncode == 0, completed.stderr
    found = json.loads(completed.stdout)
    assert found["package"].startswith(str(installed)) and "site-packages" in found["package"]
    assert found["rules"].startswith(str(installed))  # the packaged rules, not the checkout's
    assert found["rules"].endswith("site-packages/crawler/site_rules")
    assert found["typed"] is True
    shipped = sorted(p.name for p in (REPO_ROOT / "site_rules" / "frameworks").iterdir()
                     if p.suffix in (".yaml", ".yml", ".toml"))
    assert set(shipped) <= set(found["rule_files"])
    assert found["framework"] == "hugo"  # detected by a rule read from the package data
    assert found["title"] == "Mermaid" and found["markdown"].startswith("# Mermaid")
