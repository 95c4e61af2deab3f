"""Reading one side's entry into card points: every figure a whole number within its field's limits.

Which fields a rule set's side has, their kinds and limits, is the table in ``core/entry.py``. Every
problem names the side and the field it belongs to, so a form can show the message beside that field.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from scorekeeper.core import numbers
from scorekeeper.core.entry import FRAME, Field, shape, side_fields
from scorekeeper.core.messages import N_, Msg, Problem
from scorekeeper.core.rulesets import RuleSet
from scorekeeper.core.scoring import SideHand, card_points

POINT_FIELDS = tuple(f.name for f in FRAME if f.kind == "points")
CARD_FIELDS = {f.name: f.pair for f in FRAME if f.kind == "points" and f.pair}  # points → its card counts
MAX_FIGURE = 10**9  # larger is a slip of the thumb or an attack, refused before any other check


@dataclass(frozen=True)
class ReadSide:
    """One side's entry read into card points, with the counts it came from (if any)."""

    hand: SideHand
    melded_cards: dict[str, int] | None
    hand_cards: dict[str, int] | None
    # black threes given among the cards left in hand where one costs a penalty of its own: in
    # ``hand.black_threes_in_hand`` too, at that penalty (``_at_their_penalty``)
    black_threes_at_penalty: int = 0


def count_fields(rules: RuleSet) -> dict[str, int]:
    """The whole-number fields a side of this rule set has, each with the most it can be."""
    return {f.name: f.max for f in side_fields(rules) if f.kind == "count"}


def known_fields(rules: RuleSet) -> set[str]:
    """Every field a side entry of this rule set may have."""
    return {f.name for f in side_fields(rules)}


def whole_number(value: Any) -> int | None:
    """An integer, or a whole number as text by the rule of ``core.numbers`` (a figure stored long ago
    as "50"); None if it is not a whole number (bools are not numbers). The JSON endpoints take only
    JSON integers: their types refuse text and fractions before the checks read a hand."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return numbers.whole(value, signed=True)


def read_count(raw: Mapping[str, Any], key: str, side: int, problems: list[Problem], field: str | None = None) -> int:
    """A count or point figure: missing or empty is 0; anything else must be a whole number ≥ 0."""
    field = field or key
    value = raw.get(key)
    if value is None or value == "":
        return 0
    number = whole_number(value)
    if number is None:
        problems.append(Problem(side, field, N_("Enter a whole number.")))
        return 0
    if number < 0:
        problems.append(Problem(side, field, N_("Cannot be negative.")))
        return 0
    if number > MAX_FIGURE:  # no figure of a hand comes near; and never echo a number of thousands of digits
        problems.append(Problem(side, field, N_("This is far too large to be a score.")))
        return 0
    return number


def read_cards(rules: RuleSet, raw: Any, side: int, field: Field, problems: list[Problem]) -> dict[str, int]:
    """Card counts by value group; each count a whole number within what the deck holds.

    docs/rules.md, "Card values" (the deck's cards of each kind)."""
    groups = tuple(card.key for card in field.cards)
    if not isinstance(raw, Mapping):
        problems.append(
            Problem(
                side, field.name, N_("Give card counts as an object with keys %(keys)s."), {"keys": ", ".join(groups)}
            )
        )
        return {}
    for key in raw:
        if key not in groups:
            problems.append(
                Problem(side, f"{field.name}.{key}", N_("Unknown card group %(key)s here."), {"key": repr(key)})
            )
    counts: dict[str, int] = {}
    for card in field.cards:
        name = f"{field.name}.{card.key}"
        counts[card.key] = read_count(raw, card.key, side, problems, name)
        if card.max is not None and counts[card.key] > card.max:
            problems.append(
                Problem(
                    side,
                    name,
                    N_("The deck holds only %(count)s cards of the kind “%(cards)s”."),
                    {"count": card.max, "cards": Msg(card.label)},
                )
            )
    return counts


def check_points(field: Field, value: int, side: int, problems: list[Problem]) -> None:
    """A point figure is a multiple of 5 and within what the deck holds (or a penalty).

    docs/rules.md, "How a hand is scored" (every value a multiple of 5)."""
    if value % field.step:
        problems.append(
            Problem(side, field.name, N_("Points are always a multiple of 5; %(value)s is not."), {"value": value})
        )
    if field.max is not None and value > field.max:
        text = (
            N_("%(value)s is more than a penalty (%(limit)s).")
            if field.group == "penalties"
            else N_("%(value)s is more than the whole deck holds (%(limit)s).")
        )
        problems.append(Problem(side, field.name, text, {"value": value, "limit": field.max}))


def read_flag(raw: Mapping[str, Any], field: Field, side: int, problems: list[Problem]) -> bool | None:
    """True or false; left out (or, where it has a default, empty) gives the default."""
    value = raw.get(field.name)
    if field.default is not None and value in (None, ""):
        return field.default
    if value is None or isinstance(value, bool):
        return value
    text = (
        N_("has_melded must be true, false or left out.")
        if field.default is None
        else N_("exact_cut must be true or false.")
    )
    problems.append(Problem(side, field.name, text))
    return field.default


def _unknown_fields(rules: RuleSet, raw: Mapping[str, Any], known: set[str], side: int) -> list[Problem]:
    """A problem for each key the rule set's side entry does not have."""
    return [
        Problem(side, key, N_("Unknown field %(field)s for %(rules)s."), {"field": repr(key), "rules": Msg(rules.name)})
        for key in raw
        if key not in known
    ]


def _read_figure(
    rules: RuleSet, raw: Mapping[str, Any], f: Field, paired: Field | None, side: int, problems: list[Problem]
) -> tuple[int, dict[str, int] | None]:
    """A figure given in points, or in card counts (its pair): its points, and the counts if given so."""
    if paired is None or raw.get(paired.name) is None:
        value = read_count(raw, f.name, side, problems)
        check_points(f, value, side, problems)
        return value, None
    if raw.get(f.name) not in (None, ""):
        problems.append(
            Problem(
                side,
                f.name,
                N_("Give either %(points)s or %(cards)s, not both."),
                {"points": f.name, "cards": paired.name},
            )
        )
    counts = read_cards(rules, raw[paired.name], side, paired, problems)
    return card_points(rules, counts), counts


def _read_capped_count(raw: Mapping[str, Any], f: Field, side: int, problems: list[Problem]) -> int:
    """A whole number of things, at most the field's limit (0 when over it)."""
    value = read_count(raw, f.name, side, problems)
    if f.max is not None and value > f.max:
        problems.append(Problem(side, f.name, N_("At most %(most)s."), {"most": f.max}))
        return 0
    return value


def _read_way_out(rules: RuleSet, raw: Mapping[str, Any], f: Field, side: int, problems: list[Problem]) -> str | None:
    """The way the side went out, or None.

    Every way of the rule set is read (a stored hand keeps its score); ``check_side`` refuses one the
    seating does not offer (docs/rules.md, Austrian rulebook, "Going out": only with a partner)."""
    value = raw.get(f.name)
    if value in ("", "no", False):
        return None
    if value is not None and rules.going_out_kind(value) is None:
        allowed = ", ".join(f'"{key}"' for key, _label in f.choices)
        problems.append(Problem(side, f.name, N_("Went out must be null or one of %(allowed)s."), {"allowed": allowed}))
        return None
    return value


def _side_hand(fields: Sequence[Field], values: Mapping[str, Any]) -> SideHand:
    """The side's figures as the scoring reads them."""

    def by_key(group: str) -> dict[str, int]:
        return {f.key: values[f.name] for f in fields if f.group == group and f.kind == "count"}

    canastas = by_key("canastas")
    return SideHand(
        melded_points=values["melded_points"],
        hand_points=values["hand_points"],
        natural_canastas=canastas.pop("natural", 0),
        mixed_canastas=canastas.pop("mixed", 0),
        red_threes=values["red_threes"],
        went_out=values["went_out"],
        has_melded=values["has_melded"],
        penalties=values["penalties"],
        other_canastas=canastas,
        black_threes=values.get("black_threes", 0),
        black_threes_in_hand=values.get("black_threes_in_hand", 0),
        exact_cut=values.get("exact_cut", False),
        incomplete_melds=by_key("incomplete"),
        holding=by_key("holding"),
        offences=by_key("offences"),
    )


def read_side(rules: RuleSet, raw: Any, side: int, problems: list[Problem]) -> ReadSide:
    """Read one side's raw entry; append a Problem for every field that is not a valid figure."""
    if not isinstance(raw, Mapping):
        problems.append(Problem(side, "side", N_("Each side must be an object with the side's figures.")))
        return ReadSide(SideHand(), None, None)
    fields = side_fields(rules)
    by_name = {f.name: f for f in fields}
    problems.extend(_unknown_fields(rules, raw, set(by_name), side))
    values: dict[str, Any] = {}
    cards: dict[str, dict[str, int] | None] = {}
    for f in (f for f in fields if f.kind == "points"):
        paired = by_name.get(f.pair)
        values[f.name], counts = _read_figure(rules, raw, f, paired, side, problems)
        if paired is not None:
            cards[paired.name] = counts
    for f in (f for f in fields if f.kind == "count"):
        values[f.name] = _read_capped_count(raw, f, side, problems)
    for f in (f for f in fields if f.kind == "choice"):
        values[f.name] = _read_way_out(rules, raw, f, side, problems)
    for f in (f for f in fields if f.kind == "flag"):
        values[f.name] = read_flag(raw, f, side, problems)
    hand, hand_cards = _side_hand(fields, values), cards.get("hand_cards")
    moved = (hand_cards or {}).get("black_threes", 0) if rules.black_three_in_hand else 0
    if moved:
        hand = _at_their_penalty(rules, hand, moved)
    return ReadSide(hand, cards.get("melded_cards"), hand_cards, moved)


def _at_their_penalty(rules: RuleSet, hand: SideHand, black_threes: int) -> SideHand:
    """Black threes given among the cards left in hand (by the API, or a form of the page before) where a
    black three left in hand costs a penalty of its own: counted as the pad's row of them counts them, at
    that penalty instead of their card value (docs/rules.md, "A table's own rules"), so that one hand
    scores alike however it is sent."""
    return replace(
        hand,
        hand_points=hand.hand_points - black_threes * rules.card_values["black_threes"],
        black_threes_in_hand=hand.black_threes_in_hand + black_threes,
    )


def read_lone(rules: RuleSet, lone: Any, problems: list[Problem]) -> int | None:
    """The lone player of a classic 3-player hand: a seat index, or None when each scored alone.

    docs/rules.md, "Classic Canasta (3 players)"."""
    if not rules.lone_player:
        if lone is not None:
            problems.append(Problem(None, "lone", N_("Only classic 3-player games have a lone player.")))
        return None
    if lone is None:
        return None
    if isinstance(lone, bool) or not isinstance(lone, int) or not 0 <= lone < rules.sides:
        problems.append(
            Problem(None, "lone", N_("lone must be a player index 0–%(last)s or null."), {"last": rules.sides - 1})
        )
        return None
    return lone


def stored_entry(raw_sides: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """An entry that passed ``read_hand``, as the hand form stores it: figures as whole numbers
    ("50", 50.0, " 50 " → 50; empty → 0), not going out as null, so the statistics and the API read
    one shape whichever way the hand came in. Each field is stored by its kind (``entry.shape``)."""
    return [_stored_side(raw) for raw in raw_sides]


def _stored_side(raw: Mapping[str, Any]) -> dict[str, Any]:
    """One side of ``stored_entry``."""
    side: dict[str, Any] = {}
    for key, value in raw.items():
        field = shape(key)
        if field.kind == "cards":
            if value is not None:
                side[key] = {card: whole_number(count) or 0 for card, count in value.items() if count not in (None, "")}
        elif field.kind == "choice":
            side[key] = None if value in ("", "no", False) else value
        elif field.kind == "flag":
            side[key] = value if field.default is None else bool(value)
        else:
            side[key] = whole_number(value) or 0
    return side
