"""Limits of the agent tools, read once from the command line (defaults in ``crawler.settings``).

An agent is an untrusted caller: every crawl is bounded in pages and time, every fetch in bytes
and time, databases are read only under one root folder, and internal addresses are refused
unless the operator names the host when starting the server.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from crawler import settings as defaults


class AgentConfigError(ValueError):
    """A limit out of range; the message is one sentence naming the option."""


@dataclass(frozen=True)
class AgentConfig:
    """Where the tools keep crawl databases, and how far a caller may go."""

    root: Path
    #: Hosts exempt from the internal-address guard (a local test site: ``127.0.0.1``).
    allowed_hosts: frozenset[str] = frozenset(defaults.MCP_ALLOWED_HOSTS)
    crawl_max_pages: int = defaults.MCP_CRAWL_MAX_PAGES
    crawl_timeout: float = defaults.MCP_CRAWL_TIMEOUT
    fetch_timeout: float = defaults.MCP_FETCH_TIMEOUT
    fetch_max_bytes: int = defaults.MCP_FETCH_MAX_BYTES

    def __post_init__(self) -> None:
        checks = (("--max-pages", self.crawl_max_pages, 1, 100_000),
                  ("--crawl-timeout", self.crawl_timeout, 5, 24 * 3600),
                  ("--fetch-timeout", self.fetch_timeout, 1, 600),
                  ("--fetch-max-bytes", self.fetch_max_bytes, 1024, 1 << 30))
        for name, value, low, high in checks:
            if not low <= value <= high:
                raise AgentConfigError(f"{name} must be from {low} to {high}, got {value}.")

    @property
    def crawls_dir(self) -> Path:
        """Where the ``crawl`` tool writes its databases (under the root)."""
        return self.root / "crawls"
