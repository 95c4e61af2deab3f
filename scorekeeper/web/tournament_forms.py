"""The form that starts a tournament (docs/tournaments.md): its name, format, rules, round end, its
players or pairs (one a line) and its season points. What was typed stays when something is refused;
each message stands beside its field."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, RadioField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from scorekeeper.core import club_night, names, numbers, rulesets
from scorekeeper.core.messages import N_
from scorekeeper.web.forms import BETWEEN, SOMEONE_NEW, WholeField, look_alikes, no_control_characters
from scorekeeper.web.i18n import problem_message

FORMAT_NAMES = {key: kind.name for key, kind in club_night.formats.REGISTRY.items()}
FORMAT_HINTS = {key: kind.hint for key, kind in club_night.formats.REGISTRY.items()}
ROUND_END_NAMES = {
    "target": N_("At the target score"),
    "hands": N_("After a number of hands"),
    "minutes": N_("After a time"),
}
BYE_SCORE_NAMES = {
    "average": N_("its average: the match points and points of its games, averaged"),
    "win": N_("a win: 2 match points and its average points"),
    "nothing": N_("nothing"),
}
BYE_SHORT_NAMES = {"average": N_("average"), "win": N_("as a win"), "nothing": N_("counts nothing")}
TIE_NAMES = {
    "shared": N_("share the place and split its season points"),
    "lot": N_("are placed by the draw number (by lot)"),
}


def partnership_layout(rules: rulesets.RuleSet) -> rulesets.Layout | None:
    """The rule set's seating for four players in two partnerships, which tournament tables play."""
    return next((lay for lay in rules.layouts if lay.players == 4 and len(lay.sides) == 2), None)


def rule_choices(house: list[Any]) -> list[tuple[str, str, str | None]]:
    """What a tournament can play: (value, name, layout) for every built-in rule set with a table of four
    in partnerships, and the table's own rule sets made from one (and for four players)."""
    out = []
    for rules in rulesets.RULE_SETS.values():
        layout = partnership_layout(rules)
        if layout:
            out.append((rules.id, rules.name, layout.key))
    for own in house:
        base = rulesets.RULE_SETS.get(own.base)
        layout = partnership_layout(base) if base else None
        if layout and own.layout in (None, layout.key):
            out.append((f"house-{own.id}", own.name, layout.key))
    return out


def table_rule_choices(house: list[Any], size: int) -> list[tuple[str, str, str, Any]]:
    """What a table of five or six can play: (value "rules:layout", the rule set's name, the seating's
    name, the table's own rule set or None) for every rule set with a seating for ``size`` players, and
    the table's own rule sets made from one."""
    out = []
    for rules in rulesets.RULE_SETS.values():
        for layout in rules.layouts:
            if layout.players == size:
                out.append((f"{rules.id}:{layout.key}", rules.name, layout.label, None))
    for own in house:
        base = rulesets.RULE_SETS.get(own.base)
        for layout in base.layouts if base else ():
            if layout.players == size and own.layout in (None, layout.key):
                out.append((f"house-{own.id}:{layout.key}", own.name, layout.label, own))
    return out


def names_problem(pairs: bool, entrants: list[tuple[str, ...]]) -> str | None:
    """What the names of a list of entrants cannot be, as the page says it, or None (the core's rules,
    which the import applies too: ``club_night.tournaments.entrants``)."""
    problem = club_night.names_problem(pairs, entrants)
    return problem_message(problem) if problem else None


class TournamentForm(FlaskForm):
    """Start a tournament."""

    name = StringField(
        N_("Name"),
        validators=[
            DataRequired(message=_l("Give the tournament a name.")),
            Length(max=80, message=_l("At most 80 characters.")),
            no_control_characters,
        ],
    )
    format = RadioField(
        N_("Format"), choices=[SelectChoice(k, v) for k, v in FORMAT_NAMES.items()], default=club_night.FORMATS[0]
    )
    rules = SelectField(N_("Rules"), choices=[])
    round_end = RadioField(
        N_("A round ends"), choices=[SelectChoice(k, v) for k, v in ROUND_END_NAMES.items()], default="target"
    )
    # the limits the import checks too (club_night.tournaments, club_night.rulesets)
    round_hands = WholeField(
        N_("Hands a round"), default=3, validators=[Optional(), NumberRange(*club_night.ROUND_HANDS, BETWEEN)]
    )
    round_minutes = WholeField(
        N_("Minutes a round"), default=50, validators=[Optional(), NumberRange(*club_night.ROUND_MINUTES, BETWEEN)]
    )
    target = WholeField(N_("Target score"), validators=[Optional(), NumberRange(*rulesets.TARGET_RANGE, BETWEEN)])
    entrants = TextAreaField(
        N_("Players"),
        validators=[InputRequired(message=_l("Enter the players.")), Length(max=4000), no_control_characters],
    )
    someone_new = BooleanField(SOMEONE_NEW)
    season_points = StringField(
        N_("Season points by place"), default=", ".join(str(p) for p in club_night.DEFAULT_SEASON_POINTS)
    )
    rules_5 = SelectField(N_("Rules at a table of five"), choices=[])
    rules_6 = SelectField(N_("Rules at a table of six"), choices=[])
    bye_score = RadioField(
        N_("A round sat out scores"),
        choices=[SelectChoice(k, v) for k, v in BYE_SCORE_NAMES.items()],
        default="average",
    )
    ties = RadioField(
        N_("Entrants level on everything"), choices=[SelectChoice(k, v) for k, v in TIE_NAMES.items()], default="shared"
    )
    confirm_hands = BooleanField(N_("The other side confirms each hand"))

    def offer_table_rules(self, house: list[Any]) -> None:
        """The choices of rules for tables of five and six (translated), the first chosen where nothing is."""
        self.table_choices = {5: table_rule_choices(house, 5), 6: table_rule_choices(house, 6)}
        for size, field in ((5, self.rules_5), (6, self.rules_6)):
            field.choices = [
                (v, f"{gettext(name)} · {gettext(label)}") for v, name, label, _own in self.table_choices[size]
            ]
            if not field.data and field.choices:
                field.data = field.choices[0][0]

    def table_rules(self) -> dict[int, dict[str, Any]]:
        """What tables of five and six are to play, as the tournament keeps it."""
        out = {}
        for size, field in ((5, self.rules_5), (6, self.rules_6)):
            chosen = next((c for c in self.table_choices[size] if c[0] == field.data), None)
            if chosen is None:
                continue
            value, layout = chosen[0].rsplit(":", 1)
            own = chosen[3]
            out[size] = {
                "variant": own.base if own else value,
                "layout": layout,
                "house_rules_id": own.id if own else None,
                "settings": dict(own.changes) if own else {},
            }
        return out

    def entrant_list(self) -> list[tuple[str, ...]]:
        """The players, or pairs where the format is entered as pairs, typed one a line."""
        return club_night.parse_entrants(self.format.data, self.entrants.data)

    def check(self) -> bool:
        """What the validators cannot see: the entrants' names and number, the round end's number,
        the target's and season points' form."""
        ok = True
        if names.invisible(self.name.data or ""):
            self.name.errors = [gettext(names.INVISIBLE)]
            ok = False
        entrants = self.entrant_list()
        problem = names_problem(club_night.pairs(self.format.data), entrants)
        if problem:
            self.entrants.errors = [problem]
            return False
        problems = (
            club_night.entrant_problems(self.format.data, entrants) if self.format.data in club_night.FORMATS else []
        )
        if problems:
            self.entrants.errors = [problem_message(problems[0])]
            ok = False
        needed = {"hands": self.round_hands, "minutes": self.round_minutes}.get(self.round_end.data)
        if needed is not None and needed.data is None and not needed.errors:
            needed.errors = [gettext("Give the number.")]
            ok = False
        if self.target.data is not None and self.target.data % 5:
            self.target.errors = [gettext("Scores are multiples of 5.")]
            ok = False
        points = self.points()
        if points is None:
            self.season_points.errors = [gettext("Whole numbers with commas between them, best place first.")]
            ok = False
        elif club_night.points_grow(points):
            self.season_points.errors = [gettext("A place cannot get more season points than the place before it.")]
            ok = False
        return ok

    def new_names_checked(self, known: list[str]) -> bool:
        """A name that looks like a player kept without being him asks "Did you mean Anna?" (unless
        "someone new" is ticked); True when nothing needs asking."""
        typed = [(self.entrants, n) for e in self.entrant_list() for n in e if n not in known]
        return look_alikes(self, typed, known)

    def points(self) -> tuple[int, ...] | None:
        """The season points typed (``10, 8, 6``; each as ``club_night.numbers`` reads it, between commas of
        any keyboard, or spaces), or None if they cannot be read: two commas with no number between them
        ("10,,8") are a place left out, not one comma."""
        typed = (self.season_points.data or "").strip().strip(",;，、،；").strip()
        between = re.split(r"\s*[,;，、،；]\s*", typed) if typed else []
        if "" in between:
            return None
        parts = [numbers.whole(p, digits=9) for chunk in between for p in chunk.split()]
        if not parts or len(parts) > club_night.SEASON_PLACES_MOST or None in parts:
            return None
        points = tuple(parts)
        return points if max(points) <= club_night.SEASON_POINTS_MOST else None
