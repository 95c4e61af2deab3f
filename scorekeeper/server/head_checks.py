"""Plain HTTP: a request the app refuses from its head alone is answered before its body is read.

waitress reads a request's whole body (to memory, or to a temporary file beyond 512 KB) before it
calls the app, so a locked phone could still make the server take 32 MB for the import before the
app sent it to the password page. Here the head is shown to the app's own checks as soon as it has
arrived (``limits.head_checks``: a body over the route's limit, a locked phone, a change without the
session's form token). When one of them would answer, the request goes to the app with no body (the
app answers exactly as it would have, in its own language: it never reads the body on that path),
the rest of what the client sends is dropped unread, and the connection closes after the answer.

The HTTPS server (cheroot, server/https.py) calls the app before reading the body anyway.
"""

from __future__ import annotations

import functools
import io
import logging
from urllib.parse import unquote_to_bytes

import flask
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.utilities import RequestEntityTooLarge
from werkzeug.exceptions import HTTPException

from scorekeeper.web import limits

log = logging.getLogger(__name__)


def head_environ(parser: HTTPRequestParser, channel: HTTPChannel) -> dict:
    """A WSGI environ of the head alone (the body empty), as waitress would build it."""
    server = channel.server
    environ = {
        "REQUEST_METHOD": parser.command.upper(),
        "SCRIPT_NAME": "",
        "PATH_INFO": unquote_to_bytes(parser.path).decode("latin-1"),
        "QUERY_STRING": parser.query,
        "SERVER_NAME": server.server_name,
        "SERVER_PORT": str(server.effective_port),
        "SERVER_PROTOCOL": "HTTP/" + parser.version,
        "REMOTE_ADDR": channel.addr[0] if isinstance(channel.addr, tuple) else "",
        "wsgi.url_scheme": parser.url_scheme or "http",
        "wsgi.input": None,
        "wsgi.errors": None,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    for key, value in parser.headers.items():
        if key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            environ[key] = value
        else:
            environ["HTTP_" + key] = value
    return environ


def refused_from_head(app, environ: dict) -> bool:
    """Whether the app answers this request without reading its body (one of its head checks answers)."""
    environ = dict(environ, **{"wsgi.input": io.BytesIO(), "wsgi.errors": io.StringIO()})
    try:
        with app.request_context(environ):
            request = flask.request
            for name in (None, *reversed(request.blueprints)):  # as Flask.preprocess_request, first
                for preprocess in app.url_value_preprocessors.get(name, ()):
                    preprocess(request.endpoint, request.view_args)  # e.g. the import's larger limit
            for check in limits.head_checks(app):
                if check() is not None:
                    return True
    except HTTPException:  # 413, a foreign host name, a missing form token: answered from the head
        return True
    except Exception:  # anything else is the app's to answer, with the body, as before
        log.exception("The head check failed; the body is read as usual")
    return False


class HeadFirstParser(HTTPRequestParser):
    """waitress's parser, which asks the app about the head before it receives a body."""

    def __init__(self, adj, channel: HTTPChannel):
        super().__init__(adj)
        self.channel = channel
        self.unread = False  # answered from the head: the body was dropped

    def received(self, data):
        was_in_head = self.body_rcv is None and not self.headers_finished
        consumed = super().received(data)
        if not (was_in_head and self.headers_finished) or self.empty:
            return consumed
        too_large = isinstance(self.error, RequestEntityTooLarge)  # waitress's own limit, from Content-Length
        if self.error is not None and not too_large:
            return consumed
        if self.completed and not too_large:  # no body: nothing to spare
            return consumed
        app = self.channel.server.flask_app
        if not refused_from_head(app, head_environ(self, self.channel)):
            return consumed
        # the app answers from the head: give it no body, drop the rest, close after the answer
        self.error = None
        self.body_rcv = None
        self.completed = True
        self.unread = True
        self.expect_continue = False  # no "100 Continue": the body is not wanted
        self.headers["CONNECTION"] = "close"
        self.channel.dropping = True  # now, before a thread can take the request: the rest is no request
        return len(data)


class HeadFirstChannel(HTTPChannel):
    """A waitress connection whose requests are checked from their heads (``HeadFirstParser``)."""

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        self.parser_class = functools.partial(HeadFirstParser, channel=self)
        self.dropping = False

    def received(self, data):
        if self.dropping:  # a body the app did not want: read and forgotten until the answer is out
            return True
        return super().received(data)


def use_on(server, app) -> None:
    """Serve the connections of a waitress server (one socket or several) with ``HeadFirstChannel``,
    whose requests' heads go to ``app``'s checks."""
    listeners = [server] if hasattr(server, "channel_class") else list(server.map.values())
    for listener in listeners:
        if hasattr(listener, "channel_class"):
            listener.channel_class = HeadFirstChannel
            listener.flask_app = app
