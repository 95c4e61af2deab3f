"""Large bodies before any check (issue 17): against the real servers, with real HTTP.

- a form is limited in bytes and in fields, urlencoded as well as multipart: 413 with a page;
- a request that may not write (a locked phone, a change without the session's form token) is
  refused before its body is read: the HTTPS server (cheroot) answers without the body being sent;
- both servers refuse a body over the app's largest limit from its Content-Length, unread;
- the largest import the limit lets in keeps the production server under 300 MB (slow).
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from scorekeeper import archive, create_app, limits, tls
from tests.helpers import served

ROOT = Path(__file__).resolve().parent.parent
ANSWER_WITHIN = 3.0  # seconds: a refusal that waits for the body would wait for ever (the test's timeout)


def _app(tmp_path, **config):
    return create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "limits.sqlite"), **config})


def _form_token(port, path="/evenings/new", wrap=None):
    """A form token and the session cookie that goes with it, as a browser gets them."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request("GET", path)
    response = connection.getresponse()
    page = response.read().decode()
    cookie = response.getheader("Set-Cookie").split(";", 1)[0]
    connection.close()
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1), cookie


def _post(port, path, body, cookie=None, content_type="application/x-www-form-urlencoded"):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    headers = {"Content-Type": content_type}
    if cookie:
        headers["Cookie"] = cookie
    connection.request("POST", path, body=body, headers=headers)
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, text


def _headers_only(
    sock: socket.socket, path: str, length: int, host: str, cookie: str | None = None
) -> tuple[int, float]:
    """Send a POST's headers announcing ``length`` bytes and none of the body; the status of the
    answer and the seconds it took (a server that waits for the body never answers: timeout)."""
    lines = [
        f"POST {path} HTTP/1.1",
        f"Host: {host}",
        "Content-Type: application/x-www-form-urlencoded",
        f"Content-Length: {length}",
    ]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    started = time.monotonic()
    sock.settimeout(ANSWER_WITHIN)
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    try:
        first = sock.recv(4096)
    except (TimeoutError, socket.timeout):
        return 0, time.monotonic() - started  # no answer while the body was still owed
    return int(first.split(b" ", 2)[1]), time.monotonic() - started


# --- forms: bytes and fields ------------------------------------------------------------------


def test_a_form_of_thousands_of_fields_is_refused_with_413(tmp_path):
    with served(_app(tmp_path)) as port:
        token, cookie = _form_token(port)
        body = f"csrf_token={token}&date=2026-11-01&" + "x=&" * 5000  # 15 KB, 5000 fields
        status, page = _post(port, "/evenings/new", body, cookie)
        assert status == 413 and "far too large" in page
        # the same in multipart: Werkzeug counts the parts
        boundary = "b0undary"
        parts = "".join(f'--{boundary}\r\nContent-Disposition: form-data; name="x"\r\n\r\n\r\n' for _ in range(2000))
        status, _ = _post(
            port, "/evenings/new", parts + f"--{boundary}--\r\n", cookie, f"multipart/form-data; boundary={boundary}"
        )
        assert status == 413
        # an ordinary form still goes through
        status, _ = _post(port, "/evenings/new", f"csrf_token={token}&date=2026-11-01&new_players=Anna", cookie)
        assert status == 302


def test_a_form_larger_than_its_limit_is_refused_with_413(tmp_path):
    with served(_app(tmp_path)) as port:
        token, cookie = _form_token(port)
        body = f"csrf_token={token}&date=2026-11-01&place=" + "x" * (limits.FORM_MAX_BYTES + 1)
        status, page = _post(port, "/evenings/new", body, cookie)
        assert status == 413 and "far too large" in page


# --- refused before the body is read ----------------------------------------------------------


@pytest.fixture
def https(tmp_path):
    """An HTTPS server (cheroot, as ``--https`` starts it) for an app made by the test; yields
    (start(app) -> port, a TLS socket maker)."""
    folder = tls.files(tmp_path)
    tls.ensure(folder, ["localhost", "127.0.0.1"])
    servers = []

    def start(app):
        port = _port()
        server = tls.https_server(app, "127.0.0.1", port, 4, folder)
        server.prepare()
        threading.Thread(target=server.serve, daemon=True).start()
        servers.append(server)
        return port

    def connect(port):
        context = ssl.create_default_context(cafile=str(folder.ca_cert))
        return context.wrap_socket(
            socket.create_connection(("127.0.0.1", port), timeout=10), server_hostname="localhost"
        )

    yield start, connect, folder
    for server in servers:
        server.stop()


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _https_cookie(port, folder, path="/login"):
    context = ssl.create_default_context(cafile=str(folder.ca_cert))
    with urllib.request.urlopen(f"https://localhost:{port}{path}", context=context, timeout=10) as answer:
        return answer.headers["Set-Cookie"].split(";", 1)[0]


def test_a_locked_phone_is_refused_before_its_body_is_read(tmp_path, https):
    start, connect, folder = https
    port = start(_app(tmp_path, PASSWORD="pik dame"))
    cookie = _https_cookie(port, folder)  # a session with a form token, but not unlocked
    with connect(port) as sock:
        status, seconds = _headers_only(sock, "/evenings/new", 500_000, f"localhost:{port}", cookie)
    assert status == 401 and seconds < ANSWER_WITHIN, (status, seconds)


def test_a_change_without_the_form_cookie_is_refused_before_its_body_is_read(tmp_path, https):
    start, connect, _ = https
    port = start(_app(tmp_path))
    with connect(port) as sock:
        status, seconds = _headers_only(sock, "/evenings/new", 500_000, f"localhost:{port}")
    assert status == 400 and seconds < ANSWER_WITHIN, (status, seconds)


def test_both_servers_refuse_a_body_over_the_apps_largest_unread(tmp_path, https):
    app = _app(tmp_path)
    assert limits.largest_body(app) == archive.IMPORT_MAX_BYTES
    too_large = archive.IMPORT_MAX_BYTES + 1
    start, connect, _ = https
    port = start(app)
    with connect(port) as sock:
        status, seconds = _headers_only(sock, "/import", too_large, f"localhost:{port}")
    assert status == 413 and seconds < ANSWER_WITHIN, ("https", status, seconds)
    with served(app) as port, socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        status, seconds = _headers_only(sock, "/import", too_large, f"127.0.0.1:{port}")
    assert status == 413 and seconds < ANSWER_WITHIN, ("http", status, seconds)
    # exactly the largest is still read (and then refused by the app for want of a form token)
    with served(app) as port, socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        status, _ = _headers_only(sock, "/import", archive.IMPORT_MAX_BYTES, f"127.0.0.1:{port}")
    assert status == 0  # waitress waits for the body: within its limit


# --- the largest import, on the production server -----------------------------------------------


def _multipart(token: str, payload: bytes, boundary: str = "imp0rtb0undary") -> tuple[bytes, str]:
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{token}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="export.json"\r\n'
        "Content-Type: application/json\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    return head + payload + tail, f"multipart/form-data; boundary={boundary}"


# The largest body let in: one byte under the limit (Werkzeug refuses a body that reaches its limit
# when the server, as waitress does, marks the input as terminated).
LARGEST = archive.IMPORT_MAX_BYTES - 1


def _largest(token: str, payload: bytes) -> tuple[bytes, str]:
    """A multipart body of the largest size let in: ``payload`` padded with spaces."""
    empty, _ = _multipart(token, b"")
    body, kind = _multipart(token, payload + b" " * (LARGEST - len(empty) - len(payload)))
    assert len(body) == LARGEST
    return body, kind


@pytest.mark.slow
def test_the_largest_import_keeps_the_server_under_300_mb(tmp_path):
    """`[],` repeated up to the limit (parsed, it took 859 MB before the item count), then the costliest
    shape the item count lets in (an object of unique keys), each posted to the production server;
    its peak memory (VmHWM, the kernel's high-water mark for the server's own memory) stays under 300 MB."""
    port = _port()
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)}
    command = [sys.executable, "-m", "scorekeeper", "--host", "127.0.0.1", "--port", str(port), "--threads", "2"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        token, cookie = _form_token(port, "/export")
        empty, _ = _multipart(token, b"")
        body, kind = _largest(token, b"[" + b"[]," * ((LARGEST - len(empty)) // 3 - 1) + b"0]")
        status, page = _post(port, "/import", body, cookie, kind)
        assert status == 413 and "too large to import here" in page, status
        del body
        # objects of one unique key each: about 80 bytes of memory per item, the costliest shape found
        keys = b"".join(b'{"%07x":0},' % i for i in range(archive.IMPORT_MAX_ITEMS // 3 - 10))
        body, kind = _largest(token, b"[" + keys + b"0]")
        del keys
        status, page = _post(port, "/import", body, cookie, kind)
        assert status == 422, status  # parsed, and refused as no export
        # over the limit: refused by waitress from the Content-Length, unread
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            status, seconds = _headers_only(sock, "/import", archive.IMPORT_MAX_BYTES + 1, f"127.0.0.1:{port}")
        assert status == 413 and seconds < ANSWER_WITHIN
        # the server's own peak since it started (the kernel's high-water mark of its memory after
        # exec; ru_maxrss would also count the copy of this test process it was forked from, which
        # is larger than the server after a whole test run)
        peak_kb = int(re.search(r"VmHWM:\s+(\d+) kB", Path(f"/proc/{server.pid}/status").read_text()).group(1))
    finally:
        server.send_signal(signal.SIGTERM)
        _, exit_status, _usage = os.wait4(server.pid, 0)
        server.returncode = os.waitstatus_to_exitcode(exit_status)
    peak_mb = peak_kb / 1024
    print(f"production server's peak memory over both imports: {peak_mb:.0f} MB")
    assert server.returncode == 0
    assert peak_mb < 300, f"{peak_mb:.0f} MB"
