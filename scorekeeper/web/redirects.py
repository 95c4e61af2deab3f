"""Where a page may send the phone next: one rule for every ``next=``, only a path on this site.

A browser reading a ``Location`` header drops tabs and line breaks anywhere in it, ignores spaces at
its ends and takes a backslash for a slash, so ``/\\t/evil.example`` or ``/\\evil.example`` lead
to another site. The target is therefore cleaned of every control character and space first (the
Unicode ones too) and then taken apart with urllib: what is left must be a plain path.
"""

from __future__ import annotations

import unicodedata
from urllib.parse import unquote, urlsplit

from werkzeug.urls import iri_to_uri

# control characters (C0, C1, DEL), format characters (zero-width spaces, U+FEFF, direction marks),
# and the separators: every space, line and paragraph separator
_DROPPED = {"Cc", "Cf", "Zs", "Zl", "Zp"}


def _clean(target: str) -> str:
    return "".join(ch for ch in target if not ch.isspace() and unicodedata.category(ch) not in _DROPPED)


def _on_this_site(path: str) -> bool:
    if not path.startswith("/") or path.startswith("//") or "\\" in path:
        return False
    parts = urlsplit(path)
    if parts.scheme or parts.netloc:
        return False
    # a path that only becomes another site once decoded (/%2F%2Fevil.example, /%5Cevil.example)
    # is refused too: some proxy or browser on the way may decode it
    decoded = _clean(unquote(path))
    return not decoded.startswith("//") and "\\" not in decoded


def safe_path(target: str | None, default: str = "/") -> str:
    """``target`` if it is a path on this site (cleaned of control characters and spaces, as URI),
    else ``default``: never another site, never a header broken by a line break."""
    if not target:
        return default
    path = _clean(str(target))
    if not _on_this_site(path):
        return default
    path = iri_to_uri(path)
    return path if _on_this_site(path) else default


def same_site_path(url: str | None, host: str, default: str = "/") -> str:
    """The path (and query) of a full URL on this host, such as a Referer; else ``default``."""
    if not url:
        return default
    parts = urlsplit(_clean(url))
    if parts.netloc and parts.netloc.lower() != host.lower():
        return default
    return safe_path(parts.path + (f"?{parts.query}" if parts.query else ""), default)
