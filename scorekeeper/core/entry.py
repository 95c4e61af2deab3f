"""One definition of a side's hand entry: every field, its kind, its limits, its label and its group.

A side entry is what one side scored with in one hand, in the shape the JSON API takes and the
database stores (see ``docs/api.md``; docs/rules.md, "How a hand is scored"). This table is the only place that says
which fields a rule set's entry has. The hand form (``forms.side_form_class``), the reading and
checking (``checks.read_side``, ``count_fields``, ``known_fields``), storage (``checks.stored_entry``),
a stored hand's form data (``hand_entry.form_data``), the page (``hand.html``) and its script (``hand.js``,
through the form's ``data-fields``) all read it.

Pure: no Flask, no database.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets import CARD_GROUP_KEYS, CARD_GROUPS, LOW_AND_BLACK_THREES, Deduction, RuleSet

# What a field holds:
#   count   a whole number of things: canastas, threes, unfinished melds, players holding, offences
#   points  card or penalty points, a multiple of ``step`` (docs/rules.md, "How a hand is scored": every value is a
# multiple of 5)
#   cards   card counts by value group (docs/rules.md, "Card values"), the other way of giving a ``points`` figure (its
# ``pair``)
#   choice  one of ``choices``, or None
#   flag    true or false (None too where ``default`` is None: left out)
KINDS = ("count", "points", "cards", "choice", "flag")
# The parts of a side entry, in the order the hand form shows them.
GROUPS = (
    "going_out",  # how the side went out (docs/rules.md, "Going out")
    "canastas",  # completed canastas by kind (docs/rules.md, "Canastas")
    # red threes; Modern black threes melded, Canadian black threes in hand (docs/rules.md, "Penalties", "Canadian
    # Canasta (3 decks)")
    "threes",
    # melded cards M: points or counts (docs/rules.md, "How a hand is scored"); whether the side has melded
    # (docs/rules.md, "How a hand is scored")
    "melded",
    "hand",  # cards left in hand H: points or counts
    # unfinished melds (docs/rules.md, "House rules", "Classic Canasta, 6 players in three teams of 2", "Penalties")
    "incomplete",
    "holding",  # players holding 3 or more aces / 7s (docs/rules.md, "Penalties")
    "bonus",  # the exact cut (docs/rules.md, "Canadian Canasta (3 decks)")
    "offences",  # the rule book's penalty catalogue (docs/rules.md, "Going out", "Penalties")
    "penalties",  # other penalty points, entered by hand
)
# No real penalty comes near this; it stops a slip of the thumb from wrecking a total.
MAX_PENALTY = 10000
# A points figure and its card counts: which the form shows is chosen with these (the form's ``mode``).
POINTS_MODE, COUNTS_MODE = "points", "counts"
CARD_LABELS = dict(CARD_GROUPS)


@dataclass(frozen=True)
class CardCount:
    """One card group of a ``cards`` field: its key in the stored counts, its label, the most the deck
    holds (None: any deck) and the hand form's input for it."""

    key: str
    label: str
    max: int | None
    input: str
    # False: the score pad shows no row for it, but for a hand stored with it (to be corrected): black
    # threes left in hand counted with the 7 to 4, or costing a penalty of their own in a row of the threes
    on_pad: bool = True
    # the card groups this count may hold besides its own (the 7 to 4 in hand: the black threes too)
    pooled: tuple[str, ...] = ()


@dataclass(frozen=True)
class Field:
    """One field of a side entry."""

    name: str  # the key in the API's and the stored entry
    kind: str  # one of KINDS
    group: str  # one of GROUPS
    label: str  # message id; a ``%(points)s`` in it is filled with ``points``
    min: int = 0
    max: int | None = None  # count and points: the most it can be (None: no limit); cards: per card group
    key: str = ""  # the rule table's key it stands for: the canasta kind or the deduction
    points: int = 0  # what one counts for (a deduction), or the bonus (exact cut)
    step: int = 1  # points: a multiple of this
    choices: tuple[tuple[str, str], ...] = ()  # choice: (value, label); "not" is None, the form's "No"
    cards: tuple[CardCount, ...] = ()  # cards: the card groups counted
    pair: str = ""  # points and cards: the field that gives the same figure the other way
    default: Any = 0  # the value when left out or empty
    form: bool = True  # the hand form has it (``has_melded`` is the API's only)
    spec: str = ""  # where docs/rules.md explains it

    @property
    def mode(self) -> str:
        """The hand form's choice between this field and its pair ("melded_mode"), or ""."""
        return f"{self.group}_mode" if self.pair else ""

    @property
    def mode_value(self) -> str:
        """The value of ``mode`` that shows this field."""
        return COUNTS_MODE if self.kind == "cards" else POINTS_MODE

    @property
    def inputs(self) -> tuple[str, ...]:
        """The hand form's inputs for this field (a side's, without the ``sides-N-`` prefix)."""
        return tuple(card.input for card in self.cards) if self.kind == "cards" else (self.name,)

    def as_json(self) -> dict[str, Any]:
        """What the hand form's script needs to read the field from the page."""
        data: dict[str, Any] = {"name": self.name, "kind": self.kind, "group": self.group}
        if self.mode:
            data["mode"], data["mode_value"] = self.mode, self.mode_value
        if self.kind == "cards":
            data["inputs"] = {card.key: card.input for card in self.cards}
        return data


def _cards(name: str, group: str, label: str, pair: str) -> Field:
    """A cards field over every card group (any deck); ``side_fields`` narrows it to the rule set's."""
    cards = tuple(CardCount(key, CARD_LABELS[key], None, f"{group}_{key}") for key in CARD_GROUP_KEYS)
    return Field(name, "cards", group, label, cards=cards, pair=pair, default=None)


# The headings of docs/rules.md that explain the fields (each rule set's section has them).
SCORED = 'docs/rules.md, "How a hand is scored"'
CANASTAS = 'docs/rules.md, "Canastas"'
THREES = 'docs/rules.md, "Red and black threes"'
GOING_OUT = 'docs/rules.md, "Going out"'
PENALTIES_HEADING = 'docs/rules.md, "Penalties"'

# The fields every rule set's entry is built on, whatever its tables (``exact_cut`` only where the
# rule set has the bonus). Every other field is a count: their kind and shape never depend on the rules,
# so an entry can be stored or put back into the form without them (``shape``).
WENT_OUT = Field("went_out", "choice", "going_out", N_("Went out"), default=None, spec=GOING_OUT)
HAS_MELDED = Field("has_melded", "flag", "melded", N_("Has melded"), default=None, form=False, spec=THREES)
MELDED_POINTS = Field(
    "melded_points", "points", "melded", N_("Points melded"), step=5, pair="melded_cards", spec=SCORED
)
MELDED_CARDS = _cards("melded_cards", "melded", N_("Melded cards"), "melded_points")
HAND_POINTS = Field("hand_points", "points", "hand", N_("Points in hand"), step=5, pair="hand_cards", spec=SCORED)
HAND_CARDS = _cards("hand_cards", "hand", N_("Cards left in hand"), "hand_points")
EXACT_CUT = Field(
    "exact_cut", "flag", "bonus", N_("Exact cut, this team did not deal (+%(points)s)"), default=False, spec=GOING_OUT
)
PENALTIES = Field(
    "penalties",
    "points",
    "penalties",
    N_("Other penalty points (deducted)"),
    max=MAX_PENALTY,
    step=5,
    spec=PENALTIES_HEADING,
)
FRAME = (WENT_OUT, HAS_MELDED, MELDED_POINTS, MELDED_CARDS, HAND_POINTS, HAND_CARDS, EXACT_CUT, PENALTIES)
_FRAME = {f.name: f for f in FRAME}


def shape(name: str) -> Field:
    """The field of this name as every rule set has it (limits aside): a frame field, else a count."""
    return _FRAME.get(name) or Field(name, "count", "", "")


def _narrowed(cards: Field, rules: RuleSet, groups: tuple[str, ...]) -> Field:
    """A cards field over the rule set's card groups, each with the most its deck holds."""
    return replace(
        cards, cards=tuple(replace(c, max=rules.cards_in_deck[c.key]) for c in cards.cards if c.key in groups)
    )


def _in_hand(rules: RuleSet) -> Field:
    """The cards left in hand. Where a black three left in hand counts as a 7 to 4 does, the 7 to 4 count
    holds them too, as the rules' tables list them and as people count a hand by value: the pad has no
    row of black threes in hand (docs/rules.md, "Card values"). Where they cost a penalty of their own,
    the pad counts them in their row of the threes. The API and hands stored before still give them apart."""
    field = _narrowed(HAND_CARDS, rules, rules.hand_card_groups)
    pooled = rules.black_threes_with_low_in_hand
    if not pooled and not rules.black_three_in_hand:
        return field

    def shaped(card: CardCount) -> CardCount:
        if card.key == "black_threes":
            return replace(card, on_pad=False)
        if card.key == "low" and pooled:
            most = rules.cards_in_deck["low"] + rules.cards_in_deck["black_threes"]
            return replace(card, label=LOW_AND_BLACK_THREES, max=most, pooled=("black_threes",))
        return card

    return replace(field, cards=tuple(shaped(card) for card in field.cards))


def side_fields(rules: RuleSet) -> tuple[Field, ...]:
    """Every field of one side's entry for this rule set (as configured: layout and house rules), in
    the order the hand form shows them (derived once per rule set object: they are frozen)."""
    fields = _derived.get(id(rules))
    if fields is None or fields[0] is not rules:
        if len(_derived) > 1024:
            _derived.clear()
        fields = _derived[id(rules)] = (rules, _side_fields(rules))
    return fields[1]


# id(rule set) -> (that rule set, its fields): a memo of a pure function (the rule set is kept with
# its fields so that its id is never reused by another object while it is here)
_derived: dict[int, tuple[RuleSet, tuple[Field, ...]]] = {}


def _side_fields(rules: RuleSet) -> tuple[Field, ...]:
    """``side_fields``, derived: how the side went out, its canastas, threes, cards, deductions."""
    went_out = replace(
        WENT_OUT,
        label=rules.term("went_out", WENT_OUT.label),
        choices=tuple((g.key, g.label) for g in rules.going_out_offered),
    )
    fields = [went_out, *canasta_fields(rules), *three_fields(rules), *card_fields(rules)]
    fields += deduction_fields(rules)
    return tuple(fields)


def canasta_fields(rules: RuleSet) -> list[Field]:
    """A count of each kind of completed canasta (docs/rules.md, "Canastas")."""
    return [
        Field(f"{k.key}_canastas", "count", "canastas", k.label, max=30, key=k.key, spec=CANASTAS)
        for k in rules.canasta_kinds
    ]


def three_fields(rules: RuleSet) -> list[Field]:
    """Red threes; Modern's melded black threes; Canadian black threes left in hand (docs/rules.md,
    "Red and black threes")."""
    fields = [Field("red_threes", "count", "threes", N_("Red threes"), max=rules.red_threes_in_deck, spec=THREES)]
    if rules.black_three_values:
        label = rules.term("black_threes", N_("Black threes"))
        fields.append(
            Field("black_threes", "count", "threes", label, max=len(rules.black_three_values) - 1, spec=THREES)
        )
    if rules.black_three_in_hand:
        fields.append(
            Field(
                "black_threes_in_hand",
                "count",
                "threes",
                N_("Black threes in hand (−%(points)s)"),
                max=rules.cards_in_deck["black_threes"],
                points=rules.black_three_in_hand,
                spec=PENALTIES_HEADING,
            )
        )
    return fields


def card_fields(rules: RuleSet) -> list[Field]:
    """Whether the side melded, its melded cards and the cards left in hand, as points or counts."""
    return [
        HAS_MELDED,
        replace(MELDED_POINTS, max=rules.max_card_points),
        _narrowed(MELDED_CARDS, rules, rules.melded_card_groups),
        replace(HAND_POINTS, max=rules.max_card_points),
        _in_hand(rules),
    ]


def _deduction_field(prefix: str, group_name: str, d: Deduction, most: int) -> Field:
    """A count of one of the rule set's deductions."""
    return Field(f"{prefix}_{d.key}", "count", group_name, d.label, max=most, key=d.key, points=d.points, spec=d.spec)


def deduction_fields(rules: RuleSet) -> list[Field]:
    """Unfinished melds, players holding (at most one per player of the side), the exact cut, the
    offences of the rule book and penalty points entered by hand (docs/rules.md, "Penalties")."""
    fields = [_deduction_field("incomplete", "incomplete", d, d.max_count) for d in rules.incomplete_melds]
    fields += [
        _deduction_field("holding", "holding", d, min(d.max_count, rules.side_size)) for d in rules.holding_penalties
    ]
    if rules.exact_cut_bonus:
        fields.append(replace(EXACT_CUT, points=rules.exact_cut_bonus))
    fields += [_deduction_field("offence", "offences", d, d.max_count) for d in rules.penalty_catalogue]
    fields.append(PENALTIES)
    return fields


def group(fields: tuple[Field, ...], name: str) -> tuple[Field, ...]:
    """The fields of one group."""
    return tuple(f for f in fields if f.group == name)
