"""A throw-away ``redis-server`` on 127.0.0.1 (free port, no persistence) for tests."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import redis

REDIS_SERVER = "redis-server"


def redis_server_binary() -> str | None:
    """Path of the redis-server binary, or None when it is not installed."""
    return shutil.which(REDIS_SERVER) or next(
        (p for p in ("/usr/bin/redis-server", "/usr/local/bin/redis-server")
         if Path(p).is_file()), None)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """Start ``redis-server --save ''`` in a folder; ``url`` points at its database 0."""

    def __init__(self, workdir: Path, binary: str) -> None:
        self.workdir = workdir
        self.binary = binary
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:PORT/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> RedisServer:
        """Launch the server and wait until it answers PING."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir), "--logfile",
             str(self.workdir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        client = self.client()
        while True:
            try:
                client.ping()
                return self
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"redis-server did not start on port {self.port}") from None
                time.sleep(0.05)

    def client(self) -> redis.Redis:
        """A client of database 0."""
        return redis.Redis.from_url(self.url)

    def stop(self) -> None:
        """Terminate the server and wait for it."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
