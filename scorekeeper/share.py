"""Opening a game on another phone: the address phones on the network can reach, and its QR code."""

from __future__ import annotations

import functools
import io
import re
import shutil
import socket
import subprocess
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

import segno

LOOPBACK = re.compile(r"^(127\.|localhost$|\[?::1\]?$)")


@lru_cache(maxsize=1)
def lan_addresses() -> tuple[str, ...]:
    """This machine's IPv4 addresses other than loopback, as the phones on the network see it."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(info[4][0])
    except OSError:
        pass
    for command in (["ip", "-4", "-o", "addr", "show"], ["ifconfig"]):  # Linux, then macOS and BSD
        if shutil.which(command[0]):
            try:
                output = subprocess.run(command, capture_output=True, text=True, timeout=2).stdout
            except (OSError, subprocess.SubprocessError):
                continue
            found.update(re.findall(r"inet (\d+\.\d+\.\d+\.\d+)", output))
            break
    return tuple(sorted(a for a in found if not a.startswith("127.")))


def reachable_url(url: str, addresses: tuple[str, ...] | None = None) -> str:
    """The URL as another phone can open it: a loopback host is replaced by this machine's LAN address."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if not LOOPBACK.match(host):
        return url
    addresses = lan_addresses() if addresses is None else addresses
    if not addresses:
        return url
    netloc = addresses[0] + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


@functools.lru_cache(maxsize=256)
def qr_svg(text: str) -> str:
    """A QR code of the text as inline SVG markup."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False, svgns=True, nl=False,
                                     title="QR code", svgclass="qr", dark="#000", light="#fff")
    return out.getvalue().decode("utf-8")
