"""HTTPS on the home network (scorekeeper/network/tls.py, the /trust page, ``python -m scorekeeper --https``):
the authority is made once with a private key (mode 600) that is never served, the server certificate
verifies for every name and address it holds and is issued again for a new address (same authority),
the authority can vouch only for home-network names, and the real servers speak TLS and plain HTTP."""

from __future__ import annotations

import datetime
import ipaddress
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
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError

from scorekeeper.network import tls
from scorekeeper.server import https
from tests.conftest import make_app

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["table.lan", "canasta.local", "localhost", "192.168.1.20", "127.0.0.1", "::1"]


def _load(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


def _verify(folder: tls.Files, subject: x509.GeneralName, leaf: x509.Certificate | None = None) -> None:
    """Verify the server certificate (or ``leaf``) for ``subject`` as a browser would, from the authority."""
    ca = _load(folder.ca_cert)
    verifier = PolicyBuilder().store(Store([ca])).build_server_verifier(subject)
    verifier.verify(leaf or _load(folder.cert), [])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_authority_is_made_once_and_its_key_is_private(tmp_path):
    folder = tls.files(tmp_path)
    first = tls.ensure(folder, NAMES)
    assert first.created_authority and first.issued
    assert folder.folder.stat().st_mode & 0o777 == 0o700
    assert folder.ca_key.stat().st_mode & 0o777 == 0o600
    assert folder.key.stat().st_mode & 0o777 == 0o600
    ca = _load(folder.ca_cert)
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    again = tls.ensure(folder, NAMES)
    assert not again.created_authority and not again.issued  # nothing to do: the same files
    assert _load(folder.ca_cert) == ca
    # a key copied with loose permissions is made private again at the next start
    os.chmod(folder.ca_key, 0o644)
    tls.ensure(folder, NAMES)
    assert folder.ca_key.stat().st_mode & 0o777 == 0o600


def test_the_server_certificate_verifies_for_each_name_and_address(tmp_path):
    folder = tls.files(tmp_path)
    ready = tls.ensure(folder, NAMES)
    assert set(ready.names) == set(NAMES) and ready.refused == ()
    for name in ("table.lan", "canasta.local", "localhost"):
        _verify(folder, x509.DNSName(name))
    for address in ("192.168.1.20", "127.0.0.1", "::1"):
        _verify(folder, x509.IPAddress(ipaddress.ip_address(address)))
    with pytest.raises(VerificationError):
        _verify(folder, x509.DNSName("other.lan"))
    cert = _load(folder.cert)
    lifetime = cert.not_valid_after_utc - cert.not_valid_before_utc
    assert lifetime <= datetime.timedelta(days=398)  # what browsers accept for a server certificate


def test_a_new_address_gets_a_new_server_certificate_from_the_same_authority(tmp_path):
    folder = tls.files(tmp_path)
    tls.ensure(folder, ["table.lan", "192.168.1.20"])
    ca = _load(folder.ca_cert)
    moved = tls.ensure(folder, ["table.lan", "192.168.1.21"])  # the router gave another address
    assert moved.issued and not moved.created_authority
    assert _load(folder.ca_cert) == ca  # the phones keep trusting it
    _verify(folder, x509.IPAddress(ipaddress.ip_address("192.168.1.21")))


def test_a_server_certificate_about_to_run_out_is_issued_again(tmp_path, monkeypatch):
    folder = tls.files(tmp_path)
    tls.ensure(folder, NAMES)
    old = _load(folder.cert)
    later = tls._now() + datetime.timedelta(days=tls.SERVER_DAYS - tls.RENEW_DAYS + 1)
    monkeypatch.setattr(tls, "_now", lambda: later)
    assert tls.ensure(folder, NAMES).issued
    assert _load(folder.cert).not_valid_after_utc > old.not_valid_after_utc


def test_the_authority_can_vouch_only_for_home_network_names(tmp_path):
    folder = tls.files(tmp_path)
    ready = tls.ensure(folder, ["table.lan", "www.example.com", "8.8.8.8", "10.0.0.5"])
    assert set(ready.refused) == {"www.example.com", "8.8.8.8"}
    assert set(ready.names) == {"table.lan", "10.0.0.5"}
    # even a certificate its key signs for an internet name is refused by a verifier (name constraints)
    ca = _load(folder.ca_cert)
    ca_key = serialization.load_pem_private_key(folder.ca_key.read_bytes(), password=None)
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    forged = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "www.example.com")]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("www.example.com")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(
                ca.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value
            ),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    with pytest.raises(VerificationError):
        _verify(folder, x509.DNSName("www.example.com"), forged)


def _app(tmp_path, **config):
    return make_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE": str(tmp_path / "test.sqlite"),
            "TLS_FOLDER": str(tmp_path / "tls"),
            **config,
        }
    )


def test_the_trust_page_offers_the_certificate_and_nothing_else(tmp_path):
    folder = tls.files(tmp_path)
    tls.ensure(folder, NAMES)
    client = _app(tmp_path, HTTPS_PORT=8443).test_client()
    page = client.get("/trust", base_url="http://192.168.1.20:8000")
    assert page.status_code == 200
    text = page.text
    assert 'href="http://192.168.1.20:8000/trust/ca.crt"' in text and "<svg" in text
    assert "Android (Chrome)" in text and "iPhone and iPad (Safari)" in text
    assert "https://192.168.1.20:8443/" in text
    assert tls.fingerprint(_load(folder.ca_cert)) in text
    download = client.get("/trust/ca.crt")
    assert download.status_code == 200 and download.mimetype == "application/x-x509-ca-cert"
    assert "attachment" in download.headers["Content-Disposition"]
    assert x509.load_der_x509_certificate(download.data) == _load(folder.ca_cert)
    key = folder.ca_key.read_bytes()
    for path in ("/trust/ca-key.pem", "/trust/ca.pem/../ca-key.pem", "/static/../instance/tls/ca-key.pem"):
        answer = client.get(path)
        assert answer.status_code == 404 and key not in answer.data
    # plain-HTTP pages lead to it; over HTTPS it is not needed
    assert 'href="/trust"' in client.get("/").text
    assert 'href="/trust"' not in client.get("/", base_url="https://localhost").text


def test_the_trust_page_is_open_without_the_password(tmp_path):
    tls.ensure(tls.files(tmp_path), NAMES)
    client = _app(tmp_path, PASSWORD="secret", HTTPS_PORT=8443).test_client()
    assert client.get("/").status_code == 302  # the archive needs the password
    assert client.get("/trust").status_code == 200
    assert client.get("/trust/ca.crt").status_code == 200


def test_without_https_the_trust_page_says_how_to_start_it(tmp_path):
    client = _app(tmp_path).test_client()
    page = client.get("/trust")
    assert page.status_code == 200 and "bash scripts/start.sh --https" in page.text
    assert client.get("/trust/ca.crt").status_code == 404
    assert 'href="/trust"' not in client.get("/").text  # HTTPS not served: no link to it


def test_the_tls_server_speaks_https_with_the_certificate(tmp_path):
    folder = tls.files(tmp_path)
    tls.ensure(folder, NAMES)
    port = _free_port()
    server = https.https_server(_app(tmp_path, HTTPS_PORT=port), "127.0.0.1", port, 4, folder)
    server.prepare()
    threading.Thread(target=server.serve, daemon=True).start()
    try:
        trusted = ssl.create_default_context(cafile=str(folder.ca_cert))
        with urllib.request.urlopen(f"https://localhost:{port}/trust", context=trusted, timeout=20) as answer:
            page = answer.read().decode()
        assert answer.status == 200 and 'href="/trust"' not in page  # seen as HTTPS by the app
        with pytest.raises(urllib.error.URLError):  # a phone that has not trusted the authority
            urllib.request.urlopen(f"https://localhost:{port}/", context=ssl.create_default_context(), timeout=20)
    finally:
        server.stop()


@pytest.mark.slow  # slow: the production server started as a process
def test_start_with_https_serves_both_and_prints_where_to_trust(tmp_path):
    http_port, https_port = _free_port(), _free_port()
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)}
    command = [sys.executable, "-m", "scorekeeper", "--host", "127.0.0.1", "--port", str(http_port)]
    process = subprocess.Popen(
        [*command, "--threads", "2", "--https", "--https-port", str(https_port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        lines = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
            if "Ctrl+C" in line:
                break
        output = "".join(lines)
        assert f":{http_port}/trust" in output and "https://" in output, output
        folder = tls.files(tmp_path)
        assert folder.ca_key.stat().st_mode & 0o777 == 0o600
        trusted = ssl.create_default_context(cafile=str(folder.ca_cert))
        for _ in range(100):  # waitress may take a moment to listen after printing
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{http_port}/trust/ca.crt", timeout=20) as answer:
                    assert x509.load_der_x509_certificate(answer.read()) == _load(folder.ca_cert)
                break
            except urllib.error.URLError:
                time.sleep(0.1)
        with urllib.request.urlopen(f"https://localhost:{https_port}/", context=trusted, timeout=20) as answer:
            assert answer.status == 200
        # a second start makes no new authority: the phones keep trusting this one
        ca = _load(folder.ca_cert)
    finally:
        process.terminate()
        process.wait(timeout=20)
    assert tls.ensure(folder, ["localhost", "127.0.0.1"]).created_authority is False
    assert _load(folder.ca_cert) == ca
