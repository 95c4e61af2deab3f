"""The app's own files (``static/``) as they go out to a phone: a script or a style sheet without
its comments and indentation, gzipped when the phone takes gzip, each made once per version of the
file, with only the headers a file needs.

The files stay as they are written, comments and all (a reader's copy); what goes over the network
is what the browser runs. The first visit of the score sheet loads a dozen of them, so their
comments and their headers were most of its weight (docs/performance.md, page weight).

Only what cannot change a program is left out: in a script, whole lines that are a ``//`` comment
and the spaces that start a line (a file with a template literal or a string running over several
lines is sent whole); in a style sheet, ``/* */`` comments outside strings and the spaces that
start a line, and empty lines in both."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from flask import Response, current_app, request

SCRIPT = "text/javascript"
STYLE = "text/css"
# headers that mean something for a page, not for a script or a style sheet it loads
PAGE_ONLY_HEADERS = ("Content-Security-Policy", "X-Frame-Options", "Content-Disposition", "Accept-Ranges")
_CSS_COMMENT = re.compile(r"(\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*')|/\*.*?\*/", re.S)
KEPT = "scorekeeper_static_files"


def slim_script(text: str) -> str:
    """A script without its whole-line ``//`` comments and its lines' leading spaces."""
    lines = text.splitlines()
    if any(line.count("`") % 2 or line.endswith("\\") for line in lines):
        return text  # a template literal or a string over several lines: sent as it is
    kept = []
    for line in lines:
        code = line.strip()
        if not code or (code.startswith("//") and "*/" not in code):
            continue
        kept.append(code)
    return "\n".join(kept) + "\n"


def slim_style(text: str) -> str:
    """A style sheet without its comments (strings kept whole) and its lines' leading spaces."""
    text = _CSS_COMMENT.sub(lambda match: match.group(1) or "", text)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip()) + "\n"


SLIMMERS = {SCRIPT: slim_script, STYLE: slim_style}


def _made(path: Path, gzipped: bool) -> bytes | None:
    """The file as it goes out (slimmed, and gzipped when asked), made once per version of the file."""
    try:
        version = (str(path), path.stat().st_mtime_ns, gzipped)
    except OSError:
        return None
    kept: dict[tuple, bytes] = current_app.extensions.setdefault(KEPT, {})
    data = kept.get(version)
    if data is None:
        mimetype = "text/css" if path.suffix == ".css" else "text/javascript" if path.suffix == ".js" else ""
        data = path.read_bytes()
        if mimetype in SLIMMERS:
            data = SLIMMERS[mimetype](data.decode()).encode()
        if gzipped:
            data = gzip.compress(data, 9, mtime=0)
        kept[version] = data
    return data


def finish(response: Response, gzipped: bool) -> Response:
    """A static file's answer (200) as it goes out: slimmed, gzipped when asked, its page-only headers left out."""
    path = Path(current_app.static_folder) / (request.view_args or {}).get("filename", "")
    slimmed = response.mimetype in SLIMMERS
    if not (slimmed or gzipped):
        return response
    data = _made(path, gzipped)
    if data is None:
        return response
    response.direct_passthrough = False
    response.set_data(data)
    if slimmed:
        for name in PAGE_ONLY_HEADERS:
            response.headers.pop(name, None)
        response.headers.pop("Last-Modified", None)  # the ETag says which version it is
    if gzipped:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    return response
