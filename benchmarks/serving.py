"""What the load benchmark and the fault test share: start the production server on a prepared
instance, and a small keep-alive HTTP/1.1 client on asyncio (no outside load tool needed)."""

from __future__ import annotations

import asyncio
import gzip
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    """A TCP port nobody listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(
    command: list[str], port: int, env: dict[str, str] | None = None, log: Path | None = None
) -> subprocess.Popen:
    """Start a server process and wait until it accepts connections."""
    out = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - the process keeps it
    process = subprocess.Popen(
        command, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=out, stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{command} exited with {process.returncode}" + (f"; see {log}" if log else ""))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"{command} did not start listening on {port}")


def start_scorekeeper(instance: Path, port: int, threads: int = 8, log: Path | None = None) -> subprocess.Popen:
    """The production server (``python -m scorekeeper``: waitress) on this instance folder."""
    return start(
        [PYTHON, "-m", "scorekeeper", "--host", "127.0.0.1", "--port", str(port), "--threads", str(threads)],
        port,
        {"SCOREKEEPER_INSTANCE": str(instance)},
        log,
    )


def stop(process: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    """Stop a server (SIGKILL: at once, as a power cut would)."""
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Connection:
    """One keep-alive HTTP/1.1 connection with its own cookies, like one phone."""

    def __init__(self, port: int, headers: dict[str, str] | None = None) -> None:
        self.port = port
        self.headers = headers or {}  # sent with every request (a browser's Accept-Encoding, say)
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookies: dict[str, str] = {}

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def close(self) -> None:
        if self.writer:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
            self.writer = None

    async def request(
        self,
        method: str,
        path: str,
        body: bytes = b"",
        content_type: str = "",
        headers: dict[str, str] | None = None,
        keep_cookies: bool = True,
    ) -> tuple[int, dict[str, str], bytes]:
        """Send one request (reconnecting if the server closed the connection); status, headers, body.
        ``keep_cookies=False``: the cookies the answer sets are not kept (a save's "Hand saved."
        message, which a phone reads on the next page, would otherwise pile up in the cookie)."""
        for attempt in range(2):
            if self.writer is None:
                await self._open()
            lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Connection: keep-alive"]
            if self.cookies:
                lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
            if body or method == "POST":
                lines += [
                    f"Content-Length: {len(body)}",
                    f"Content-Type: {content_type or 'application/x-www-form-urlencoded'}",
                ]
            lines += [f"{k}: {v}" for k, v in {**self.headers, **(headers or {})}.items()]
            try:
                self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
                await self.writer.drain()
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.close()
                if attempt:
                    raise
                continue
            status_line, *header_lines = head.decode("latin-1").split("\r\n")
            status = int(status_line.split()[1])
            found: dict[str, str] = {}
            for line in header_lines:
                if ":" in line:
                    key, value = line.split(":", 1)
                    key = key.strip().lower()
                    if key == "set-cookie" and keep_cookies:
                        name, _, rest = value.strip().partition("=")
                        self.cookies[name] = rest.split(";", 1)[0]
                    found[key] = value.strip()
            if "content-length" in found:
                data = await self.reader.readexactly(int(found["content-length"]))
            else:
                data = b""
                while True:  # chunked
                    size = int((await self.reader.readline()).strip() or b"0", 16)
                    if size == 0:
                        await self.reader.readline()
                        break
                    data += await self.reader.readexactly(size)
                    await self.reader.readline()
            if found.get("connection", "").lower() == "close":
                await self.close()
            return status, found, data
        raise ConnectionError("unreachable")


CSRF = re.compile(rb'name="csrf_token"[^>]*value="([^"]+)"')

# A quiet hand: both sides meld a little and keep as much in hand, nobody goes out (the stock ran
# out), so it scores 0 : 0 and a game can take any number of them without ending.
QUIET_SIDES = [{"melded_points": 50, "hand_points": 50}, {"melded_points": 60, "hand_points": 60}]


def quiet_hand_form(token: str, key: str) -> bytes:
    """The hand form as a phone posts it, for the quiet hand."""
    # who went out (nobody: the stock ran out) and points or counts are asked once for the hand
    fields = {"csrf_token": token, "client_key": key, "out": "stock", "how": "normal", "mode": "points", "confirm": "y"}
    for i, side in enumerate(QUIET_SIDES):
        fields.update(
            {
                f"sides-{i}-natural_canastas": "0",
                f"sides-{i}-mixed_canastas": "0",
                f"sides-{i}-red_threes": "0",
                f"sides-{i}-penalties": "0",
                f"sides-{i}-melded_points": str(side["melded_points"]),
                f"sides-{i}-hand_points": str(side["hand_points"]),
            }
        )
    return urlencode(fields).encode()


def body_of(headers: dict[str, str], data: bytes) -> bytes:
    """An answer's body as the browser reads it: unpacked when it came compressed."""
    return gzip.decompress(data) if headers.get("content-encoding") == "gzip" else data


async def open_hand_form(connection: Connection, game_id: int) -> str:
    """Open a game's hand form (as a phone does before entering a hand); its CSRF token."""
    status, headers, page = await connection.request("GET", f"/games/{game_id}/hands/new")
    match = CSRF.search(body_of(headers, page))
    if status != 200 or not match:
        raise RuntimeError(f"hand form of game {game_id}: {status}")
    return match.group(1).decode()


def new_key() -> str:
    """A client key, as the hand form carries one."""
    return uuid.uuid4().hex
