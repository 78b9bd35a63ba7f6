# Two commands: `make crawl START=https://site.example/` and `make test`; `make setup` installs
# without running anything. Each installs what it needs (Debian packages when missing, a
# virtualenv with the pinned requirements) and can be run again.

VENV ?= .venv
PYTHON ?= python3
START ?=
ARGS ?=
PYTEST_ARGS ?=
# Test files run side by side in this many worker processes (pytest-xdist; `auto` = one per CPU
# core); every test of one file runs in the same worker, so a file's shared crawl is made once.
# PYTEST_WORKERS=0 runs the suite in this process, one test after the other.
PYTEST_WORKERS ?= auto
SYSTEM_PACKAGES ?= chromium chromium-headless-shell redis-server

.PHONY: crawl test demo setup system-deps clean

# The start URL reaches the shell through the environment, as typed (never expanded by make nor
# pasted into the command line), so a URL with `&`, `;`, `$` or quotes arrives intact; the usage
# is printed before anything is installed.
CRAWL_START := $(value START)
export CRAWL_START

crawl:
	@if [ -z "$$CRAWL_START" ]; then echo "usage: make crawl START=https://site.example/ [ARGS='-a max_pages=100 -a render=never']"; exit 2; fi
	@$(MAKE) --no-print-directory setup
	$(VENV)/bin/scrapy crawl domain -a start="$$CRAWL_START" $(ARGS)

test: setup
	$(VENV)/bin/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

demo: setup
	$(VENV)/bin/python -m crawler demo

setup: system-deps $(VENV)/.installed

# Debian packages: the browser for JavaScript pages (chromium's headless shell, which the crawl
# prefers for its lower cost per page, and chromium, the fallback) and Redis for distributed crawls.
system-deps:
	@missing=""; \
	for pkg in $(SYSTEM_PACKAGES); do command -v $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; done; \
	$(PYTHON) -c "import venv, ensurepip" >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q -r requirements.txt
	touch $@

clean:
	rm -rf $(VENV) build dist *.egg-info
