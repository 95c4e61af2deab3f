"""The HTTPS server: cheroot (CherryPy's pure-Python, thread-pool WSGI server, with TLS from
Python's own ``ssl`` module) with this installation's server certificate (``network.tls``).
Plain HTTP stays on waitress, which does not speak TLS.
"""

from __future__ import annotations

import _pyio
import select
import ssl
import time

from cheroot import makefile, server, wsgi
from cheroot.ssl.builtin import BuiltinSSLAdapter

from scorekeeper.network.tls import Files


class _Gateway(wsgi.Gateway_10):
    """cheroot's WSGI gateway, except that an answer given before the request's body was read (a
    locked phone, a change without its form token, limits.py) closes the connection instead of
    reading the rest of the body first, as cheroot would to keep the connection open."""

    def start_response(self, status, headers, exc_info=None):
        if getattr(self.req.rfile, "remaining", 0) > 0:
            self.req.close_connection = True
        return super().start_response(status, headers, exc_info)


# Slow or silent connections (docs/performance.md). cheroot accepts a connection in one thread and
# hands it to a worker (one of ``--threads``) when its socket becomes readable; the worker then reads
# the request line and headers blocking, and cheroot does the TLS handshake blocking in the accept
# thread. So one socket that never sends a ClientHello stalled every HTTPS accept for ``timeout``,
# and a few sockets dripping their headers a byte a second held every worker. Here the accept thread
# only wraps the socket; the handshake and the request head are read by a worker without blocking,
# as far as the bytes that have arrived go, and the connection goes back to cheroot's selector to
# wait for more: a silent or slow connection holds no thread, only its socket.
HANDSHAKE_SECONDS = 5.0  # a TLS handshake not done this long after its first byte is dropped
HEAD_SECONDS = 10.0  # a request line and headers not complete this long after their first byte: dropped
IDLE_SECONDS = 10.0  # cheroot's ``timeout``: a connection silent this long is closed (and a read's limit)
HEAD_MAX = 64 * 1024  # a longer head goes to cheroot's own parser, which refuses it


class _SSLAdapter(BuiltinSSLAdapter):
    """Python's ``ssl`` as cheroot's builtin adapter, but the accept thread only wraps the socket:
    the handshake is left to the connection (``_Connection``), in a worker."""

    def wrap(self, sock):
        return self.context.wrap_socket(sock, do_handshake_on_connect=False, server_side=True), {}


class _Raw(_pyio.RawIOBase):
    """A socket's bytes for the connection's reader: first those already taken off the socket while
    waiting for a whole request head (``pending``), then the socket's own."""

    def __init__(self, sock) -> None:
        self.sock = sock
        self.pending = bytearray()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.pending:
            count = min(len(buffer), len(self.pending))
            buffer[:count] = self.pending[:count]
            del self.pending[:count]
            return count
        return self.sock.recv_into(buffer)


def _whole_head(data) -> bool:
    return b"\r\n\r\n" in data or b"\n\n" in data


class _Reader(makefile.StreamReader):
    """cheroot's socket reader over ``_Raw``."""

    def __init__(self, raw: _Raw, bufsize: int) -> None:
        _pyio.BufferedReader.__init__(self, raw, bufsize)
        self.bytes_read = 0

    def has_data(self) -> bool:
        """Whether a request can be read without waiting for the socket (cheroot hands the connection
        to a worker at once then, instead of waiting for the socket to become readable)."""
        return super().has_data() or _whole_head(self.raw.pending)

    def unread(self) -> None:
        """Move what the reader holds back to ``pending``, ahead of the rest."""
        held = self._read_buf[self._read_pos :]
        self._read_buf, self._read_pos = b"", 0
        self.raw.pending[:0] = held


WAIT, CLOSE, READY = "wait", "close", "ready"


class _Connection(server.HTTPConnection):
    """cheroot's connection, with the TLS handshake and the wait for a whole request head done in
    steps, never blocking a worker on a client that is slow or silent."""

    def __init__(self, srv, sock, makefile=makefile.MakeFile) -> None:
        super().__init__(srv, sock, makefile)
        self.rfile.close()  # cheroot's reader: replaced (closing it releases its hold on the socket)
        self.rfile = _Reader(_Raw(sock), self.rbufsize)
        self.handshaken = not isinstance(sock, ssl.SSLSocket)
        self.started: float | None = None  # when this handshake or request head began arriving

    def communicate(self):
        if self.started is None:
            self.started = time.monotonic()
        step = READY if self.handshaken else self._handshake()
        if step == READY:
            step = self._head()
        if step == WAIT:
            return True  # back to cheroot's selector, until more bytes arrive (or IDLE_SECONDS pass)
        self.started = None
        if step == CLOSE:
            return False
        return super().communicate()

    def _handshake(self) -> str:
        sock = self.socket
        deadline = self.started + HANDSHAKE_SECONDS
        sock.setblocking(False)
        try:
            while True:
                try:
                    sock.do_handshake()
                    break
                except ssl.SSLWantReadError:
                    return WAIT if time.monotonic() < deadline else CLOSE
                except ssl.SSLWantWriteError:  # the server's half did not fit the send buffer
                    left = deadline - time.monotonic()
                    if left <= 0 or not select.select([], [sock], [], min(left, 1.0))[1]:
                        return CLOSE
        except (ssl.SSLError, OSError):  # not TLS, a certificate refused, the peer gone
            return CLOSE
        finally:
            if sock.fileno() != -1:
                sock.settimeout(self.server.timeout)
        self.handshaken = True
        self.ssl_env = self.server.ssl_adapter.get_environ(sock)
        self.started = time.monotonic()  # the request head's time starts now
        return READY

    def _head(self) -> str:
        """Take what has arrived of the request head off the socket, without waiting: READY once it
        is whole (or the peer has closed, or it is too long: cheroot answers that), WAIT for more."""
        raw = self.rfile.raw
        self.rfile.unread()
        sock = self.socket
        sock.setblocking(False)
        try:
            while not _whole_head(raw.pending) and len(raw.pending) <= HEAD_MAX:
                chunk = sock.recv(65536)
                if not chunk:
                    return READY if raw.pending else CLOSE  # the peer closed
                raw.pending += chunk
        except (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
            pass
        except OSError:
            return CLOSE
        finally:
            if sock.fileno() != -1:
                sock.settimeout(self.server.timeout)
        if _whole_head(raw.pending) or len(raw.pending) > HEAD_MAX:
            return READY
        return WAIT if time.monotonic() < self.started + HEAD_SECONDS else CLOSE


def https_server(app, host: str, port: int, threads: int, ready: Files):
    """A cheroot WSGI server for ``app`` on ``host:port`` that speaks TLS with the server certificate.
    cheroot calls the app before it reads a body, so the app's own checks refuse from the head (a
    body over the route's limit from its Content-Length: 413 with the app's page; a locked phone; a
    change without the form token) and the body is never read; a chunked body is cut off by the
    app's limit as it is read. cheroot's own limit is therefore left off (it answered over-limit
    bodies in English plain text). A slow or silent connection holds no thread (``_Connection``)."""
    server = wsgi.Server((host, port), app, numthreads=threads, server_name="scorekeeper", timeout=int(IDLE_SECONDS))
    server.max_request_body_size = 0  # the app's limits, from the head (above)
    server.gateway = _Gateway
    server.ConnectionClass = _Connection
    server.ssl_adapter = _SSLAdapter(str(ready.cert), str(ready.key))
    return server
