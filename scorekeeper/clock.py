"""Tonight's date on this machine: an evening at the table that goes on past midnight is still
tonight's until 6 in the morning. Pure: no Flask, no database."""

from __future__ import annotations

from datetime import datetime, timedelta

EVENING_ENDS_AT = 6  # hours after midnight


def today() -> str:
    """Tonight's date as an ISO string (the evening lasts until EVENING_ENDS_AT)."""
    return (datetime.now() - timedelta(hours=EVENING_ENDS_AT)).date().isoformat()
