"""The rules, pure: rule-set tables, the side entry, checks, scoring, the sheet, statistics, ratings
and seating. No Flask, no database, no clock but ``clock``: what a hand scores is decided here."""
