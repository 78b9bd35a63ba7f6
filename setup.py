"""Packaging of the crawler project; ``scrapyd-deploy`` builds the Scrapyd egg from this file.

``site_rules/`` (framework and domain rules, data only) ships inside the egg as package data of
``crawler``, at ``crawler/site_rules/``, so a deployed spider reads its rules from the egg with
``importlib.resources.files("crawler") / "site_rules"``; a checkout keeps them at the root.
"""

from __future__ import annotations

import re
from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).resolve().parent
RULES_DIR = "site_rules"


def project_version() -> str:
    """The version declared in ``crawler/__init__.py`` (single source of truth)."""
    text = (ROOT / "crawler" / "__init__.py").read_text(encoding="utf-8")
    match = re.search(r'^__version__\s*=\s*["\']([^"\']+)["\']', text, re.MULTILINE)
    if not match:
        raise RuntimeError("crawler/__init__.py declares no __version__")
    return match.group(1)


def rules_packages() -> dict[str, str]:
    """Map every folder under ``site_rules/`` to a data package below ``crawler.site_rules``."""
    mapping = {"crawler.site_rules": RULES_DIR}
    for folder in sorted(p for p in (ROOT / RULES_DIR).rglob("*") if p.is_dir()):
        relative = folder.relative_to(ROOT / RULES_DIR)
        if any(part.startswith((".", "__")) for part in relative.parts):
            continue
        package = "crawler.site_rules." + ".".join(relative.parts)
        mapping[package] = f"{RULES_DIR}/{relative.as_posix()}"
    return mapping


RULES = rules_packages()

setup(
    name="crawler-extract",
    version=project_version(),
    description="A Scrapy crawler that fetches a domain and extracts each page's main content.",
    packages=find_packages(include=["crawler", "crawler.*"]) + list(RULES),
    package_dir=RULES,
    # the report's inlined style and script are files of crawler.report
    package_data={**{name: ["*"] for name in RULES}, "crawler.report": ["assets/*"]},
    python_requires=">=3.11",
    entry_points={"scrapy": ["settings = crawler.settings"]},
    zip_safe=True,
)
