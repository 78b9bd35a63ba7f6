"""Scrapy extensions of the crawler project."""
