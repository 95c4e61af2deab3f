"""Fast pages for phones: gzip for every text answer, and the score sheet rendered once per change.

The score sheet is the page every phone at the table shows and reloads; it only changes when the
archive does. Each write raises a generation number in the database (triggers, migration m009),
so a rendered sheet is kept per generation and per everything else that shapes it (language, text
size, read-only link, password state, address) and served again until the next change. The one
thing that differs per phone, the CSRF token, is left as a marker in the cached page and put in on
the way out; for gzip the page is kept compressed in pieces between the markers (each piece a
self-contained deflate run), so a phone's copy is assembled without compressing it again.
"""

from __future__ import annotations

import gzip
import secrets
import struct
import threading
import zlib
from collections import OrderedDict

from flask import Response, current_app, request, session
from flask_wtf.csrf import generate_csrf

from scorekeeper.storage import db as dbmod
from scorekeeper.storage import disk
from scorekeeper.web import access, staticfiles

MARKER = "csrf-" + secrets.token_hex(12)  # never in a page otherwise
COMPRESSIBLE = ("text/", "application/json", "application/javascript", "application/manifest+json", "image/svg+xml")
MIN_SIZE = 600
_GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
_END = b"\x03\x00"  # an empty final deflate block


def _deflate_piece(data: bytes) -> bytes:
    """Raw deflate of ``data``, flushed so the next piece can follow it without reference to it."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_FULL_FLUSH)


class _Entry:
    """A rendered page split at the CSRF markers, plain and deflated piece by piece."""

    def __init__(self, html: str) -> None:
        self.pieces = [piece.encode() for piece in html.split(MARKER)]
        self.deflated = [_deflate_piece(piece) for piece in self.pieces]

    def body(self, token: bytes, gzipped: bool) -> bytes:
        if not gzipped:
            return token.join(self.pieces)
        deflated_token = _deflate_piece(token) if len(self.pieces) > 1 else b""
        plain = token.join(self.pieces)
        trailer = struct.pack("<II", zlib.crc32(plain) & 0xFFFFFFFF, len(plain) & 0xFFFFFFFF)
        return _GZIP_HEADER + deflated_token.join(self.deflated) + _END + trailer


RENDER_WAIT = 10.0  # seconds a request waits for another thread's rendering of its page, then renders its own


class PageCache:
    """The most recently rendered pages, by key (a small LRU shared by the server's threads)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.entries: OrderedDict[tuple, _Entry] = OrderedDict()
        self.lock = threading.Lock()
        self.rendering: dict[tuple, threading.Event] = {}  # a page being rendered, by key: set when kept

    def get_or_render(self, key: tuple, render) -> _Entry:
        """The page for ``key``, rendered by ``render()`` once however many ask at the same moment: after
        a saved hand every phone at the table loads the score sheet again at once, and each would
        render it (a few milliseconds each). The others wait for the one rendering and take its page;
        should it fail or take more than RENDER_WAIT seconds, each renders its own."""
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None:
                self.entries.move_to_end(key)
                return entry
            rendered = self.rendering.get(key)
            mine = rendered is None
            if mine:
                rendered = self.rendering[key] = threading.Event()
        if not mine:
            rendered.wait(RENDER_WAIT)
            return self.get(key) or _Entry(render())
        try:
            entry = _Entry(render())
            self.put(key, entry)
            return entry
        finally:
            with self.lock:
                self.rendering.pop(key, None)
            rendered.set()

    def get(self, key: tuple) -> _Entry | None:
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None:
                self.entries.move_to_end(key)
            return entry

    def put(self, key: tuple, entry: _Entry) -> None:
        with self.lock:
            self.entries[key] = entry
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)


def _accepts_gzip() -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def cached_page(key: tuple, render) -> Response:
    """The page for ``key`` from the cache, or rendered by ``render(csrf_token)`` and kept.
    A phone with a message waiting (a flash) always gets a fresh page."""

    if "_flashes" in session or current_app.config.get("PAGE_CACHE") is False:
        return Response(render(generate_csrf), mimetype="text/html")
    cache: PageCache = current_app.extensions.setdefault("scorekeeper_pages", PageCache())
    full_key = (*key, request.full_path, request.host_url, request.cookies.get("large"))
    entry = cache.get_or_render(full_key, lambda: render(lambda: MARKER))
    gzipped = _accepts_gzip()
    response = Response(entry.body(generate_csrf().encode(), gzipped), mimetype="text/html")
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding, Cookie"
    response.headers[FastPages.MARK] = "1"
    return response


def compress(response: Response) -> Response:
    """After each request: gzip a text answer of some size when the phone accepts it; the app's own
    files as staticfiles.py sends them (slimmed, and compressed once per version of the file)."""
    if request.endpoint == "appfiles.hand_script":  # made and compressed by staticfiles.py
        return staticfiles.without_page_headers(response)
    if response.status_code != 200 or "Content-Encoding" in response.headers:
        return response
    gzipped = _accepts_gzip() and (response.mimetype or "").startswith(COMPRESSIBLE)
    if request.endpoint == "static":
        return staticfiles.finish(response, gzipped)
    if not gzipped or request.method == "HEAD" or response.direct_passthrough or response.is_streamed:
        return response
    body = response.get_data()
    if len(body) < MIN_SIZE:
        return response
    response.set_data(gzip.compress(body, 6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    vary = response.headers.get("Vary")
    response.headers["Vary"] = f"{vary}, Accept-Encoding" if vary else "Accept-Encoding"
    return response


class FastPages:
    """WSGI middleware: a page answered before (same address, same cookies, same language and
    encoding asked, same generation of the archive) is sent again without entering Flask.

    Only answers the app marks as cacheable (the score sheet) are kept, and only when they set no
    cookie: the phone presenting the same cookies is the phone that got the page, with its own
    CSRF token in it. Any change to the archive raises the generation and so misses the cache."""

    MARK = "X-Page-Cache"

    def __init__(self, wsgi_app, flask_app, size: int = 256) -> None:
        self.wsgi_app, self.flask_app = wsgi_app, flask_app
        self.cache = PageCache(size)

    def _generation(self) -> int | None:

        path = self.flask_app.config["DATABASE"]
        if path == ":memory:" or path not in self.flask_app.extensions.get("scorekeeper_migrated", ()):
            return None
        try:
            return dbmod.peek_generation(self.flask_app)
        except disk.Unavailable:
            return None  # the app answers (a 503 that says why)

    def _without_mark(self, start_response):
        """``start_response`` that leaves out the internal X-Page-Cache header (HEAD, other pages)."""

        def strip(status, headers, exc_info=None):
            return start_response(status, [(k, v) for k, v in headers if k.lower() != self.MARK.lower()], exc_info)

        return strip

    def _answered(self, environ, start_response, captured: dict) -> list[bytes]:
        """The app's whole answer (its status and headers put into ``captured``), sent on without the
        internal header."""

        def capture(status, headers, exc_info=None):
            captured["status"], captured["headers"] = status, headers
            return start_response(status, [(k, v) for k, v in headers if k.lower() != self.MARK.lower()], exc_info)

        # start_response is called by the app on the first body chunk at the latest
        chunks = []
        result = self.wsgi_app(environ, capture)
        try:
            for chunk in result:
                chunks.append(chunk)
        finally:
            if hasattr(result, "close"):
                result.close()
        return chunks

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") != "GET" or not environ.get("PATH_INFO", "").startswith(("/games/", "/view/")):
            return self.wsgi_app(environ, self._without_mark(start_response))
        generation = self._generation()
        if generation is None:
            return self.wsgi_app(environ, self._without_mark(start_response))
        key = (
            generation,
            environ.get("PATH_INFO"),
            environ.get("QUERY_STRING"),
            environ.get("HTTP_COOKIE"),
            environ.get("HTTP_ACCEPT_LANGUAGE"),
            environ.get("HTTP_ACCEPT_ENCODING"),
            environ.get("HTTP_HOST"),
            environ.get("wsgi.url_scheme"),
            access.current(self.flask_app),  # a new password: no page kept for an old cookie is served
        )
        hit = self.cache.get(key)
        if hit is not None:
            status, headers, body = hit
            start_response(status, headers)
            return [body]
        captured: dict = {}
        chunks = self._answered(environ, start_response, captured)
        headers = captured.get("headers", [])
        names = {k.lower() for k, _ in headers}
        if captured.get("status", "").startswith("200") and self.MARK.lower() in names and "set-cookie" not in names:
            kept = [(k, v) for k, v in headers if k.lower() != self.MARK.lower()]
            self.cache.put(key, (captured["status"], kept, b"".join(chunks)))
        return chunks
