"""The JSON API's requests and answers as types: ``GET /api/openapi.json`` is generated from them.

Requests are pydantic models, validated strictly (``true`` is no number, ``5.0`` and ``"5"`` no whole
number): they check the shape of what arrives (types, ranges, multiples of 5); what depends on the rule
set (its layouts, its settings, how many sides, a hand's figures) is checked against the rule tables
(``checks.read_hand``), which give the messages; a hand's field the types refuse and the checks would
read (a figure sent as text, ``"100"``) is refused with a message of its own (``hand_problems``).
Answers are TypedDicts: the endpoints build them as plain dicts, so what is sent is what is built, and
the document says which keys each one has.
The rule sets' ids, setting keys, side fields and ways of going out are read from the rule tables.
The tournaments' answers are in ``api_tournament_models`` (this module holds the rest).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SkipValidation, ValidationError
from typing_extensions import NotRequired, TypedDict

from scorekeeper.core import checks, rulesets
from scorekeeper.core.messages import N_, Problem
from scorekeeper.storage import records

_POINT_FIELDS = ("melded_points", "hand_points", "penalties")
_CARD_FIELDS = ("melded_cards", "hand_cards")
_FLAG_FIELDS = ("has_melded", "exact_cut")


def _configured_rule_sets() -> list[rulesets.RuleSet]:
    """Every rule set in every layout, with every house rule at each of its values (the side fields
    and ways of going out differ with them)."""
    out = []
    for rules in rulesets.RULE_SETS.values():
        for layout in rules.layouts:
            out.append(rulesets.configure(rules, {}, layout.key))
            for setting in rules.settings:
                for value, _label in setting.choices:
                    out.append(rulesets.configure(rules, {setting.key: value}, layout.key))
            for own in _OWN_TABLES:  # a table's own kinds and black threes in hand bring fields and ways out
                out.append(rulesets.configure(rules, own, layout.key))
    return out


_OWN = {f"own_{n}_name": "x" for n in (1, 2, 3)} | {"black_three_in_hand": 100}
_OWN_TABLES = [_OWN | {f"own_{n}_kind": kind for n in (1, 2, 3)} for kind in ("canasta", "special")]


_CONFIGURED = _configured_rule_sets()
VariantId = Literal[tuple(rulesets.RULE_SETS)]
SettingKey = Literal[tuple(sorted({s.key for r in rulesets.RULE_SETS.values() for s in r.settings}))]
WayOut = Literal[tuple(sorted({g.key for r in _CONFIGURED for g in r.going_out}))]
Action = Literal[tuple(sorted(records.ACTIONS))]
Choice = str | int | bool
Count = Annotated[int, Field(ge=0)]
Points = Annotated[int, Field(ge=0, multiple_of=5)]
Index = Annotated[int, Field(ge=0)]
Id = Annotated[int, Field(ge=1)]

CardCounts = TypedDict(
    "CardCounts",
    {key: NotRequired[Count | None] for key in rulesets.CARD_GROUP_KEYS},
    closed=True,
)
CardCounts.__doc__ = "Card counts by value, instead of the points figure."


def _side_field(name: str) -> Any:
    """The type of one SIDE field."""
    if name == "went_out":
        return Annotated[WayOut | None, Field(description="how the side went out; null: it did not")]
    if name in _FLAG_FIELDS:
        return bool | None
    if name in _CARD_FIELDS:
        return CardCounts | None
    return (Points if name in _POINT_FIELDS else Count) | None


Side = TypedDict(
    "Side",
    {name: NotRequired[_side_field(name)] for name in sorted(set().union(*map(checks.known_fields, _CONFIGURED)))},
    closed=True,
)
Side.__doc__ = (
    "One side's figures for one hand (docs/api.md, SIDE); missing counts and points are 0. Every field of any "
    "rule set: each rule set refuses the fields it does not have, with a 422."
)
Sides = Annotated[list[Side], Field(min_length=2, max_length=3)]
LONE = "classic-3p: who played alone"


MOST_HANDS = 10_000  # a hand's number: far above any game's (hands_limit is at most 200)


class ScoreRequest(BaseModel):
    """One hand to score, with the totals before it; nothing is stored."""

    model_config = ConfigDict(strict=True, extra="forbid")

    variant: VariantId = Field(description="a rule set's id")
    layout: str | None = Field(None, description="a layout of the rule set (default: its first)")
    settings: dict[SettingKey, Choice] | None = Field(
        None, description="house rules: setting key → value; left out: the default"
    )
    values: dict[str, Choice | list[int]] | None = Field(
        None,
        description="the table's own values: name → value (GET /api/variants lists each rule set's); left out: "
        "the default; applied after settings",
    )
    target: Annotated[int, Field(ge=0, le=100_000, multiple_of=5)] | None = Field(
        None, description="a custom target; 0 or null: the rule set's"
    )
    totals_before: list[Annotated[int, Field(ge=-(10**7), le=10**7, multiple_of=5)]] = Field(
        default_factory=list, description="each side's total before the hand; default all 0"
    )
    hand: Annotated[int, Field(ge=1, le=MOST_HANDS)] | None = Field(
        None,
        description="the hand's number in its game, from 1: with hands_limit the game ends after that many "
        "hands; left out: not counted, so hands_limit never ends it",
    )
    # the hand itself is checked against the rule set too (checks.read_hand), which gives its messages
    sides: Sides
    lone: SkipValidation[Index | None] = Field(None, description=LONE)
    stock_out: SkipValidation[bool | None] = Field(None, description="true: nobody went out; null: unchecked")


class HandRequest(BaseModel):
    """The next hand of a game, sent by a phone's queue."""

    model_config = ConfigDict(strict=True, extra="ignore")

    client_key: str = Field(
        min_length=8, max_length=64, description="the phone's key for this hand: sent again, it is stored once"
    )
    based_on: Index | None = Field(
        None, description="the number of hands the phone knew of; another phone's hand since: 409"
    )
    sides: Sides
    stock_out: bool | None = Field(None, description="true: nobody went out (left out: false)")
    lone: Index | None = Field(None, description=LONE)


def _refused(model: type[BaseModel], body: dict[str, Any]) -> list[dict[str, Any]]:
    """Each refusal of ``model`` for ``body`` (pydantic's errors: the place, the kind)."""
    try:
        model.model_validate(body)
    except ValidationError as error:
        return list(error.errors())
    return []


def refusals(model: type[BaseModel], body: dict[str, Any]) -> dict[str, set[tuple[Any, ...]]]:
    """What ``model`` refuses in ``body``: each top-level field with the places inside it."""
    found: dict[str, set[tuple[Any, ...]]] = {}
    for problem in _refused(model, body):
        found.setdefault(str(problem["loc"][0]), set()).add(tuple(problem["loc"][1:]))
    return found


NOT_AN_INTEGER = N_(
    "A whole number here, written as a JSON number: not in quotes, no decimal point, not true or false."
)
NOT_OF_THE_TYPE = N_("Not a value this field takes; see GET /api/openapi.json.")
HAND_FIELDS = ("sides", "stock_out", "lone")


def _place(loc: tuple[Any, ...]) -> tuple[int | None, str]:
    """The side and field of a refusal inside a hand, as the checks name them (``melded_cards.high``)."""
    if loc[0] != "sides" or len(loc) == 1:
        return None, str(loc[0])
    if len(loc) == 2:
        return loc[1], "side"
    return loc[1], ".".join(str(part) for part in loc[2:])


def hand_problems(model: type[BaseModel], body: dict[str, Any], found: list[Problem]) -> list[Problem]:
    """The problems of the hand in ``body``: the checks' (``found``), and what the type refuses in the
    hand's fields (``HAND_FIELDS``) besides, a problem each at its side and field. A figure the checks
    read as a number though it is none in JSON (``"100"``, ``100.0``) is said to be written wrong, in
    place of what the checks made of it; where they could not read it ("abc", ``true``: "Enter a whole
    number.") or found the field wrong otherwise, their message stands."""
    said = {(p.side, p.field) for p in found}
    superseded: set[tuple[int | None, str]] = set()
    extra: list[Problem] = []
    for refusal in _refused(model, body):
        loc = refusal["loc"]
        if loc[0] not in HAND_FIELDS:
            continue
        side, field = _place(loc)
        read_as_number = refusal["type"] == "int_type" and checks.whole_number(refusal["input"]) is not None
        if not read_as_number and ({(None, loc[0]), (side, field), (side, "side")} & said):
            continue
        superseded.add((side, field))
        said.add((side, field))
        extra.append(Problem(side, field, NOT_AN_INTEGER if refusal["type"] == "int_type" else NOT_OF_THE_TYPE))
    return [p for p in found if (p.side, p.field) not in superseded] + extra


# Answers ---------------------------------------------------------------------------------------


class Error(TypedDict, closed=True):
    """One problem: the side, the field and what is wrong."""

    side: Annotated[Index | None, Field(description="the side's index, or null")]
    field: Annotated[str, Field(description="the field (`field.key` inside card counts)")]
    message: Annotated[str, Field(min_length=1, description="what is wrong, in the reader's language")]
    shared: Annotated[bool, Field(description="true: a sentence about several fields together, said once")]


class Errors(TypedDict, closed=True):
    """Every refusal: the problems found."""

    errors: Annotated[list[Error], Field(min_length=1)]


class Line(TypedDict, closed=True):
    """One named line of a breakdown."""

    item: str
    label: str
    points: int


class SideScore(TypedDict, closed=True):
    """One side's hand score, its breakdown, its total after the hand and its next opening minimum."""

    score: Annotated[int, Field(description="the hand score")]
    breakdown: Annotated[list[Line], Field(description="named lines that add up to the score")]
    total: Annotated[int, Field(description="the side's total after the hand")]
    opening_minimum: Annotated[int, Field(description="the side's opening minimum for the next hand")]


class Result(TypedDict, closed=True):
    """Who won and by how much."""

    finished: bool
    winner: Annotated[Index | None, Field(description="the winning side, or null")]
    margin: Annotated[int | None, Field(description="the winner's lead, or null")]
    tie: Annotated[bool, Field(description="sides level at the top at or above the target")]
    leads: list[int] | None


class ScoreAnswer(Result, closed=True):
    """The scored hand: each side's score, breakdown, total and minimum; the result."""

    variant: str
    sides: list[SideScore]
    warnings: Annotated[list[Error], Field(description="possible but unlikely figures")]


class HandStored(TypedDict, closed=True):
    """A stored hand."""

    id: Annotated[Id, Field(description="the hand's id")]
    duplicate: Annotated[bool, Field(description="true: stored before with this client_key")]


class Change(TypedDict, closed=True):
    """One entry of a game's change log."""

    at: Annotated[str, Field(description="when, ISO 8601 in UTC")]
    action: Action
    hand: Annotated[Id | None, Field(description="the hand's id, null for the game")]
    phone: Annotated[str | None, Field(description='the phone\'s name (or "phone N"), if known')]
    before: Annotated[dict[str, Any] | None, Field(description="what it was (a hand's entry), null if new")]
    after: Annotated[dict[str, Any] | None, Field(description="what it became, null if deleted")]


class Version(TypedDict, closed=True):
    """The game's version: it rises with every change."""

    version: Annotated[int, Field(ge=0)]


class RatedPlayer(TypedDict, closed=True):
    """A player with his rating (docs/ratings.md)."""

    id: Id
    name: str
    games: Annotated[int, Field(ge=0, description="rated games (finished, with another side)")]
    rating: Annotated[int | None, Field(description="(mu - 3 sigma) × 100, rounded; null before the first rated game")]
    uncertainty: Annotated[Count | None, Field(description="sigma × 100, rounded")]
    provisional: Annotated[bool, Field(description="fewer than 5 rated games")]


class Seat(TypedDict, closed=True):
    """A player in a seating."""

    id: int
    name: str


class TeamSide(TypedDict, closed=True):
    """One side of a seating and its predicted chance of winning."""

    players: list[Seat]
    chance: Annotated[float, Field(ge=0, le=1)]


class Seating(TypedDict, closed=True):
    """One way to seat the players."""

    sides: list[TeamSide]
    seats: Annotated[list[Seat], Field(description="the players in seat order, as the new-game form takes them")]
    start: Annotated[str, Field(description="the new-game page with these seats filled in")]


class Teams(TypedDict, closed=True):
    """Fair partners: every seating, the most even predicted chances first."""

    variant: VariantId
    layout: str
    seatings: Annotated[list[Seating], Field(min_length=1)]


class OpenAPIDocument(TypedDict):
    """An OpenAPI 3.1 document."""

    openapi: str
    info: dict[str, Any]
    paths: dict[str, Any]


class Layout(TypedDict, closed=True):
    """Who plays: the players' seats on each side."""

    key: str
    label: str
    players: int
    sides: list[list[int]]
    playing: int | None


class Canasta(TypedDict, closed=True):
    """A kind of canasta and its bonus."""

    field: str
    label: str
    bonus: int
    natural: bool
    wild: bool


class GoingOut(TypedDict, closed=True):
    """A way of going out and its bonus."""

    value: str
    label: str
    bonus: int
    special: bool
    waives_minimum: bool


class Deduction(TypedDict, closed=True):
    """A penalty-like row: an unfinished meld, cards held, an offence."""

    key: str
    label: str
    points: int
    max_count: int
    spec: str


OpeningMinimum = TypedDict(
    "OpeningMinimum", {"from": int | None, "to": int | None, "label": str, "minimum": int}, closed=True
)
OpeningMinimum.__doc__ = "A row of the opening-minimum table: the lowest and highest total (null: an open end)."
CardValues = TypedDict("CardValues", {key: int for key in rulesets.CARD_GROUP_KEYS}, closed=True)
CardValues.__doc__ = "A figure for each group of cards."


class Setting(TypedDict, closed=True):
    """A house rule, its default and its values."""

    key: SettingKey
    label: str
    default: Choice
    choices: list[Choice]
    spec: str


class ChangeableValue(TypedDict, closed=True):
    """A value of the rule set's table a table may change (docs/rules.md, "A table's own rules")."""

    name: Annotated[str, Field(description="stable: the key of `values` in POST /api/score")]
    label: str
    explanation: str
    kind: Literal["points", "count", "yes_no", "choice", "text", "list"]
    default: Annotated[Choice | list[int], Field(description="a list: opening minimums by the hand's number")]
    low: Annotated[int | None, Field(description="the least value (points and counts)")]
    high: Annotated[int | None, Field(description="the greatest value (points and counts)")]
    choices: Annotated[list[Choice] | None, Field(description="the values a yes/no or a choice takes")]
    group: str
    requires: Annotated[
        dict[str, Choice] | None,
        Field(description="the setting that brings this value into the list (null: always there)"),
    ]


class HouseRuleSet(TypedDict, closed=True):
    """A table's own rule set: a built-in one with some values changed."""

    id: Id
    name: str
    base: VariantId
    layout: str | None
    changes: Annotated[dict[str, Choice], Field(description="value name → value, only the changed ones")]
    version: Annotated[int, Field(ge=0)]


class Variant(TypedDict, closed=True):
    """A rule set with every table the scoring uses."""

    id: VariantId
    name: str
    spec: str
    summary: str
    players: int
    sides: int
    target: int
    layouts: list[Layout]
    card_values: CardValues
    cards_in_deck: CardValues
    canastas: list[Canasta]
    going_out: list[GoingOut]
    canastas_to_go_out: int
    natural_canastas_to_go_out: int
    wild_canastas_to_go_out: int
    red_three_values: list[int]
    red_three_sign: str
    black_three_values: list[int] | None
    black_three_in_hand: int | None
    exact_cut_bonus: int | None
    incomplete_melds: list[Deduction]
    holding_penalties: list[Deduction]
    penalty_catalogue: list[Deduction]
    side_fields: list[str]
    count_fields: dict[str, int]
    opening_minimums: list[OpeningMinimum]
    settings: list[Setting]
    values: Annotated[list[ChangeableValue], Field(description="every value a table may change, settings too")]


class Variants(TypedDict, closed=True):
    """Every rule set, and the table's own rule sets."""

    variants: list[Variant]
    house_rules: list[HouseRuleSet]


class GameSide(TypedDict, closed=True):
    """A side of a game and its players."""

    name: str
    players: list[str]


class Hand(TypedDict, closed=True):
    """A stored hand: the entry as typed, its dealer and each side's score."""

    id: Id
    number: Id
    dealer: str
    sitting_out: list[str]
    stock_out: bool | None
    lone: int | None
    entry: Annotated[list[Side], Field(description="the SIDE objects as typed")]
    sides: list[SideScore]
    after_end: Annotated[bool, Field(description="recorded after the hand that ended the game")]
    confirmed_by: Annotated[
        str | None,
        Field(
            pattern=r"^(side [1-9]|organiser)$",
            description='who confirmed it where its tournament asks the other side to: "side 1", "side 2" … (the '
            'game\'s sides in order) or "organiser"; null: not confirmed yet, or never asked (any other game)',
        ),
    ]


class Game(Result, closed=True):
    """A stored game: sides, every hand's entry and breakdown, totals, minimums and the result."""

    id: Id
    match: Annotated[
        Id | None, Field(description="the complete Game it is a Partie of (GET /api/matches/<id>), or null")
    ]
    partie: Annotated[int | None, Field(ge=1, le=3, description="its Partie's number in that Game, or null")]
    variant: VariantId
    layout: str
    settings: dict[str, Choice]
    values: Annotated[dict[str, Choice], Field(description="the values the game changed (its own rules)")]
    house_rules: Annotated[Id | None, Field(description="the table's own rule set it started from, or null")]
    target: int
    players: list[str]
    sides: list[GameSide]
    hands: list[Hand]
    totals: list[int]
    opening_minimums: list[int]
    next_dealer: str
