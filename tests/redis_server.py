"""A throw-away ``redis-server`` on 127.0.0.1 (free port, no persistence) for tests."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import redis

from tests.ports import PortTaken, start_on_free_port

REDIS_SERVER = "redis-server"


def redis_server_binary() -> str | None:
    """Path of the redis-server binary, or None when it is not installed."""
    return shutil.which(REDIS_SERVER) or next(
        (p for p in ("/usr/bin/redis-server", "/usr/local/bin/redis-server")
         if Path(p).is_file()), None)


class RedisServer:
    """Start ``redis-server --save ''`` in a folder; ``url`` points at its database 0."""

    def __init__(self, workdir: Path, binary: str) -> None:
        self.workdir = workdir
        self.binary = binary
        self.port = 0  # chosen by start()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:PORT/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> RedisServer:
        """Launch the server on a free port (another one if that was taken meanwhile) and wait
        until it answers PING."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        return start_on_free_port(lambda port: self._start_on(port, timeout))

    def _start_on(self, port: int, timeout: float) -> RedisServer:
        """Launch on ``port``; PortTaken when redis-server could not listen there."""
        self.port = port
        log = self.workdir / f"redis-{port}.log"
        self.process = subprocess.Popen(
            [self.binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir), "--logfile", str(log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        client = self.client()
        while True:
            try:
                # the server answering is ours, not another test's that took the port first
                if client.info("server")["process_id"] == self.process.pid:
                    return self
                raise redis.ConnectionError("another server answers on this port")
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    if log.exists() and "Address already in use" in log.read_text():
                        raise PortTaken(port) from None
                    raise RuntimeError(f"redis-server did not start on port {port}") from None
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
