"""Scrapy commands of the project (``COMMANDS_MODULE``): ``crawl`` exits with a code an operator
can act on (see :mod:`crawler.exit_codes`)."""
