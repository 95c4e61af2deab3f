"""Plain HTTP: a request the app refuses from its head alone is answered before its body is read.

waitress reads a request's whole body (to memory, or to a temporary file beyond 512 KB) before it
calls the app, so a locked phone could still make the server take 32 MB for the import before the
app sent it to the password page. Here the head is shown to the app's own checks as soon as it has
arrived (``limits.head_checks``: a body over the route's limit, a locked phone, a change without the
session's form token). When one of them would answer, the request goes to the app with no body (the
app answers exactly as it would have, in its own language: it never reads the body on that path),
the rest of what the client sends is dropped unread, and the connection closes after the answer.

A request the checks let through goes to the app with the session its head check decoded
(``access.HEAD_SESSION`` in its environ, when the cookie is the same): the app does not check the
cookie's signature and decode it a second time.

A body that came whole with its head (a hand's form, a few hundred bytes in the same packet) has
nothing left to spare: its head is not checked apart, and the app's own checks decide, as they
would anyway. When one of them answers (``limits.answers_from_head`` tells the server, through
``limits.HEAD_REFUSED`` in the environ), the connection closes after the answer and whatever the
client sent after that request is dropped, exactly as when the head check answers before the body.

The HTTPS server (cheroot, server/https.py) calls the app before reading the body anyway.
"""

from __future__ import annotations

import functools
import io
import logging
from urllib.parse import unquote_to_bytes

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.task import WSGITask
from waitress.utilities import RequestEntityTooLarge
from werkzeug.exceptions import HTTPException

from scorekeeper.web import access, limits

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


def check_head(app, environ: dict) -> tuple[bool, tuple | None]:
    """Whether the app answers this request without reading its body (one of its head checks
    answers); and when it does not, the session the checks decoded, for the app's request
    (``access.SchemeSessions.head_handover``), or None."""
    environ = dict(environ, **{"wsgi.input": io.BytesIO(), "wsgi.errors": io.StringIO()})
    try:
        with app.request_context(environ) as context:
            request = context.request
            for name in (None, *reversed(request.blueprints)):  # as Flask.preprocess_request, first
                for preprocess in app.url_value_preprocessors.get(name, ()):
                    preprocess(request.endpoint, request.view_args)  # e.g. the import's larger limit
            for check in limits.head_checks(app):
                if check() is not None:
                    return True, None
            interface = app.session_interface
            handover = getattr(interface, "head_handover", None)
            return False, (handover(app, request, context.session) if handover is not None else None)
    except HTTPException:  # 413, a foreign host name, a missing form token: answered from the head
        return True, None
    except Exception:  # anything else is the app's to answer, with the body, as before
        log.exception("The head check failed; the body is read as usual")
    return False, None


class HeadFirstParser(HTTPRequestParser):
    """waitress's parser, which asks the app about the head before it receives a body."""

    def __init__(self, adj, channel: HTTPChannel):
        super().__init__(adj)
        self.channel = channel
        self.unread = False  # answered from the head: the body was dropped
        self.head_session = None  # the session the head check decoded, for the app (HeadFirstTask)
        self.checked_by_app = False  # the body came with the head: the app's checks decide (HeadFirstTask)

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
        if self._body_came_with_head(data, consumed):  # nothing to spare either: the app's checks decide
            self.checked_by_app = True
            return consumed
        app = self.channel.server.flask_app
        refused, self.head_session = check_head(app, head_environ(self, self.channel))
        if not refused:
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

    def _body_came_with_head(self, data, consumed: int) -> bool:
        """Whether all of the body announced by Content-Length is in ``data`` after the head (a
        chunked body, or one the client waits to send, "100 Continue", is checked from its head)."""
        if self.error is not None or self.chunked or self.expect_continue or self.body_rcv is None:
            return False
        return 0 < self.content_length <= len(data) - consumed

    def refused_by_app(self) -> None:
        """One of the app's head checks answered this request, whose body came with its head: close
        after the answer, and take nothing more the client sent for a request (as ``received`` does
        when the head check answers). Called on the request's thread, before the answer's head is made."""
        self.headers["CONNECTION"] = "close"
        self.channel.dropping = True


class HeadFirstTask(WSGITask):
    """waitress's call of the app, with the session the head check decoded in the environ, or, for a
    body that came with its head, how the app tells that one of its head checks answered."""

    def get_environment(self):
        fresh = self.environ is None
        environ = super().get_environment()
        if fresh:
            handed = getattr(self.request, "head_session", None)
            if handed is not None:
                environ[access.HEAD_SESSION] = handed
            if getattr(self.request, "checked_by_app", False):
                environ[limits.HEAD_REFUSED] = self.request.refused_by_app
        return environ


class HeadFirstChannel(HTTPChannel):
    """A waitress connection whose requests are checked from their heads (``HeadFirstParser``)."""

    task_class = HeadFirstTask

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
