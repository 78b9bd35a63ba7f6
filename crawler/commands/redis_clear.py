"""``python -m crawler redis-clear REDIS_URL``: remove a finished distributed crawl's Redis keys.

Workers keep the shared queue and dupefilter in Redis while they run (``SCHEDULER_PERSIST``), so
a worker that joins late, or restarts, continues the same crawl. Once every worker has finished,
this command deletes those keys (and the hosts the workers took into the crawl's scope, kept
beside the queue); the next crawl with the same spider then starts afresh.
"""

from __future__ import annotations

import argparse
import logging

import redis

from crawler.distributed.config import DUPEFILTER_KEY, QUEUE_KEY
from crawler.distributed.scope import scope_key

logger = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``redis-clear`` sub-command."""
    parser = subparsers.add_parser(
        "redis-clear", help="delete a finished distributed crawl's queue and dupefilter keys",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("redis_url", metavar="REDIS_URL", help="redis://HOST:PORT/DB of the crawl")
    parser.add_argument("--spider", default="domain", help="spider name (default %(default)s)")
    parser.add_argument("--queue-key", default=QUEUE_KEY,
                        help="queue key pattern, as SCHEDULER_QUEUE_KEY (default %(default)s)")
    parser.add_argument("--dupefilter-key", default=DUPEFILTER_KEY,
                        help="dupefilter key pattern, as SCHEDULER_DUPEFILTER_KEY "
                             "(default %(default)s)")
    parser.add_argument("--force", action="store_true",
                        help="delete even though requests are still queued (crawl unfinished)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Delete the keys unless the queue still holds requests; return the exit code."""
    queue_key = args.queue_key % {"spider": args.spider}
    dupefilter_key = args.dupefilter_key % {"spider": args.spider}
    try:
        server = redis.Redis.from_url(args.redis_url)
        pending = _queued(server, queue_key)
        if pending and not args.force:
            logger.error("%d requests are still queued under %r: the crawl is not finished "
                         "(wait for the workers, or use --force)", pending, queue_key)
            return 1
        seen = server.scard(dupefilter_key) if server.type(dupefilter_key) == b"set" else 0
        deleted = server.delete(queue_key, dupefilter_key, scope_key(queue_key))
    except ValueError as exc:
        logger.error("REDIS_URL %r: %s", args.redis_url, exc)
        return 2
    except redis.RedisError as exc:
        logger.error("Redis at %s: %s", args.redis_url, exc)
        return 2
    print(f"deleted {deleted} keys ({queue_key!r} with {pending} requests, "
          f"{dupefilter_key!r} with {seen} fingerprints)")
    return 0


def _queued(server: redis.Redis, key: str) -> int:
    """Number of requests in the queue key, whatever queue class wrote it."""
    kind = server.type(key)
    if kind == b"zset":
        return int(server.zcard(key))
    if kind == b"list":
        return int(server.llen(key))
    return 0
