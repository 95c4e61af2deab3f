"""Large bodies before any check: against the real servers, with real HTTP.

- a form is limited in bytes and in fields, urlencoded as well as multipart: 413 with a page;
- a request that may not write (a locked phone, a change without the session's form token, a body
  over the route's limit) is refused before its body is read: both servers answer, in the app's own
  words, without the body being sent;
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

from scorekeeper.network import tls
from scorekeeper.server.https import https_server
from scorekeeper.web import archive, limits
from tests.conftest import make_app
from tests.helpers import served

ROOT = Path(__file__).resolve().parent.parent
ANSWER_WITHIN = 3.0  # seconds: a refusal that waits for the body would wait for ever (the test's timeout)
WAITS_FOR_THE_BODY = 0.5  # seconds with no answer: the server waits for the body (a refusal takes ~0.01 s)


def _app(tmp_path, **config):
    return make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "limits.sqlite"), **config})


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
    sock: socket.socket,
    path: str,
    length: int,
    host: str,
    cookie: str | None = None,
    got: list | None = None,
    content_type: str = "application/x-www-form-urlencoded",
    within: float = ANSWER_WITHIN,
) -> tuple[int, float]:
    """Send a POST's headers announcing ``length`` bytes and none of the body; the status of the
    answer and the seconds it took (a server that waits for the body never answers: 0 after ``within``)."""
    lines = [
        f"POST {path} HTTP/1.1",
        f"Host: {host}",
        f"Content-Type: {content_type}",
        f"Content-Length: {length}",
    ]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    started = time.monotonic()
    sock.settimeout(within)
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    try:
        first = sock.recv(4096)
    except (TimeoutError, socket.timeout):
        return 0, time.monotonic() - started  # no answer while the body was still owed
    if got is not None:
        got.append(first)
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
        server = https_server(app, "127.0.0.1", port, 4, folder)
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
    for server in servers:  # stopped beside the next test (cheroot's stop waits out its half-second poll)
        threading.Thread(target=server.stop, daemon=True).start()


def _port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _https_cookie(port, folder, path="/login"):
    context = ssl.create_default_context(cafile=str(folder.ca_cert))
    with urllib.request.urlopen(f"https://localhost:{port}{path}", context=context, timeout=10) as answer:
        return answer.headers["Set-Cookie"].split(";", 1)[0]


@pytest.fixture(params=["http", "https"])
def server(request, https):
    """Each production server in turn: start(app) -> (port, connect(), host:port, cookie(path))."""
    start_https, connect_https, folder = https

    def start(app):
        if request.param == "https":
            port = start_https(app)
            return (
                port,
                lambda: connect_https(port),
                f"localhost:{port}",
                lambda path="/login": _https_cookie(port, folder, path),
            )
        served_app = served(app)
        port = served_app.__enter__()
        request.addfinalizer(lambda: served_app.__exit__(None, None, None))
        return (
            port,
            lambda: socket.create_connection(("127.0.0.1", port), timeout=10),
            f"127.0.0.1:{port}",
            lambda path="/login": _http_cookie(port, path),
        )

    return start


def _http_cookie(port, path="/login"):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as answer:
        return answer.headers["Set-Cookie"].split(";", 1)[0]


def _answer(sock, chunks: list | None = None) -> bytes:
    """The whole answer to a request sent without its body (the server closes after it), with the
    ``chunks`` already received."""
    sock.settimeout(ANSWER_WITHIN)
    chunks = list(chunks or [])
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except (TimeoutError, socket.timeout):
        pass
    return b"".join(chunks)


def test_a_locked_phone_is_refused_before_its_body_is_read(tmp_path, server):
    port, connect, host, cookie_for = server(_app(tmp_path, PASSWORD="pik dame"))
    cookie = cookie_for()  # a session with a form token, but not unlocked
    with connect() as sock:
        first = []
        status, seconds = _headers_only(sock, "/evenings/new", limits.FORM_MAX_BYTES, host, cookie, first)
        answer = _answer(sock, first)
    assert status == 401 and seconds < ANSWER_WITHIN, (status, seconds)
    assert b"Enter the password first" in answer  # the app's own page, not the server's
    with connect() as sock:  # the import (32 MB allowed) too: nothing goes to a temporary file
        status, seconds = _headers_only(sock, "/import", archive.IMPORT_MAX_BYTES - 1, host, cookie)
    assert status in (401, 413) and seconds < ANSWER_WITHIN, (status, seconds)  # a locked phone's limit is 1 MB


def test_a_change_without_the_form_cookie_is_refused_before_its_body_is_read(tmp_path, server):
    port, connect, host, _ = server(_app(tmp_path))
    with connect() as sock:
        status, seconds = _headers_only(sock, "/evenings/new", limits.FORM_MAX_BYTES, host)
    assert status == 400 and seconds < ANSWER_WITHIN, (status, seconds)


def test_a_body_over_the_routes_limit_is_refused_unread_with_the_apps_page(tmp_path, server):
    port, connect, host, cookie_for = server(_app(tmp_path))
    cookie = cookie_for("/evenings/new")  # a phone that may write
    with connect() as sock:  # 2 MB to a form that takes 1 MB
        first = []
        status, seconds = _headers_only(sock, "/evenings/new", 2 * limits.BODY_MAX_BYTES, host, cookie, first)
        answer = _answer(sock, first)
    assert status == 413 and seconds < ANSWER_WITHIN, (status, seconds)
    assert b"<html" in answer.lower() and b"Too large" in answer


def test_the_rest_of_a_refused_body_is_never_taken_for_a_request(tmp_path):
    """The dropped body may hold what looks like a request: it is not answered (no smuggling)."""
    app = _app(tmp_path)
    hidden = b"GET /games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with served(app) as port, socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        head = (
            f"POST /evenings/new HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(hidden)}\r\n\r\n"
        ).encode()
        sock.sendall(head + hidden)
        answer = _answer(sock)
    assert answer.count(b"HTTP/1.1 ") == 1 and answer.startswith(b"HTTP/1.1 400"), answer[:200]
    assert b"Connection: close" in answer


def _whole(sock, path: str, body: bytes, cookie: str | None = None, then: bytes = b"") -> None:
    """A POST's head and body in one write (as a browser sends a small form): one packet on loopback;
    ``then``: what the client sends after it in the same write (a next request)."""
    lines = [
        f"POST {path} HTTP/1.1",
        "Host: 127.0.0.1",
        "Content-Type: application/x-www-form-urlencoded",
        f"Content-Length: {len(body)}",
    ]
    if cookie:
        lines.append(f"Cookie: {cookie}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body + then)


def test_a_locked_phones_form_sent_whole_with_its_head_is_refused_and_the_connection_closed(tmp_path):
    """A body that came with its head is not checked apart: the app's own checks refuse it, and the
    server closes the connection after the answer as it does for a refusal from the head; what the
    client sent after it is never answered."""
    app = _app(tmp_path, PASSWORD="pik dame")
    with served(app) as port:
        token, cookie = _form_token(port, "/login")  # a session with a form token, but not unlocked
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            after = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n\r\n".encode()
            _whole(sock, "/evenings/new", f"csrf_token={token}&date=2026-11-28".encode(), cookie, after)
            answer = _answer(sock)
    assert answer.count(b"HTTP/1.1 ") == 1 and answer.startswith(b"HTTP/1.1 401"), answer[:200]
    assert b"Connection: close" in answer and b"Enter the password first" in answer


def test_a_form_sent_whole_with_its_head_is_saved_and_the_connection_kept(tmp_path):
    """A change the checks let through, its body with its head: stored, answered, and the connection
    stays open for the next request (only a refusal closes it)."""
    app = _app(tmp_path)
    with served(app) as port:
        token, cookie = _form_token(port)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            _whole(sock, "/evenings/new", f"csrf_token={token}&date=2026-11-28".encode(), cookie)
            first = _one_answer(sock)
            sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n\r\n".encode())
            second = _one_answer(sock)
    assert first.startswith(b"HTTP/1.1 302") and b"Connection: close" not in first, first[:300]
    assert second.startswith(b"HTTP/1.1 200"), second[:100]


def _one_answer(sock) -> bytes:
    """One answer's head and its body (by its Content-Length), from a connection kept open."""
    sock.settimeout(ANSWER_WITHIN)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"Content-Length: (\d+)", head, re.I).group(1))
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def test_both_servers_refuse_a_body_over_the_apps_largest_unread(tmp_path, server):
    app = _app(tmp_path)
    assert limits.largest_body(app) == archive.IMPORT_MAX_BYTES
    port, connect, host, cookie_for = server(app)
    with connect() as sock:
        first = []
        status, seconds = _headers_only(sock, "/import", archive.IMPORT_MAX_BYTES + 1, host, got=first)
        answer = _answer(sock, first)
    assert status == 413 and seconds < ANSWER_WITHIN, (status, seconds)
    assert b"Too large" in answer  # the app's page (in the phone's language), not the server's text
    # exactly the largest, from a phone that may write, is read: the server waits for the body
    cookie = cookie_for("/evenings/new")
    with connect() as sock:
        first = []
        status, _ = _headers_only(
            sock,
            "/import",
            archive.IMPORT_MAX_BYTES,
            host,
            cookie,
            first,
            "multipart/form-data; boundary=b",
            within=WAITS_FOR_THE_BODY,
        )
    assert status == 0, first
    # a urlencoded form over its own limit (256 KB) is refused from the head too
    with connect() as sock:
        status, seconds = _headers_only(sock, "/evenings/new", limits.FORM_MAX_BYTES + 1, host, cookie)
    assert status == 413 and seconds < ANSWER_WITHIN, (status, seconds)


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
