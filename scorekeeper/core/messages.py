"""Messages the core hands to the pages: the translation marker ``N_`` and the problem type.

Pure: no Flask. A message is an English message id with ``%(name)s`` placeholders; the pages
translate it where it is shown, in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


def N_(text: str) -> str:
    """Mark an English text as a message to translate (pybabel extracts it); the app translates it
    when it shows it. The core stays free of Flask."""
    return text


def counted(number: int, one: str, many: str) -> str:
    """A count and its noun in English, for the command line ("1 game", "2 games"); the pages use
    ngettext, which knows each language's forms."""
    return f"{number} {one if number == 1 else many}"


class Msg(str):
    """A message id passed as a value of another message: translated where the message is shown."""


@dataclass(frozen=True)
class Problem:
    """A check that failed: which side, which field, and what to tell the user.

    ``text`` is an English message id with ``%(name)s`` placeholders filled from ``args``, so the
    pages can show it in the reader's language (values that are ``Msg`` are translated too).
    ``shared``: one sentence about several fields together (the deck's cards entered in all), given
    for each of them; a page says it once. Any other problem is its own field's, even where another
    field's reads the same ("Enter a whole number.")."""

    side: int | None
    field: str
    text: str
    args: Mapping[str, Any] = field(default_factory=dict)
    shared: bool = False

    @property
    def message(self) -> str:
        """The message in English with its values."""
        return self.text % self.args if self.args else self.text

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of the API's 422 answer."""
        return {"side": self.side, "field": self.field, "message": self.message}


class Refused(ValueError):
    """A change the archive refuses, with a message id and its values (translated where shown)."""

    def __init__(self, text: str, **args: Any) -> None:
        super().__init__(text % args if args else text)
        self.text, self.values = text, args
