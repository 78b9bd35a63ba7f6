"""Downloader and spider middlewares that keep a crawl safe on hostile sites (one per module)."""
