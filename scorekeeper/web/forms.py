"""Flask-WTF forms: starting a game and entering a hand, built from the rule set's tables."""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    ValidationError,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, StopValidation

from scorekeeper.core import entry, names, numbers
from scorekeeper.core.rulesets import N_, TARGET_RANGE, RuleSet, Setting
from scorekeeper.web.hand_entry import STOCK_OUT

MAX_PLAYERS = 6
ENTRY_MODES = [SelectChoice(entry.POINTS_MODE, N_("Points")), SelectChoice(entry.COUNTS_MODE, N_("Count cards"))]


class SeatList(FieldList):
    """A FieldList of one entry per seat or side, each reading its own posted fields (``sides-1-…`` is
    always side 2, even when no ``sides-0-…`` field came): WTForms would renumber what it finds, so a
    missing side would shift the next one's figures onto it, and a name like ``sides-²-x`` or
    ``sides-999…999-x`` would fail to be read. Other indexes are unknown fields, left out."""

    def _extract_indices(self, prefix, formdata):
        return range(self.max_entries)


def no_control_characters(form, field) -> None:
    """Text as people type it: no NUL or other control character (tabs and line breaks pass)."""
    if field.data and re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", field.data):
        raise ValidationError(gettext("Remove the control characters."))


def readable_name(form, field) -> None:
    """A name as people read it: no character that is not seen (zero-width, direction marks, BOM,
    tags, fillers); kept in NFC (an accent typed apart is one letter). What was typed stays on refusal."""
    if field.data and names.invisible(field.data):
        raise ValidationError(gettext(names.INVISIBLE))
    if field.data:
        field.data = unicodedata.normalize("NFC", field.data)


SOMEONE_NEW = N_("Yes, this is someone new: add the player anyway.")
BETWEEN = _l("Between %(min)s and %(max)s.")  # a number outside its range (filled in by NumberRange)


def look_alikes(form, typed: list[tuple[Any, str]], known: list[str]) -> bool:
    """Ask "Did you mean Anna?" beside each field whose new name looks like a known player's without
    being it (unless the form's "someone new" is ticked); True when nothing needs asking."""
    ok = True
    for field, name in typed:
        like = names.look_alike(name, known)
        if like is not None:
            form.someone_new.asked = True
            if not form.someone_new.data:
                field.errors = list(field.errors) + [gettext("Did you mean %(name)s?", name=like)]
                ok = False
    return ok


def ticked(value: Any) -> int:
    """What a ticked box or a chosen option stands for (a player's id, an entrant's place), as
    ``core.numbers`` reads it; a value that is no number ticks nobody (-1)."""
    number = value if isinstance(value, int) and not isinstance(value, bool) else numbers.whole(value, digits=18)
    return -1 if number is None else number


class WholeField(IntegerField):
    """A whole number as ``core.numbers`` reads it (digits of any script, a sign; "²", "1_000" are
    none), with the message in the reader's language (the side forms are plain WTForms forms: the hand
    form carries the CSRF token). Empty is no value; the range is the validators' to tell."""

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        self.data = None
        if (valuelist[0] or "").strip():
            self.data = numbers.whole(valuelist[0], signed=True)
            if self.data is None:
                raise ValueError(gettext("Enter a whole number."))

    def pre_validate(self, form):
        if self.process_errors:  # said once: no range of a number that is none
            raise StopValidation()


def _count_field() -> IntegerField:
    """A whole-number field that may be left empty (empty means 0)."""
    return WholeField(validators=[Optional()])


def readable_number(form, field) -> None:
    """A hidden number the page sent (what the phone's page is based on): empty, or a whole number.
    Anything else is no page of ours as it was shown."""
    if field.data and numbers.whole(field.data, digits=18) is None:
        raise ValidationError(gettext("This page was not sent as it was shown. Check the values and press Save again."))


def side_form_class(rules: RuleSet) -> type[Form]:
    """One side's figures for a hand of this rule set, one input per field of the side-entry table
    (``entry.side_fields``); no CSRF of its own: the hand form carries it."""

    class SideForm(Form):
        pass

    for field in entry.side_fields(rules):
        if not field.form:
            continue
        if field.kind == "choice":
            choices = [SelectChoice(value, label) for value, label in field.choices]
            setattr(
                SideForm,
                field.name,
                RadioField(field.label, choices=[SelectChoice("no", N_("No"))] + choices, default="no"),
            )
        elif field.kind == "flag":
            setattr(SideForm, field.name, BooleanField(field.label))
        elif field.kind == "cards":  # one count per card group, and the choice of points or counts
            setattr(SideForm, field.mode, RadioField(field.label, choices=ENTRY_MODES, default=entry.POINTS_MODE))
            for card in field.cards:
                setattr(SideForm, card.input, _count_field())
        else:
            setattr(SideForm, field.name, _count_field())
    return SideForm


class HandFormBase(FlaskForm):
    """What every hand form can say about itself; ``hand_form_class`` adds the fields of a rule set."""

    game_rules: RuleSet
    side_fields: tuple[entry.Field, ...] = ()  # what the page shows of each side

    def lone_player(self) -> int | None:
        """The chosen lone player (classic 3 players), or None."""
        value = getattr(self, "lone", None)
        return None if value is None or value.data in (None, "", "none") else int(value.data)

    def field_group(self, name: str) -> tuple[entry.Field, ...]:
        """The fields of one group of the side entry, for the page."""
        return entry.group(self.side_fields, name)

    def side_field(self, name: str) -> entry.Field:
        """The side-entry field of this name."""
        return next(f for f in self.side_fields if f.name == name)

    def fields_json(self) -> list[dict[str, Any]]:
        """The side-entry table as the page's script reads it (``data-fields``)."""
        return [f.as_json() for f in self.side_fields]

    def counts_mode(self, side: int, field: entry.Field) -> bool:
        """Whether this side's figure of ``field`` was given as card counts."""
        if self.mode.raw_data:
            return self.mode.data == entry.COUNTS_MODE
        return getattr(self.sides[side].form, field.mode).data == entry.COUNTS_MODE


def hand_form_class(rules: RuleSet, players: list[str] | None = None) -> type[FlaskForm]:
    """A hand of this rule set: one side form per side, how the hand ended, and the confirmation."""

    class HandForm(HandFormBase):
        game_rules = rules
        sides = SeatList(FormField(side_form_class(rules)), min_entries=rules.sides, max_entries=rules.sides)
        # How the hand ended, asked once for the hand: which side went out (or nobody: the stock ran
        # out) and how. A form of an older page sends each side's ``went_out`` and ``stock_out`` instead.
        out = RadioField(
            N_("Who went out?"),
            choices=[SelectChoice(str(i), str(i)) for i in range(rules.sides)]
            + [SelectChoice(STOCK_OUT, N_("Nobody: the stock ran out"))],
            validators=[Optional()],
            validate_choice=False,
        )
        how = RadioField(
            rules.term("went_out", entry.WENT_OUT.label),
            choices=[SelectChoice(g.key, g.label) for g in rules.going_out_offered],
            default=rules.going_out_offered[0].key,
            validators=[Optional()],
            validate_choice=False,
        )
        # Melded cards and cards left in hand as points or as card counts, for every side at once.
        mode = RadioField(N_("Cards"), choices=ENTRY_MODES, default=entry.POINTS_MODE, validators=[Optional()])
        stock_out = BooleanField(N_("Nobody went out: the stock ran out"))
        confirm = BooleanField(N_("The figures are right: save anyway"))
        client_key = HiddenField(validators=[Optional(), Length(max=64)])  # one per entry: a resend is stored once
        # what the phone saw: a stale save is refused
        based_on = HiddenField(validators=[Optional(), Length(max=20), readable_number])
        side_fields = tuple(f for f in entry.side_fields(rules) if f.form)

    if rules.lone_player:  # docs/rules.md, "Classic Canasta (3 players)"
        names = players or [gettext("Player %(number)s", number=i + 1) for i in range(rules.sides)]
        HandForm.lone = RadioField(
            N_("Played alone this hand"),
            choices=[SelectChoice(str(i), name) for i, name in enumerate(names)]
            + [SelectChoice("none", N_("Nobody: each scored alone"))],
            validators=[InputRequired(message=_l("Pick who played alone."))],
        )
    return HandForm


def _setting_value(setting: Setting, raw: str | None) -> Any:
    """The setting's value for the submitted choice (choices are sent as text)."""
    for value, _label in setting.choices:
        if str(value) == raw:
            return value
    return setting.default


class NewGameFormBase(FlaskForm):
    """What every new-game form can say; ``new_game_form_class`` adds the fields of a rule set."""

    game_rules: RuleSet

    def player_names(self, count: int) -> list[str]:
        """The names of the first ``count`` seats, "Player N" where left empty."""
        # spaces as the archive keeps names (store.player_id): "Anna  B" and "Anna B" are one player
        return [
            " ".join((field.data or "").split()) or gettext("Player %(number)s", number=i + 1)
            for i, field in enumerate(self.players[:count])
        ]

    def settings(self) -> dict[str, Any]:
        """The chosen house rules."""
        return {s.key: _setting_value(s, getattr(self, f"setting_{s.key}").data) for s in self.game_rules.settings}

    def validate_for(self, count: int) -> bool:
        """Checks that depend on the seating: distinct names and a dealer who is at the table."""
        ok = True
        seen: set[str] = set()
        for field, name in zip(self.players, self.player_names(count)):
            if names.skeleton(name) in seen:  # "Anna" and a look-alike "Аnna" are one name at the table
                field.errors = list(field.errors) + [gettext("Two players have this name; add an initial.")]
                ok = False
            seen.add(names.skeleton(name))
        if int(self.first_dealer.data or 0) >= count:
            self.first_dealer.errors = list(self.first_dealer.errors) + [
                gettext("Pick one of the players at the table.")
            ]
            ok = False
        if self.target.data is not None and self.target.data % 5:
            self.target.errors = list(self.target.errors) + [gettext("Scores are multiples of 5.")]
            ok = False
        return ok


def new_game_form_class(rules: RuleSet) -> type[FlaskForm]:
    """Start a game of this rule set: seating, players, first dealer, house rules and target."""

    class NewGameForm(NewGameFormBase):
        game_rules = rules
        layout = RadioField(
            N_("Players"),
            choices=[SelectChoice(seating.key, seating.label) for seating in rules.layouts],
            default=rules.layouts[0].key,
        )
        players = SeatList(
            StringField(
                validators=[Length(max=40, message=_l("At most 40 characters.")), no_control_characters, readable_name]
            ),
            min_entries=MAX_PLAYERS,
            max_entries=MAX_PLAYERS,
        )
        someone_new = BooleanField(SOMEONE_NEW)
        first_dealer = RadioField(
            N_("First dealer"), choices=[SelectChoice(str(i), str(i + 1)) for i in range(MAX_PLAYERS)], default="0"
        )
        target = WholeField(
            N_("Target score"),
            validators=[Optional(), NumberRange(*TARGET_RANGE, BETWEEN)],
        )

    if len(rules.layouts) == 1:  # nothing to choose (the page sends it hidden): always the one layout
        only = rules.layouts[0].key
        NewGameForm.layout = HiddenField(default=only, filters=[lambda _value: only])
    if rules.partie_layouts:
        NewGameForm.complete_game = BooleanField(
            N_("A complete Game: three Partien with rotating partnerships (4 players)")
        )
    for setting in rules.settings:  # docs/rules.md, "House rules"
        setattr(NewGameForm, f"setting_{setting.key}", _setting_field(setting))
    return NewGameForm


def _setting_field(setting) -> RadioField:
    """A rule set's setting as the new game's form asks it: one of its choices, its default first."""
    return RadioField(
        setting.label,
        choices=[SelectChoice(str(value), label) for value, label in setting.choices],
        default=str(setting.default),
    )


class EveningForm(FlaskForm):
    """An evening: its date, place, note and the players present."""

    date = StringField(N_("Date"), validators=[InputRequired(message=_l("Give the date."))])
    place = StringField(
        N_("Place"), validators=[Length(max=80, message=_l("At most 80 characters.")), no_control_characters]
    )
    note = StringField(
        N_("Note"), validators=[Length(max=300, message=_l("At most 300 characters.")), no_control_characters]
    )
    known = SelectMultipleField(N_("Players"), coerce=ticked, validate_choice=False)
    new_players = StringField(
        N_("New players"),
        validators=[Length(max=400, message=_l("At most 400 characters.")), no_control_characters, readable_name],
    )
    someone_new = BooleanField(SOMEONE_NEW)

    def validate_date(self, field) -> None:
        """A real date, written as the date picker writes it."""
        try:
            day = date.fromisoformat(field.data or "")
        except ValueError:
            raise ValidationError(gettext("Give the date as YYYY-MM-DD.")) from None
        field.data = day.isoformat()  # 20240105 is read too: kept as 2024-01-05, so dates sort and compare

    def new_names(self) -> list[str]:
        """The new players typed, split at commas or new lines."""
        typed = [names.normal(n) for n in (self.new_players.data or "").replace("\n", ",").split(",")]
        return [n for n in typed if n]

    def validate_new_players(self, field) -> None:
        """Each new name at most 40 characters."""
        if any(len(n) > 40 for n in self.new_names()):
            raise ValidationError(gettext("A name has at most 40 characters."))


class PlayerNameForm(FlaskForm):
    """Rename a player."""

    name = StringField(
        N_("New name"),
        validators=[
            DataRequired(message=_l("Give a name.")),
            Length(max=40, message=_l("At most 40 characters.")),
            no_control_characters,
            readable_name,
        ],
    )
    someone_new = BooleanField(SOMEONE_NEW)


class MergeForm(FlaskForm):
    """Merge another player into this one."""

    other = SelectField(N_("Merge this player into the one above"), coerce=ticked, validate_choice=False)
    # a merge cannot be undone: it is asked for twice, the person chosen and a tick
    sure = BooleanField(N_("Yes, they are the same person. Merging cannot be undone."))

    def validate_other(self, field) -> None:
        if field.data not in {value for value, _label in field.choices}:
            raise ValidationError(gettext("Choose the player to merge."))

    def validate_sure(self, field) -> None:
        if not field.data:
            raise ValidationError(gettext("Tick this to merge: it cannot be undone."))


class ImportForm(FlaskForm):
    """Upload a JSON export."""

    file = FileField(N_("Export file (JSON)"))
