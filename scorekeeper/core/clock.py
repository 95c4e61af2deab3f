"""Tonight's date on this machine: an evening at the table that goes on past midnight is still
tonight's until 6 in the morning. Pure: no Flask, no database."""

from __future__ import annotations

from datetime import datetime, timedelta

EVENING_ENDS_AT = 6  # hours after midnight


def evening_of(moment: datetime) -> str:
    """The date (ISO) of the evening a local time belongs to: 00:30 is still the evening before."""
    return (moment - timedelta(hours=EVENING_ENDS_AT)).date().isoformat()


def today() -> str:
    """Tonight's date as an ISO string (the evening lasts until EVENING_ENDS_AT)."""
    return evening_of(datetime.now())


def played_on(started: str, evening: str | None = None) -> str:
    """The day (ISO) a game was played, from the time it was started (ISO; UTC as the app stores it):
    the date on this machine's clock, so a game started at 00:30 is dated the day it was played, also
    when it belongs to the evening before. A game entered for an evening at another time (afterwards,
    for an evening of last week) counts on the evening's date."""
    local = datetime.fromisoformat(started)
    local = local.astimezone().replace(tzinfo=None) if local.tzinfo else local
    if evening is None or evening_of(local) == evening:
        return local.date().isoformat()
    return evening
