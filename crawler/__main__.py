"""Entry point of ``python -m crawler``."""

from __future__ import annotations

import sys

from crawler.cli import main

if __name__ == "__main__":
    sys.exit(main())
