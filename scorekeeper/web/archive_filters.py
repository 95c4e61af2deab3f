"""What the history's and the statistics' addresses carry: the period asked (dates checked, each
refused with its message) and the choices the statistics page's links carry on."""

from __future__ import annotations

from datetime import date

from flask_babel import gettext


def dates(since: str | None, until: str | None) -> tuple[str | None, str | None, dict[str, str]]:
    """The history's period as the archive writes dates (20240105 and 2024-W01-5 are dates too), or
    each date that is none with its message."""
    errors = {}
    for key, value in (("from", since), ("to", until)):
        if value:
            try:
                date.fromisoformat(value)
            except ValueError:
                errors[key] = gettext("Give the date as YYYY-MM-DD.")
    if errors:
        return since, until, errors
    return *(date.fromisoformat(v).isoformat() if v else None for v in (since, until)), errors


def kept_choices(period: str, variant: str | None, players: tuple[str, bool], pairs: tuple[str, bool]) -> dict:
    """What the statistics page shows now, as its links carry it on (defaults left out)."""
    way = {True: "desc", False: "asc"}
    (sort, desc), (psort, pdesc) = players, pairs
    return {
        "period": None if period == "all" else period,
        "variant": variant,
        "sort": None if players == ("won", True) else sort,
        "dir": None if players == ("won", True) else way[desc],
        "psort": None if pairs == ("games", True) else psort,
        "pdir": None if pairs == ("games", True) else way[pdesc],
    }
