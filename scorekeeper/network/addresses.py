"""Opening a game on another phone: the address phones on the network can reach, and its QR code;
and the host names this app answers to (Flask's ``TRUSTED_HOSTS``).

Only this machine's own names and addresses are trusted (plus ``EXTRA_HOSTS`` from
``instance/config.py``, and any private IP address written as such): a web page elsewhere cannot
point a name of its own at this machine (DNS rebinding) and so read the archive through the
phone's browser, and no link the app shows is built from a host it does not trust.
"""

from __future__ import annotations

import functools
import io
import ipaddress
import re
import shutil
import socket
import subprocess
import threading
from time import monotonic
from urllib.parse import urlsplit, urlunsplit

import segno
from flask import Request as FlaskRequest
from flask import has_request_context, request
from werkzeug.sansio.utils import host_is_trusted

LOOPBACK = re.compile(r"^(127\.|localhost$|\[?::1\]?$)")

# Interfaces phones on the home network cannot reach: container and VM bridges, VPN tunnels.
VIRTUAL = re.compile(
    r"^(docker|br-|veth|virbr|vboxnet|vmnet|lxcbr|lxdbr|cni|flannel|podman|kube|"
    r"tun|tap|wg|utun|tailscale|zt|ppp)",
    re.I,
)
REFRESH_SECONDS = 60  # a new address from the router (DHCP) is picked up within this

_clock = monotonic
_lock = threading.Lock()
_cached: tuple[float, tuple[str, ...]] | None = None


def _discover() -> dict[str, str | None]:
    """Every IPv4 address of this machine with its interface's name where known."""
    found: dict[str, str | None] = {}
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.setdefault(info[4][0], None)
    except OSError:
        pass
    for command in (["ip", "-4", "-o", "addr", "show"], ["ifconfig"]):  # Linux, then macOS and BSD
        if shutil.which(command[0]):
            try:
                output = subprocess.run(command, capture_output=True, text=True, timeout=2).stdout
            except (OSError, subprocess.SubprocessError):
                continue
            interface = None
            for line in output.splitlines():
                # "2: wlan0    inet 192.168.1.5/24 ..." (ip -o); "en0: flags=..." then "\tinet 192.168.1.5 ..."
                head = re.match(r"^(?:\d+:\s+)?([^\s:]+):?\s", line)
                if head and not line[:1].isspace():
                    interface = head.group(1)
                for address in re.findall(r"inet (?:addr:)?(\d+\.\d+\.\d+\.\d+)", line):
                    found[address] = interface
            break
    return found


def _rank(address: str, interface: str | None) -> tuple[int, int]:
    """Home networks first (192.168/16, then 10/8, then 172.16/12), then any other address, then
    bridges of containers and virtual machines and VPN tunnels (docker's 172.17.0.1 among them)."""
    ip = ipaddress.IPv4Address(address)
    bridge = (interface is not None and VIRTUAL.match(interface)) or (
        ip in ipaddress.IPv4Network("172.16.0.0/12") and address.endswith(".0.1")
    )  # docker's gateway addresses
    if bridge:
        group = 5
    elif ip in ipaddress.IPv4Network("192.168.0.0/16"):
        group = 0
    elif ip in ipaddress.IPv4Network("10.0.0.0/8"):
        group = 1
    elif ip in ipaddress.IPv4Network("172.16.0.0/12"):
        group = 2
    elif ip.is_link_local:
        group = 4
    else:
        group = 3
    return group, int(ip)


def _valid(address: str) -> bool:
    try:
        ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return True


def lan_addresses() -> tuple[str, ...]:
    """This machine's IPv4 addresses other than loopback, as the phones on the network see it, the
    likeliest to reach first; looked up again at most every ``REFRESH_SECONDS``."""
    global _cached
    with _lock:
        now = _clock()
        if _cached is None or now - _cached[0] >= REFRESH_SECONDS:
            found = _discover()
            addresses = [a for a in found if _valid(a) and not a.startswith(("127.", "0."))]
            _cached = now, tuple(sorted(addresses, key=lambda a: _rank(a, found[a])))
        return _cached[1]


def own_names(extra=()) -> list[str]:
    """This machine's names and loopback addresses, its LAN addresses as found now, and ``extra``
    (the owner's ``EXTRA_HOSTS``): the default ``TRUSTED_HOSTS``."""
    names = ["localhost", "127.0.0.1", "::1", "[::1]"]
    hostname = socket.gethostname().lower()
    if hostname:
        names += [hostname, f"{hostname}.local"] if "." not in hostname else [hostname]
    names += lan_addresses()
    extra = [extra] if isinstance(extra, str) else list(extra or ())  # EXTRA_HOSTS = "one.name" works too
    names += [str(name).strip().lower() for name in extra if str(name).strip()]
    return list(dict.fromkeys(names))


_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::[0-9]{1,5})?", re.I)  # as Werkzeug reads a Host


@functools.lru_cache(maxsize=256)  # asked on every request, of the few hosts the phones use
def _private_address(host: str) -> bool:
    """Whether ``host`` (without port) is an IP address of a home network, loopback or link-local."""
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return ip.is_private or ip.is_loopback or ip.is_link_local


class Request(FlaskRequest):
    """Flask's request whose trusted hosts (``TRUSTED_HOSTS``) also hold, looked up now, this
    machine's LAN addresses (a new one from the router) and the host asked for when it is a private
    IP address written out: an address is no name a foreign site could point here, and a phone may
    reach the computer through one it does not know as its own (a container, a forwarded port)."""

    _configured: list[str] | None = None

    @property
    def trusted_hosts(self) -> list[str] | None:
        configured = self._configured
        if not configured:
            return configured  # None or empty: every host is accepted, as the owner set it
        match = _HOST.fullmatch(self.environ.get("HTTP_HOST", ""))
        host = match.group(1).strip("[]").lower() if match else ""
        if host and (_private_address(host) or host in {name.strip("[]") for name in configured}):
            # trusted already; an empty list lets it pass (Werkzeug's list cannot name an IPv6
            # address such as [::1]: it cuts each entry at its first colon)
            return []
        return [*configured, *lan_addresses()]

    @trusted_hosts.setter
    def trusted_hosts(self, value) -> None:
        self._configured = list(value) if value is not None else None


def reachable_url(url: str, addresses: tuple[str, ...] | None = None, trusted=None) -> str:
    """The URL as another phone can open it: a loopback host, or one not trusted (``trusted``,
    by default the request's trusted hosts), is replaced by this machine's likeliest LAN address
    (the first of ``addresses``); with none found (no network) a loopback URL stays as it is and
    an untrusted host becomes ``localhost``."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if trusted is None and has_request_context():
        trusted = request.trusted_hosts
    untrusted = bool(trusted) and not host_is_trusted(parts.netloc, trusted)
    if not LOOPBACK.match(host) and not untrusted:
        return url
    addresses = lan_addresses() if addresses is None else addresses
    port = f":{parts.port}" if parts.port else ""
    if not addresses:
        return (
            urlunsplit((parts.scheme, "localhost" + port, parts.path, parts.query, parts.fragment))
            if untrusted
            else url
        )
    return urlunsplit((parts.scheme, addresses[0] + port, parts.path, parts.query, parts.fragment))


@functools.lru_cache(maxsize=256)
def qr_svg(text: str, title: str = "QR code") -> str:
    """A QR code of the text as inline SVG markup (``title``: what a screen reader says, in the reader's language)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(
        out,
        kind="svg",
        scale=5,
        border=2,
        omitsize=True,  # a viewBox instead of a fixed size: the code fills the box style.css gives it
        xmldecl=False,
        svgns=True,
        nl=False,
        title=title,
        svgclass="qr",
        dark="#000",
        light="#fff",
    )
    return out.getvalue().decode("utf-8")
