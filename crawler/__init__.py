"""A Scrapy crawler that fetches a whole domain and extracts each page's main content."""

__version__ = "0.1.0"
