"""Packages and package data of the crawler project (the metadata is in ``pyproject.toml``);
``scrapyd-deploy`` builds the Scrapyd egg from this file.

``site_rules/`` (framework and domain rules, data only) ships inside the package at
``crawler/site_rules/``, so an installed or deployed crawler reads its rules with
``importlib.resources.files("crawler") / "site_rules"``; a checkout keeps them at the root.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).resolve().parent
RULES_DIR = "site_rules"


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
    packages=find_packages(include=["crawler", "crawler.*"]) + list(RULES),
    package_dir=RULES,
    # the report's inlined style and script are files of crawler.report
    package_data={"crawler": ["py.typed"], "crawler.report": ["assets/*"],
                  **{name: ["*"] for name in RULES}},
    zip_safe=True,
)
