"""Distributed crawling on scrapy-redis: many workers share one Redis frontier (queue + dupefilter).

Everything here is dormant unless the ``REDIS_URL`` setting is given; see :mod:`.addon`.
"""
