"""Request fingerprints over canonical URLs, so the dupefilter (Scrapy's or scrapy-redis's)
treats ``/a?utm_source=x#top`` and ``/a`` as one request."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from scrapy import Request

from crawler.urls import canonicalize_url

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

#: ``request.meta`` key holding a URL already in canonical form: when it is the request's own
#: URL, the fingerprinter uses it as is (a redirect or a rewrite changes the URL, not the key).
CANONICAL_URL_META = "canonical_request_url"


class CanonicalRequestFingerprinter:
    """Fingerprint = SHA-1 of method, canonical URL and body (headers ignored, as Scrapy does)."""

    def __init__(self) -> None:
        self._cache: WeakKeyDictionary[Request, bytes] = WeakKeyDictionary()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CanonicalRequestFingerprinter:
        """Scrapy's factory hook; the fingerprinter needs no settings."""
        return cls()

    def fingerprint(self, request: Request) -> bytes:
        """The request's fingerprint (cached per request object)."""
        cached = self._cache.get(request)
        if cached is None:
            url = request.url
            if request.meta.get(CANONICAL_URL_META) != url:
                url = canonicalize_url(url)
            data = {
                "method": request.method.upper(),
                "url": url,
                "body": (request.body or b"").hex(),
            }
            cached = hashlib.sha1(json.dumps(data, sort_keys=True).encode()).digest()
            self._cache[request] = cached
        return cached
