"""Slow or silent connections do not shut the phones out.

The production server (``python -m scorekeeper --https``) is started with its default 8 threads; on
each port 100 connections drip a request's headers a byte a second and 100 more connect and send
nothing (on HTTPS: no ClientHello). A phone's GET must still be answered within a second on both
ports. Before the change waitress took 100 connections and no more (the GET timed out) and cheroot
did every TLS handshake in its accepting thread (one silent socket held every HTTPS request 10 s).
"""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from scorekeeper.network import tls

ROOT = Path(__file__).resolve().parent.parent
SLOW = 100  # connections dripping headers, per port
SILENT = 100  # connections that send nothing, per port
ANSWER_WITHIN = 1.0  # seconds for a phone's GET meanwhile
GIVE_UP = 5.0  # a GET not answered by then counts as this long

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(tmp_path: Path) -> tuple[subprocess.Popen, int, int]:
    http_port, https_port = _free_port(), _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "--host", "127.0.0.1", "--port", str(http_port)]
        + ["--https", "--https-port", str(https_port)],
        cwd=os.environ.get("SCOREKEEPER_ROOT", ROOT),
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server stopped"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{http_port}/", timeout=2):
                pass
            with socket.create_connection(("127.0.0.1", https_port), timeout=1):
                return process, http_port, https_port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not start")


def _get(url: str, context: ssl.SSLContext | None = None) -> float:
    """Seconds until a whole 200 answer to a GET (GIVE_UP when none came by then)."""
    began = time.monotonic()
    try:
        with urllib.request.urlopen(url, context=context, timeout=GIVE_UP) as answer:
            answer.read()
            assert answer.status == 200
    except (OSError, urllib.error.URLError):
        return GIVE_UP
    return time.monotonic() - began


def test_slow_and_silent_connections_leave_both_ports_answering(tmp_path):
    process, http_port, https_port = _start(tmp_path)
    trusted = ssl.create_default_context(cafile=str(tls.files(tmp_path).ca_cert))
    http_url, https_url = f"http://127.0.0.1:{http_port}/", f"https://localhost:{https_port}/"
    before = (_get(http_url), _get(https_url, trusted))
    slow: list[socket.socket] = []
    silent: list[socket.socket] = []
    stop = threading.Event()

    def drip() -> None:  # a header's byte a second on every slow connection, never its end
        while not stop.wait(1.0):
            for sock in list(slow):
                try:
                    sock.send(b"a")
                except OSError:
                    pass

    dripper = threading.Thread(target=drip, daemon=True)
    try:
        refused = {}  # a port that takes no more connections (the old waitress past 100) stops the opening
        for port, context in ((http_port, None), (https_port, trusted)):
            try:
                for _ in range(SLOW):
                    sock = socket.create_connection(("127.0.0.1", port), timeout=GIVE_UP)
                    if context is not None:
                        sock = context.wrap_socket(sock, server_hostname="localhost")  # handshake done
                    sock.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                    slow.append(sock)
                for _ in range(SILENT):
                    silent.append(socket.create_connection(("127.0.0.1", port), timeout=GIVE_UP))
            except OSError as error:
                refused[port] = repr(error)
        dripper.start()
        times = {"http": [], "https": []}
        for pause in (2.0, 3.0):  # while the slow ones drip and the silent ones wait
            time.sleep(pause)
            times["http"].append(_get(http_url))
            times["https"].append(_get(https_url, trusted))
        assert process.poll() is None
        print(f"before: {before}; with {SLOW + SILENT} slow or silent connections a port: {times}")
        assert not refused, (refused, times)
        assert max(times["http"]) < ANSWER_WITHIN, times
        assert max(times["https"]) < ANSWER_WITHIN, times
    finally:
        stop.set()
        for sock in slow + silent:
            sock.close()
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
