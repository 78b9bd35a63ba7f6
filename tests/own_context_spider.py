"""A crawl whose rendered requests name a browser context of their own (``playwright_context``),
as a project subclassing the domain spider may send: run with ``scrapy runspider`` by the
rendering tests, which check that such requests still get the busy-script recovery."""

from __future__ import annotations

from typing import Any

from crawler.spiders.domain import DomainSpider


class OwnContextSpider(DomainSpider):
    """The domain spider, rendering in a named browser context instead of the page pool."""

    name = "own_context"

    def _render_meta(self) -> dict[str, Any]:
        meta = super()._render_meta()
        meta["playwright_context"] = "own"
        return meta
