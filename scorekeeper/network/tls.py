"""HTTPS on the home network: this installation's own small certificate authority and a server
certificate for this machine's names and addresses.

A browser gives a service worker (installing the app, loading pages with no connection) only to a
secure context. A phone opening ``http://192.168.1.20:8000/`` is not one; ``https://`` is, once the
phone trusts the certificate. ``start.sh --https`` makes, once, an authority for this installation
(``instance/tls/ca.pem``; its private key ``ca-key.pem`` is written with mode 600 and never leaves
``instance/``), and issues from it a server certificate for every name and address the phones may
use. A phone trusts the authority once (the /trust page offers it to download); a new address from
the router needs only a new server certificate, issued here at the next start, not a new trust.

The authority is limited by name constraints to home-network names (``.local``, ``.lan``, this
machine's host name, ...) and private, loopback and link-local addresses: should its key ever leak,
it could not vouch for any site on the internet.

The server that speaks TLS with these files is ``scorekeeper.server.https``.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from scorekeeper.network.addresses import own_names

FOLDER = "tls"
CA_DAYS = 3650  # the phones trust the authority once: ten years
SERVER_DAYS = 397  # what browsers accept for a server certificate (Apple's and Chrome's limit: 398)
RENEW_DAYS = 30  # a server certificate with less left is issued again at the next start
# Names the authority may vouch for, besides this machine's host name and EXTRA_HOSTS at its creation
# (a name constraint covers the name and every name below it: "local" covers "canasta.local").
HOME_SUFFIXES = ("localhost", "local", "lan", "home", "home.arpa", "internal", "fritz.box")
HOME_NETWORKS = (
    "10.0.0.0/8",
    "172.16.0.0/12",
    "192.168.0.0/16",
    "100.64.0.0/10",  # carrier-grade NAT and mesh VPNs
    "169.254.0.0/16",
    "127.0.0.0/8",
    "fc00::/7",
    "fe80::/10",
    "::1/128",
)


@dataclass(frozen=True)
class Files:
    """Where an installation's certificates and keys live (``instance/tls/``)."""

    folder: Path

    @property
    def ca_cert(self) -> Path:
        return self.folder / "ca.pem"

    @property
    def ca_key(self) -> Path:
        return self.folder / "ca-key.pem"

    @property
    def cert(self) -> Path:
        return self.folder / "server.pem"

    @property
    def key(self) -> Path:
        return self.folder / "server-key.pem"


def files(instance_path: str | os.PathLike) -> Files:
    """The TLS files of the installation whose ``instance/`` folder this is."""
    return Files(Path(instance_path) / FOLDER)


def app_files(app) -> Files:
    """The app's TLS files: ``TLS_FOLDER`` from the config (tests), else ``instance/tls``."""
    folder = app.config.get("TLS_FOLDER")
    return Files(Path(folder)) if folder else files(app.instance_path)


def _write_private(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Write a file whole (a temporary file renamed over it) that is born with ``mode``."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def _split(names) -> tuple[list[str], list[ipaddress.IPv4Address | ipaddress.IPv6Address]]:
    """Host names (lower case, no brackets or trailing dot) and IP addresses, each once, in order."""
    dns: list[str] = []
    ips: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for raw in names:
        name = str(raw).strip().strip("[]").rstrip(".").lower()
        if not name:
            continue
        try:
            ip = ipaddress.ip_address(name)
        except ValueError:
            if name not in dns and all(part for part in name.split(".")):
                dns.append(name)
            continue
        if ip not in ips:
            ips.append(ip)
    return dns, ips


def machine_names(extra=()) -> list[str]:
    """The names and addresses phones may use for this machine: its host name (and ``NAME.local``),
    ``localhost``, loopback, the LAN addresses found now and ``extra`` (the owner's EXTRA_HOSTS)."""
    return own_names(extra)  # the same list the app answers to (TRUSTED_HOSTS)


def _permitted_dns(extra=()) -> list[str]:
    hostname = socket.gethostname().lower().rstrip(".")
    names = [*HOME_SUFFIXES, hostname, *_split(extra)[0]]
    return list(dict.fromkeys(n for n in names if n))


def _key_usage(authority: bool) -> x509.KeyUsage:
    """What a key may sign: the authority's certificates and revocation lists, a server's its
    handshakes only."""
    return x509.KeyUsage(
        digital_signature=True,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=authority,
        crl_sign=authority,
        encipher_only=False,
        decipher_only=False,
    )


def _private_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    """A private key as the PEM file written beside its certificate (PKCS #8, unencrypted: mode 600)."""
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _home_networks_only(extra=()) -> x509.NameConstraints:
    """The names and addresses the authority may vouch for: home-network ones (and ``extra``) only."""
    return x509.NameConstraints(
        permitted_subtrees=[x509.DNSName(n) for n in _permitted_dns(extra)]
        + [x509.IPAddress(ipaddress.ip_network(n)) for n in HOME_NETWORKS],
        excluded_subtrees=None,
    )


def create_authority(folder: Files, extra=()) -> x509.Certificate:
    """Make the installation's certificate authority: an EC P-256 key (mode 600) and a self-signed
    certificate limited to home-network names and addresses."""
    folder.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder.folder, 0o700)
    key = ec.generate_private_key(ec.SECP256R1())
    hostname = socket.gethostname() or "this computer"
    created = _now()
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Canasta score keeper"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Canasta score keeper on {hostname} {created:%Y-%m-%d}"[:64]),
        ]
    )
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(created - datetime.timedelta(hours=1))
        .not_valid_after(created + datetime.timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(authority=True), critical=True)
        .add_extension(_home_networks_only(extra), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_pem = _private_pem(key)
    _write_private(folder.ca_key, key_pem, 0o600)
    _write_private(folder.ca_cert, cert.public_bytes(serialization.Encoding.PEM), 0o644)
    # a server certificate of an older authority is no longer of use
    folder.cert.unlink(missing_ok=True)
    folder.key.unlink(missing_ok=True)
    return cert


def load_authority(folder: Files) -> x509.Certificate | None:
    """The installation's authority certificate, or None when there is none (yet)."""
    try:
        return x509.load_pem_x509_certificate(folder.ca_cert.read_bytes())
    except (OSError, ValueError):
        return None


def _allowed(name: str, ip, ca: x509.Certificate) -> bool:
    """Whether the authority's name constraints let it vouch for this name or address."""
    try:
        constraints = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        return True
    permitted = constraints.permitted_subtrees or []
    if ip is not None:
        return any(isinstance(p, x509.IPAddress) and ip in p.value for p in permitted)
    return any(
        isinstance(p, x509.DNSName) and (name == p.value or name.endswith("." + p.value.lstrip("."))) for p in permitted
    )


def _covers(cert: x509.Certificate, dns: list[str], ips: list) -> bool:
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return False
    return set(dns) <= set(san.get_values_for_type(x509.DNSName)) and set(ips) <= set(
        san.get_values_for_type(x509.IPAddress)
    )


def _usable(folder: Files, ca: x509.Certificate, dns: list[str], ips: list) -> bool:
    """Whether the server certificate on disk is this authority's, still valid for a while, and for
    every name and address asked."""
    try:
        cert = x509.load_pem_x509_certificate(folder.cert.read_bytes())
        serialization.load_pem_private_key(folder.key.read_bytes(), password=None)
    except (OSError, ValueError):
        return False
    if cert.issuer != ca.subject:
        return False
    try:
        cert.verify_directly_issued_by(ca)
    except (InvalidSignature, ValueError, TypeError):  # another key: an authority made again
        return False
    left = cert.not_valid_after_utc - _now()
    return left > datetime.timedelta(days=RENEW_DAYS) and _covers(cert, dns, ips)


def _issued_by(ca: x509.Certificate) -> x509.AuthorityKeyIdentifier:
    """The authority's key, as a certificate it issues names it."""
    return x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(
        ca.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
    )


def issue_server_certificate(folder: Files, names) -> tuple[list[str], list[str]]:
    """Issue a server certificate (EC P-256 key, mode 600) for ``names`` from the authority; answers
    the names and addresses it holds and those the authority may not vouch for (left out)."""
    ca = load_authority(folder)
    ca_key = serialization.load_pem_private_key(folder.ca_key.read_bytes(), password=None)
    dns, ips = _split(names)
    refused = [n for n in dns if not _allowed(n, None, ca)] + [str(ip) for ip in ips if not _allowed("", ip, ca)]
    dns = [n for n in dns if n not in refused]
    ips = [ip for ip in ips if str(ip) not in refused]
    key = ec.generate_private_key(ec.SECP256R1())
    created = _now()
    first = dns[0] if dns else str(ips[0]) if ips else "localhost"
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, first[:64])]))
        .issuer_name(ca.subject)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(created - datetime.timedelta(hours=1))
        .not_valid_after(created + datetime.timedelta(days=SERVER_DAYS))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(authority=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.SubjectAlternativeName([x509.DNSName(n) for n in dns] + [x509.IPAddress(ip) for ip in ips]),
            critical=False,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .add_extension(_issued_by(ca), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key_pem = _private_pem(key)
    _write_private(folder.key, key_pem, 0o600)
    _write_private(folder.cert, cert.public_bytes(serialization.Encoding.PEM), 0o644)
    return dns + [str(ip) for ip in ips], refused


@dataclass(frozen=True)
class Ready:
    """What ``ensure`` found or made."""

    files: Files
    created_authority: bool
    issued: bool
    names: tuple[str, ...]
    refused: tuple[str, ...]


def ensure(folder: Files, names, extra=()) -> Ready:
    """The authority (made once) and a server certificate for ``names`` (issued again when a name or
    address is new, the authority is new, or it runs out within ``RENEW_DAYS``), in ``folder``."""
    ca = load_authority(folder)
    created = False
    if ca is None or not folder.ca_key.exists():
        ca = create_authority(folder, extra)
        created = True
    for path in (folder.ca_key, folder.key):  # private keys: this user only, also after a copy
        if path.exists() and path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
    dns, ips = _split(names)
    wanted_dns = [n for n in dns if _allowed(n, None, ca)]
    wanted_ips = [ip for ip in ips if _allowed("", ip, ca)]
    refused = tuple(n for n in dns if n not in wanted_dns) + tuple(str(ip) for ip in ips if ip not in wanted_ips)
    if _usable(folder, ca, wanted_dns, wanted_ips):
        return Ready(folder, created, False, tuple(wanted_dns) + tuple(str(ip) for ip in wanted_ips), refused)
    held, refused_now = issue_server_certificate(folder, names)
    return Ready(folder, created, True, tuple(held), tuple(refused_now))


def authority_der(folder: Files) -> bytes | None:
    """The authority's certificate as the phones download it (DER), or None without one."""
    ca = load_authority(folder)
    return ca.public_bytes(serialization.Encoding.DER) if ca is not None else None


def fingerprint(cert: x509.Certificate) -> str:
    """SHA-256 fingerprint as phones show it: AB:CD:..."""
    return cert.fingerprint(hashes.SHA256()).hex(":").upper()
