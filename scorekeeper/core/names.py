"""Names of players and phones as people read them: kept in NFC, refused when they hold characters
nobody sees (zero-width, bidi, BOM, tag, Hangul filler, control ...), and compared by how they look
(a Cyrillic "А" reads as a Latin "A"), so that "Anna" and a look-alike do not become two players
unasked. The look-alike table is Unicode's confusables, from ``confusable_homoglyphs``."""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs.utils import load

from scorekeeper.core.messages import N_

INVISIBLE = N_("Remove the invisible characters (such as a zero-width space or a direction mark) from this name.")

# Default-ignorable code points that are letters or marks by category (the others are Cf, Cc ...)
_IGNORABLE = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, *range(0x180B, 0x1810), *range(0xFE00, 0xFE10)}
_IGNORABLE.update(range(0xE0100, 0xE01F0))  # variation selectors supplement


def normal(name: str) -> str:
    """A name as it is kept: NFC, runs of spaces as one, none at either end."""
    return " ".join(unicodedata.normalize("NFC", name or "").split())


def _hidden(char: str, before: str) -> bool:
    if ord(char) in _IGNORABLE:  # an emoji's presentation selector (❤️) is part of what is seen
        return not (char == "\ufe0f" and unicodedata.category(before or " ") == "So")
    return unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def invisible(name: str) -> bool:
    """Whether the name holds a character that is not seen (or a control character)."""
    return any(_hidden(char, name[i - 1] if i else "") for i, char in enumerate(name or ""))


@functools.cache
def _table() -> tuple[dict[str, str], dict[str, str]]:
    """Each confusable character's ASCII look-alike, and each ASCII character's representative
    among those that look alike ("l", "I", "1", "|")."""
    data = load("confusables.json")
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    to_ascii: dict[str, str] = {}
    for key, homoglyphs in data.items():
        for entry in homoglyphs:
            glyph = entry["c"].replace("\u200e", "").replace("\u200f", "")
            if len(key) != 1 or len(glyph) != 1 or not glyph.isascii():
                continue
            if key.isascii():
                a, b = find(key), find(glyph)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            else:
                to_ascii.setdefault(key, glyph)
    return to_ascii, {chr(c): find(chr(c)) for c in range(128)}


def skeleton(name: str) -> str:
    """What a name looks like, case aside: equal for "Anna", "anna", "Аnna" (Cyrillic А) and "ВEN" /
    "Ben" (Cyrillic В)."""
    to_ascii, same = _table()
    # capitals first (a Cyrillic "Т" looks like "T", its small "т" like no Latin letter), then case aside
    text = "".join(to_ascii.get(char, char) for char in unicodedata.normalize("NFD", normal(name)))
    text = unicodedata.normalize("NFD", text.casefold())
    text = "".join(char for char in text if not _hidden(char, ""))
    out = []
    for char in text:
        char = to_ascii.get(char, char)
        out.append(same.get(char, char))
    return unicodedata.normalize("NFD", "".join(out))


def look_alike(name: str, known: list[str]) -> str | None:
    """The known name that ``name`` looks like without being it (any case), or None."""
    if any(normal(k).casefold() == normal(name).casefold() for k in known):
        return None
    mark = skeleton(name)
    return next((k for k in known if skeleton(k) == mark), None)
