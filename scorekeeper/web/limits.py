"""How much a request may send, and what is refused before its body is read.

- Any request: at most ``BODY_MAX_BYTES`` (``MAX_CONTENT_LENGTH``); the archive import alone takes
  more (``archive.IMPORT_MAX_BYTES``), and only from a phone that may write.
- A form (``application/x-www-form-urlencoded`` or ``multipart/form-data``): its text at most
  ``FORM_MAX_BYTES`` (``MAX_FORM_MEMORY_SIZE``; Werkzeug applies it to multipart text parts only,
  ``FormParser`` to a urlencoded body as a whole) in at most ``FORM_MAX_FIELDS`` fields
  (``MAX_FORM_PARTS``; Werkzeug counts multipart parts only, ``FormParser`` counts urlencoded ones).
- The production servers refuse a larger body themselves, from its Content-Length, before reading
  it: waitress (plain HTTP) and cheroot (HTTPS) are given the largest body the app takes.

Before any form is read (the CSRF check reads it): a body larger than the limit is answered 413
from its Content-Length, a locked phone is sent to the password (``access.guard``), and a change
sent without the form token's cookie half is refused (it could never pass the CSRF check). Under
cheroot these answers go out without the body being read at all; waitress receives a body (within
its limit, to a temporary file beyond 512 KB) before it calls the app, which then does not parse it.
"""

from __future__ import annotations

import functools
from urllib.parse import parse_qsl

from flask import abort, current_app, has_request_context, request, session
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.formparser import FormDataParser

from scorekeeper.network import addresses
from scorekeeper.web import archive

BODY_MAX_BYTES = 1024 * 1024  # any request but the import: a hand's form or JSON is about 2 KB
FORM_MAX_BYTES = 256 * 1024  # a form's text: a 6-player hand counted by cards is under 10 KB
FORM_MAX_FIELDS = 1000  # a form's fields: that hand has about 200


class FormParser(FormDataParser):
    """Werkzeug's form parser, with the byte and field limits applied to urlencoded bodies too (an
    8 MB body of 4 million fields took seconds and hundreds of megabytes to parse)."""

    def _parse_urlencoded(self, stream, mimetype, content_length, options):
        limit = self.max_form_memory_size
        if limit is not None and content_length is not None and content_length > limit:
            abort(413)
        body = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(body) > limit:
            abort(413)
        if self.max_form_parts is not None and body.count(b"&") >= self.max_form_parts:
            abort(413)
        items = parse_qsl(body.decode(), keep_blank_values=True, errors="werkzeug.url_quote")
        return stream, self.cls(items), self.cls()


class Request(addresses.Request):
    """The app's request: trusted hosts as ``addresses.Request`` has them, forms parsed within the limits."""

    form_data_parser_class = FormParser


def largest_body(app) -> int:
    """The largest body the app takes on any route (the import's): what the servers are told."""
    return max(int(app.config.get("MAX_CONTENT_LENGTH") or 0), archive.IMPORT_MAX_BYTES)


def waitress_options(app) -> dict:
    """waitress's own body limit, the app's largest (waitress refuses ``>=`` its figure)."""
    return {"max_request_body_size": largest_body(app) + 1}


def refuse_large_body():
    """Before anything reads the body: a Content-Length above this route's limit, or a urlencoded
    form's above the form limit, is answered 413 at once (Werkzeug would only refuse it when the
    form is first read, and waitress would have received the body by then)."""
    length = request.content_length
    if length is None:  # no body announced: nothing to refuse from it
        return
    limit = request.max_content_length
    if limit is not None and length > limit:
        abort(413)
    form_limit = request.max_form_memory_size  # a urlencoded form is text as a whole (FormParser)
    if form_limit is not None and length > form_limit and request.mimetype == "application/x-www-form-urlencoded":
        abort(413)


HEAD_CHECKS = "canasta.head_checks"
# The environ's: what the plain-HTTP server gives a request whose body came with its head (so that
# its head was not checked apart), to be called when one of the head checks answers it.
HEAD_REFUSED = "scorekeeper.head_refused"


def head_checks(app) -> tuple:
    """The app's checks that answer from a request's head alone, in the order they run (the
    plain-HTTP server asks them before it receives a body: head_checks.py)."""
    return app.extensions.get(HEAD_CHECKS, ())


def _answered_from_head() -> None:
    if has_request_context():
        refused = request.environ.get(HEAD_REFUSED)
        if refused is not None:
            refused()


def answers_from_head(check):
    """``check`` (a head check, or a URL value preprocessor: the server's head check runs those
    first), telling the server when it answers (returns an answer, or raises one such as 413): what
    the server's head check counts as answered from the head."""

    @functools.wraps(check)
    def run(*args):
        try:
            answer = check(*args)
        except HTTPException:
            _answered_from_head()
            raise
        if answer is not None:
            _answered_from_head()
        return answer

    return run


def tell_head_answers(app) -> None:
    """Once every blueprint is registered: the head checks and the URL value preprocessors, where the
    app runs them, tell the server when they answer (``answers_from_head``)."""
    wrapped = {check: answers_from_head(check) for check in head_checks(app)}
    app.extensions[HEAD_CHECKS] = tuple(wrapped.values())
    for name, functions in app.before_request_funcs.items():
        app.before_request_funcs[name] = [wrapped.get(f, f) for f in functions]
    for name, functions in app.url_value_preprocessors.items():
        app.url_value_preprocessors[name] = [answers_from_head(f) for f in functions]


def refuse_without_csrf_session():
    """Before the CSRF check reads the form: a change whose session holds no form token cannot
    pass that check, so it is refused as the check would refuse it, without reading the body."""
    config = current_app.config
    if config.get("WTF_CSRF_FIELD_NAME", "csrf_token") in session:  # the token's half is there: nothing to refuse
        return
    if not config.get("WTF_CSRF_ENABLED", True) or not config.get("WTF_CSRF_CHECK_DEFAULT", True):
        return
    if request.method not in config.get("WTF_CSRF_METHODS", {"POST", "PUT", "PATCH", "DELETE"}):
        return
    csrf = current_app.extensions.get("csrf")
    if csrf is None or not request.endpoint or csrf._is_exempt():
        return
    raise CSRFError("The CSRF session token is missing.")
