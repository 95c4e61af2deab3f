"""A table's own rule set as a small file to pass to another table (docs/api.md, "A rule set's file").

The file is JSON, its own format, versioned::

    {"format": "canasta-rule-set", "version": 1, "name": "Thursday rules", "base": "classic",
     "layout": "4", "values": {"canasta_natural": 600, "going_out_bonus": 300}}

``values`` holds the values the table changed from its base rule set's defaults, the settings among them
(they share one namespace, as in a game's settings). ``document`` writes it; ``read_text`` and
``read_document`` read it and name the field of each problem ("name", "base", "layout", a value's own
name, or "document", "format", "version", "values" for the file's shape), so a page can show each
beside its field. Whether the values make a possible table is the service's check
(``services.house_rules.check``), not this module's: here only the file's shape is read.
``link_text`` and ``from_link`` carry the file in a link (base64url of its compact JSON).

Pure: the standard library only.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import unicodedata
from typing import Any, Mapping

from scorekeeper.core.messages import N_, Problem

FORMAT = "canasta-rule-set"
VERSION = 1  # the newest version this app reads and writes
KEYS = ("format", "version", "name", "base", "layout", "values")
MOST_CHARS = 32 * 1024  # a rule set's file is well under 2 KB; a much larger text is not one
MOST_VALUES = 500  # a rule set has about 100 values
MOST_TEXT = 200  # a value written as text (an own kind's name) is a few words
VALUE_NAME = re.compile(r"[a-z][a-z0-9_]{0,59}")
DOCUMENT = "document"  # the field of a problem with the file as a whole


def document(name: str, base: str, layout: str | None, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The file of a table's own rule set: its name, base rule set, layout and changed values."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": name,
        "base": base,
        "layout": layout,
        "values": {key: changes[key] for key in sorted(changes)},
    }


def file_name(name: str) -> str:
    """The file's name for a download, the rule set's name in plain letters ("thursday-rules.canasta-rules.json")."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    slug = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:40].strip("-")
    return f"{slug or 'rule-set'}.canasta-rules.json"


def compact(data: Mapping[str, Any]) -> str:
    """The file as JSON on one line, without spaces (for a link)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def pretty(data: Mapping[str, Any]) -> str:
    """The file as JSON a person can read (for the download and the import's text box)."""
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def laid_out(text: str) -> str:
    """JSON text laid out as ``pretty`` does when it reads as JSON; else the text as it is."""
    try:
        return pretty(json.loads(text, parse_constant=_no_constant))
    except (ValueError, RecursionError):
        return text


def link_text(data: Mapping[str, Any]) -> str:
    """The file as a link carries it: base64url of its compact JSON (UTF-8), without padding."""
    return base64.urlsafe_b64encode(compact(data).encode("utf-8")).decode("ascii").rstrip("=")


def from_link(text: str) -> str | None:
    """The JSON a link carries (``link_text``'s reverse), or None when it is not base64url of UTF-8
    text or longer than a rule set's file."""
    text = (text or "").strip()
    if not text or len(text) > MOST_CHARS * 4 // 3 + 4 or not re.fullmatch(r"[A-Za-z0-9_-]+=*", text):
        return None
    try:
        raw = base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
        return raw.decode("utf-8")
    except (binascii.Error, ValueError):
        return None


class _Twice(ValueError):
    """A key given twice in one object."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of the file; a key given twice is refused (JSON would keep the last one silently)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _Twice(key)
        found[key] = value
    return found


def _no_constant(name: str) -> Any:
    """NaN and Infinity are no JSON numbers."""
    raise ValueError(name)


def too_large() -> Problem:
    """The problem with a text or file larger than any rule set's file."""
    return Problem(
        None, DOCUMENT, N_("This is larger than a rule set's file (at most %(most)s characters)."), {"most": MOST_CHARS}
    )


def read_text(text: str) -> tuple[dict[str, Any], list[Problem]]:
    """The fields of a rule set's file given as JSON text, and the problems with it (see ``read_document``)."""
    if len(text) > MOST_CHARS:
        return {}, [too_large()]
    if not text.strip():
        return {}, [Problem(None, DOCUMENT, N_("Choose a rule set's file, or paste its text."))]
    try:
        data = json.loads(text, object_pairs_hook=_no_twice, parse_constant=_no_constant)
    except _Twice as twice:
        return {}, [Problem(None, DOCUMENT, N_("The key %(key)s is given twice."), {"key": twice.key})]
    except (ValueError, RecursionError):
        return {}, [Problem(None, DOCUMENT, N_("This is not a rule set's file: it is not JSON."))]
    return read_document(data)


def read_document(data: Any) -> tuple[dict[str, Any], list[Problem]]:
    """The fields of a rule set's file (``name``, ``base``, ``layout``, ``values``: those that could be
    read) and the problems with its shape, each naming its field. Whether the values make a possible
    table is left to the service's check."""
    refused = _not_a_document(data)
    if refused is not None:
        return {}, [refused]
    problems: list[Problem] = []
    unknown = sorted(key for key in data if key not in KEYS)
    if unknown:
        problems.append(Problem(None, DOCUMENT, N_("Unknown keys: %(keys)s."), {"keys": ", ".join(unknown)}))
    for key in KEYS:
        if key not in data:
            problems.append(Problem(None, key, N_("Missing from the file.")))
    fields: dict[str, Any] = {}
    for key, readable, problem in _FIELDS:
        if key in data:
            if readable(data[key]):
                fields[key] = data[key]
            else:
                problems.append(Problem(None, key, problem))
    if "values" in data:
        values, value_problems = _values(data["values"])
        problems += value_problems
        if not value_problems:
            fields["values"] = values
    return fields, problems


# the file's fields of text: how each is read, and what is said when it cannot be
_FIELDS = (
    ("name", lambda v: isinstance(v, str), N_("Give the name as text.")),
    (
        "base",
        lambda v: isinstance(v, str) and bool(v),
        N_("Give the built-in rule set's id as text (such as classic)."),
    ),
    ("layout", lambda v: v is None or isinstance(v, str), N_("Give the layout as text, or null.")),
)


def _not_a_document(data: Any) -> Problem | None:
    """Why ``data`` is no rule set's file this app can read (not an object, another format, a version
    not a whole number from 1 or newer than this app's), or None."""
    if not isinstance(data, dict):
        return Problem(None, DOCUMENT, N_("This is not a rule set's file: it is not a JSON object."))
    if data.get("format") != FORMAT:
        return Problem(
            None, "format", N_("This is not a rule set's file: its format is not %(format)s."), {"format": FORMAT}
        )
    version = data.get("version")
    if type(version) is not int or version < 1:
        return Problem(None, "version", N_("The file's version must be a whole number from 1."))
    if version > VERSION:
        return Problem(
            None,
            "version",
            N_(
                "This file is of version %(version)s, made by a newer app; this one reads version %(known)s. "
                "Update the app, or make the file again on an app of this version."
            ),
            {"version": version, "known": VERSION},
        )
    return None


def _values(values: Any) -> tuple[dict[str, Any], list[Problem]]:
    """The values of the file, each of a kind a value may be, and the problems, each by the value's name."""
    if not isinstance(values, dict):
        return {}, [Problem(None, "values", N_("Give the values as an object: each value's name and value."))]
    if len(values) > MOST_VALUES:
        return {}, [
            Problem(None, "values", N_("More values than any rule set has (at most %(most)s)."), {"most": MOST_VALUES})
        ]
    problems = []
    for name, value in values.items():
        if not VALUE_NAME.fullmatch(name):
            problems.append(Problem(None, "values", N_("Not a value's name: %(name)s."), {"name": name[:60]}))
        elif not _plain(value) and not (isinstance(value, list) and all(_plain(item) for item in value)):
            problems.append(
                Problem(
                    None,
                    name,
                    N_("Not a value of a rule set: give true or false, a whole number, text or a list of them."),
                )
            )
    return dict(values), problems


def _plain(value: Any) -> bool:
    """A value of one kind: yes or no, a whole number, or a short text."""
    return isinstance(value, (bool, int)) or (isinstance(value, str) and len(value) <= MOST_TEXT)
