"""Checks that catch miscounts in a hand entry, and the reading of an entry into card points.

A hand entry is a list of one dict per side, in the shape the JSON API takes and the database
stores (see ``docs/api.md``): ``melded_points`` or ``melded_cards`` (counts by value group),
``hand_points`` or ``hand_cards``, ``natural_canastas``, ``mixed_canastas``, ``red_threes``,
``went_out`` (None, "normal", "concealed"), optional ``has_melded`` and ``penalties``. Which fields a
rule set's side has, their kinds and limits, is the table in ``entry.py``.

Pure: no Flask, no database. Every problem names the side and the field it belongs to, so a
form can show the message beside that field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from scorekeeper.core.entry import FRAME, Field, group, shape, side_fields
from scorekeeper.core.entry import MAX_PENALTY as MAX_PENALTY  # re-exported
from scorekeeper.core.messages import N_, Msg, Problem
from scorekeeper.core.scoring import SideHand, card_points, pool
from scorekeeper.core.variants import CARD_GROUP_KEYS, CARD_GROUPS, RANKS, RuleSet

POINT_FIELDS = tuple(f.name for f in FRAME if f.kind == "points")
CARD_FIELDS = {f.name: f.pair for f in FRAME if f.kind == "points" and f.pair}  # points → its card counts
MAX_FIGURE = 10**9  # larger is a slip of the thumb or an attack, refused before any other check
GROUP_LABELS = dict(CARD_GROUPS)


def count_fields(rules: RuleSet) -> dict[str, int]:
    """The whole-number fields a side of this rule set has, each with the most it can be."""
    return {f.name: f.max for f in side_fields(rules) if f.kind == "count"}


def known_fields(rules: RuleSet) -> set[str]:
    """Every field a side entry of this rule set may have."""
    return {f.name for f in side_fields(rules)}


def _int(value: Any) -> int | None:
    """An integer from JSON or a form; None if it is not a whole number (bools are not numbers)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value.strip()):
        try:
            return int(value.strip())
        except ValueError:  # thousands of digits: more than Python reads as a number, and no figure
            return None
    return None


def _read_count(raw: Mapping[str, Any], key: str, side: int, problems: list[Problem], field: str | None = None) -> int:
    """A count or point figure: missing or empty is 0; anything else must be a whole number ≥ 0."""
    field = field or key
    value = raw.get(key)
    if value is None or value == "":
        return 0
    number = _int(value)
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


def _read_cards(rules: RuleSet, raw: Any, side: int, field: Field, problems: list[Problem]) -> dict[str, int]:
    """Card counts by value group; each count a whole number within what the deck holds."""
    groups = tuple(card.key for card in field.cards)
    if not isinstance(raw, Mapping):
        problems.append(
            Problem(
                side, field.name, N_("Give card counts as an object with keys %(keys)s."), {"keys": ", ".join(groups)}
            )
        )
        return {}
    counts: dict[str, int] = {}
    for key in raw:
        if key not in groups:
            problems.append(
                Problem(side, f"{field.name}.{key}", N_("Unknown card group %(key)s here."), {"key": repr(key)})
            )
    for card in field.cards:
        name = f"{field.name}.{card.key}"
        number = _read_count(raw, card.key, side, problems, name)
        if card.max is not None and number > card.max:
            problems.append(
                Problem(
                    side,
                    name,
                    N_("The deck holds only %(count)s cards of the kind “%(cards)s”."),
                    {"count": card.max, "cards": Msg(card.label)},
                )
            )
        counts[card.key] = number
    return counts


def _check_points(field: Field, value: int, side: int, problems: list[Problem]) -> None:
    """A point figure is a multiple of 5 (§0 invariants) and within what the deck holds (or a penalty)."""
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


@dataclass(frozen=True)
class ReadSide:
    """One side's entry read into card points, with the counts it came from (if any)."""

    hand: SideHand
    melded_cards: dict[str, int] | None
    hand_cards: dict[str, int] | None


def _read_flag(raw: Mapping[str, Any], field: Field, side: int, problems: list[Problem]) -> bool | None:
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


def read_side(rules: RuleSet, raw: Any, side: int, problems: list[Problem]) -> ReadSide:
    """Read one side's raw entry; append a Problem for every field that is not a valid figure."""
    if not isinstance(raw, Mapping):
        problems.append(Problem(side, "side", N_("Each side must be an object with the side's figures.")))
        return ReadSide(SideHand(), None, None)
    fields = side_fields(rules)
    by_name = {f.name: f for f in fields}
    for key in raw:
        if key not in by_name:
            problems.append(
                Problem(
                    side,
                    key,
                    N_("Unknown field %(field)s for %(rules)s."),
                    {"field": repr(key), "rules": Msg(rules.name)},
                )
            )
    values: dict[str, Any] = {}
    cards: dict[str, dict[str, int] | None] = {}
    for f in (f for f in fields if f.kind == "points"):  # a figure in points, or in card counts (its pair)
        paired = by_name.get(f.pair)
        if paired is not None:
            cards[paired.name] = None
        if paired is not None and raw.get(paired.name) is not None:
            if raw.get(f.name) not in (None, ""):
                problems.append(
                    Problem(
                        side,
                        f.name,
                        N_("Give either %(points)s or %(cards)s, not both."),
                        {"points": f.name, "cards": paired.name},
                    )
                )
            counts = _read_cards(rules, raw[paired.name], side, paired, problems)
            cards[paired.name] = counts
            values[f.name] = card_points(rules, counts)
        else:
            values[f.name] = _read_count(raw, f.name, side, problems)
            _check_points(f, values[f.name], side, problems)
    for f in (f for f in fields if f.kind == "count"):
        values[f.name] = _read_count(raw, f.name, side, problems)
        if f.max is not None and values[f.name] > f.max:
            problems.append(Problem(side, f.name, N_("At most %(most)s."), {"most": f.max}))
            values[f.name] = 0
    for f in (f for f in fields if f.kind == "choice"):
        value = raw.get(f.name)
        if value in ("", "no", False):
            value = None
        # every way of the rule set is read (a stored hand keeps its score); check_side refuses one
        # the seating does not offer (§10.5 glatt ausmachen without a partner)
        if value is not None and rules.going_out_kind(value) is None:
            allowed = ", ".join(f'"{value}"' for value, _label in f.choices)
            problems.append(
                Problem(side, f.name, N_("Went out must be null or one of %(allowed)s."), {"allowed": allowed})
            )
            value = None
        values[f.name] = value
    for f in (f for f in fields if f.kind == "flag"):
        values[f.name] = _read_flag(raw, f, side, problems)

    def by_key(group: str) -> dict[str, int]:
        return {f.key: values[f.name] for f in fields if f.group == group and f.kind == "count"}

    canastas = by_key("canastas")
    hand = SideHand(
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
    return ReadSide(hand, cards.get("melded_cards"), cards.get("hand_cards"))


def check_side(rules: RuleSet, read: ReadSide, side: int, team: SideHand | None = None) -> list[Problem]:
    """Checks within one side: canastas against melded points, going out (§2.4, §6, §8.4, §9).

    ``team``: the pooled partnership this side belongs to this hand (classic 3 players), whose
    canastas count for going out."""
    hand = read.hand
    team = team or hand
    problems: list[Problem] = []
    least = sum(kind.min_points * hand.canasta_count(kind.key) for kind in rules.canasta_kinds)
    if hand.melded_points < least:
        problems.append(
            Problem(
                side,
                "melded_points",
                N_(
                    "1 canasta holds at least %(least)s points; melded cards are %(melded)s. "
                    "Melded points include the cards in canastas."
                )
                if hand.canastas == 1
                else N_(
                    "%(count)s canastas hold at least %(least)s points; melded cards are %(melded)s. "
                    "Melded points include the cards in canastas."
                ),
                {"count": hand.canastas, "least": least, "melded": hand.melded_points},
            )
        )
    if hand.has_melded is False and (hand.melded_points or hand.canastas):
        problems.append(Problem(side, "has_melded", N_("A side with melded cards or canastas has melded.")))
    kind = rules.going_out_kind(hand.went_out) if hand.went_out else None
    # §2.5: red threes alone are not a meld. A classic-3p partner's melds may stand under the other
    # partner (§5: pooled), so the partnership's melds count for him.
    if hand.has_melded and not (team.melded_points or team.canastas or team.black_threes):
        if not (kind is not None and kind.special):  # §8.5 element 6: a special hand scores only itself
            problems.append(
                Problem(
                    side,
                    "has_melded",
                    N_(
                        "Nothing is melded and there is no canasta, so this side has not melded "
                        "(red threes are no meld)."
                    ),
                )
            )
    if kind is not None and kind not in rules.going_out_offered:  # §10.5 glatt: the partner has a canasta
        problems.append(
            Problem(
                side,
                "went_out",
                N_("%(hand)s needs a partner who already has a canasta; here each player plays alone."),
                {"hand": Msg(kind.label)},
            )
        )
    if kind is not None and kind.special:
        # §8.5 element 6: a special hand is melded at once by a team that had not melded before
        if hand.melded_points or hand.canastas or any(hand.incomplete_melds.values()) or hand.black_threes:
            problems.append(
                Problem(
                    side,
                    "went_out",
                    N_("%(hand)s is only for a team that had not melded: leave its melds at 0."),
                    {"hand": Msg(kind.label)},
                )
            )
    elif kind is not None:
        natural = sum(team.canasta_count(k.key) for k in rules.canasta_kinds if k.natural)
        wild = sum(team.canasta_count(k.key) for k in rules.canasta_kinds if k.wild)
        if (
            team.canastas < rules.canastas_to_go_out
            or natural < rules.natural_canastas_to_go_out
            or wild < rules.wild_canastas_to_go_out
        ):
            if rules.wild_canastas_to_go_out:
                text = N_(
                    "Going out needs at least %(total)s completed canastas, %(natural)s natural and "
                    "%(wild)s wild-card; %(who)s has %(have)s."
                )
            elif rules.natural_canastas_to_go_out:
                text = N_(
                    "Going out needs at least %(total)s completed canastas, %(natural)s natural; %(who)s has %(have)s."
                )
            elif rules.canastas_to_go_out == 1:
                text = N_("Going out needs at least 1 completed canasta; %(who)s has %(have)s.")
            else:
                text = N_("Going out needs at least %(total)s completed canastas; %(who)s has %(have)s.")
            who = Msg(N_("the partnership")) if team is not hand else Msg(N_("this side"))
            problems.append(
                Problem(
                    side,
                    "went_out",
                    text,
                    {
                        "total": rules.canastas_to_go_out,
                        "natural": rules.natural_canastas_to_go_out,
                        "wild": rules.wild_canastas_to_go_out,
                        "who": who,
                        "have": team.canastas,
                    },
                )
            )
        blocking = [
            d.label
            for d in rules.incomplete_melds
            if d.key in rules.no_going_out_with_incomplete and hand.incomplete_melds.get(d.key)
        ]
        if blocking:
            problems.append(
                Problem(
                    side,
                    "went_out",
                    N_("House rule: no going out with this unfinished meld: %(meld)s."),
                    {"meld": Msg(blocking[0])},
                )
            )
        if rules.side_size == 1 and hand.hand_points:
            field = "hand_cards" if read.hand_cards is not None else "hand_points"
            problems.append(Problem(side, field, N_("A player who went out has no cards left in hand.")))
    melded_black = (read.melded_cards or {}).get("black_threes", 0)
    if melded_black:
        sets = (6,) if rules.cards_in_deck["black_threes"] == 6 and rules.black_three_in_hand else (3, 4)
        if not hand.went_out:
            problems.append(
                Problem(
                    side, "melded_cards.black_threes", N_("Black threes can only be melded by the player going out.")
                )
            )
        elif melded_black not in sets:
            problems.append(
                Problem(
                    side,
                    "melded_cards.black_threes",
                    N_("Black threes are melded as a set of all 6.")
                    if sets == (6,)
                    else N_("Black threes are melded as a set of 3 or 4."),
                )
            )
    return problems


def check_hand(
    rules: RuleSet, reads: Sequence[ReadSide], stock_out: bool | None = None, lone: int | None = None
) -> list[Problem]:
    """Checks across sides: one side went out or the stock ran out, threes and cards the deck holds."""
    problems: list[Problem] = []
    team = None
    if rules.lone_player and lone is not None:
        team = pool([read.hand for i, read in enumerate(reads) if i != lone])
    for index, read in enumerate(reads):
        problems.extend(check_side(rules, read, index, team if index != lone else None))
    out = [i for i, read in enumerate(reads) if read.hand.went_out]
    if len(out) > 1:
        for i in out:
            problems.append(Problem(i, "went_out", N_("Only one side can go out in a hand.")))
    if stock_out is True and out:
        problems.append(
            Problem(None, "stock_out", N_("A side went out, so the stock did not run out: untick one of them."))
        )
    if stock_out is False and not out:
        problems.append(Problem(None, "stock_out", N_("Mark the side that went out, or that the stock ran out.")))
    reds = sum(read.hand.red_threes for read in reads)
    if reds > rules.red_threes_in_deck:
        for i, read in enumerate(reads):
            if read.hand.red_threes:
                problems.append(
                    Problem(
                        i,
                        "red_threes",
                        N_("The deck has %(deck)s red threes; the sides entered %(entered)s in all."),
                        {"deck": rules.red_threes_in_deck, "entered": reds},
                    )
                )
    blacks = sum(
        read.hand.black_threes
        + read.hand.black_threes_in_hand
        + (read.melded_cards or {}).get("black_threes", 0)
        + (read.hand_cards or {}).get("black_threes", 0)
        for read in reads
    )
    if blacks > rules.cards_in_deck["black_threes"]:
        for i, read in enumerate(reads):
            for field in ("black_threes", "black_threes_in_hand"):
                if getattr(read.hand, field):
                    problems.append(
                        Problem(
                            i,
                            field,
                            N_("The deck has %(deck)s black threes; %(entered)s are entered in all."),
                            {"deck": rules.cards_in_deck["black_threes"], "entered": blacks},
                        )
                    )
    cuts = [i for i, read in enumerate(reads) if read.hand.exact_cut]
    if len(cuts) > 1:
        for i in cuts:
            problems.append(Problem(i, "exact_cut", N_("Only the team that did not deal gets the exact-cut bonus.")))
    for key in CARD_GROUP_KEYS:
        entered = sum((counts or {}).get(key, 0) for read in reads for counts in (read.melded_cards, read.hand_cards))
        if entered > rules.cards_in_deck[key]:
            for i, read in enumerate(reads):
                for field, counts in (("melded_cards", read.melded_cards), ("hand_cards", read.hand_cards)):
                    if counts and counts.get(key):
                        problems.append(
                            Problem(
                                i,
                                f"{field}.{key}",
                                N_(
                                    "The deck holds %(deck)s cards of the kind “%(cards)s”; "
                                    "%(entered)s are entered in all."
                                ),
                                {"deck": rules.cards_in_deck[key], "cards": Msg(GROUP_LABELS[key]), "entered": entered},
                            )
                        )
    # §1.1: the cards of all the sides together, melded and in hand, come from one deck
    points = sum(read.hand.melded_points + read.hand.hand_points for read in reads)
    if points > rules.max_card_points:
        for i, read in enumerate(reads):
            for field, value in (("melded_points", read.hand.melded_points), ("hand_points", read.hand.hand_points)):
                if value:
                    problems.append(
                        Problem(
                            i,
                            field,
                            N_(
                                "The sides' cards come to %(entered)s points in all; the whole deck "
                                "holds %(deck)s. Check the counts."
                            ),
                            {"entered": points, "deck": rules.max_card_points},
                        )
                    )
    problems.extend(_rank_problems(rules, reads))
    cards = sum(rules.cards_in_deck[key] for key in CARD_GROUP_KEYS)
    canastas = sum(read.hand.canasta_count(k.key) for read in reads for k in rules.canasta_kinds)
    if canastas * 7 > cards:
        for i, read in enumerate(reads):
            for f in group(side_fields(rules), "canastas"):
                if read.hand.canasta_count(f.key):
                    problems.append(
                        Problem(
                            i,
                            f.name,
                            N_(
                                "%(entered)s canastas in all need more cards than the "
                                "deck holds (%(most)s canastas at most)."
                            ),
                            {"entered": canastas, "most": cards // 7},
                        )
                    )
    return problems


def _rank_problems(rules: RuleSet, reads: Sequence[ReadSide]) -> list[Problem]:
    """Cards of one rank the entries imply across all sides, against the deck's (§8.3, §8.5, §13 D4).

    Each unfinished meld of pure aces or 7s has at least 3 of them, each player holding 3 or more at
    least 3, and a natural canasta of aces or 7s 7 of one of the two ranks: 8 aces in 108 cards."""
    deck = rules.cards_per_rank
    names = {(f.group, f.key): f.name for f in side_fields(rules)}
    # (field, the deduction, how many each side entered)
    rows = [
        (names[part, d.key], d, [getattr(read.hand, attribute).get(d.key, 0) for read in reads])
        for part, attribute, table in (
            ("incomplete", "incomplete_melds", rules.incomplete_melds),
            ("holding", "holding", rules.holding_penalties),
        )
        for d in table
        if d.rank
    ]
    least = {rank: sum(d.least * sum(n) for _f, d, n in rows if d.rank == rank) for rank in RANKS}
    over = {rank for rank, n in least.items() if n > deck}
    problems: list[Problem] = []
    for field, d, entered in rows:
        if d.rank in over:
            problems.extend(
                Problem(
                    i,
                    field,
                    N_(
                        "The deck holds %(deck)s %(cards)s; the unfinished melds and the players holding "
                        "3 or more entered in all need at least %(least)s."
                    ),
                    {"deck": deck, "cards": Msg(RANKS[d.rank]), "least": least[d.rank]},
                )
                for i, n in enumerate(entered)
                if n
            )
    for kind in rules.canasta_kinds:
        if not kind.ranks or over & set(kind.ranks):
            continue
        # 7 of one of its ranks each (§8.3: at most 7 cards a meld): they fit in the room the ranks have left
        entered = [read.hand.canasta_count(kind.key) for read in reads]
        if sum(entered) <= sum(max(deck - least[rank], 0) // 7 for rank in kind.ranks):
            continue
        for i, n in enumerate(entered):
            if n:
                problems.append(
                    Problem(
                        i,
                        names["canastas", kind.key],
                        N_(
                            "%(count)s × %(canasta)s: each takes 7 cards of one rank and the deck holds %(deck)s "
                            "of each; with the unfinished melds and players holding 3 or more entered, they do not fit."
                        ),
                        {"count": sum(entered), "canasta": Msg(kind.label), "deck": deck},
                    )
                )
        for field, d, counts in rows:
            if d.rank in kind.ranks:
                problems.extend(
                    Problem(
                        i,
                        field,
                        N_("The deck cannot hold this with the %(canasta)s entered: each takes 7 cards of one rank."),
                        {"canasta": Msg(kind.label)},
                    )
                    for i, n in enumerate(counts)
                    if n
                )
    return problems


def read_lone(rules: RuleSet, lone: Any, problems: list[Problem]) -> int | None:
    """The lone player of a classic 3-player hand (§5): a seat index, or None when each scored alone."""
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


def read_hand(
    rules: RuleSet, raw_sides: Any, stock_out: Any = None, lone: Any = None
) -> tuple[list[SideHand], list[Problem]]:
    """Read and check a whole hand entry: the sides in card points, and every problem found.

    ``stock_out`` says the hand ended because the stock ran out; None leaves it unchecked.
    ``lone``: classic 3 players, the player who played alone (None: each scored alone).
    """
    if not isinstance(raw_sides, Sequence) or isinstance(raw_sides, (str, bytes)) or len(raw_sides) != rules.sides:
        return [], [Problem(None, "sides", N_("Give exactly %(count)s sides."), {"count": rules.sides})]
    problems: list[Problem] = []
    if stock_out is not None and not isinstance(stock_out, bool):
        problems.append(Problem(None, "stock_out", N_("stock_out must be true, false or left out.")))
        stock_out = None
    reads = [read_side(rules, raw, i, problems) for i, raw in enumerate(raw_sides)]
    lone = read_lone(rules, lone, problems)
    if rules.lone_player and lone is None and any(read.hand.went_out for read in reads):
        problems.append(
            Problem(
                None,
                "lone",
                N_("Mark who played alone: a player who goes out before anyone took the pile plays alone."),
            )
        )
    # Cross checks run too, so every mistake shows at once; a field that could not be read
    # keeps only its own message (its value counted as 0 would mislead the other checks).
    unreadable = {(p.side, p.field) for p in problems}
    problems.extend(p for p in check_hand(rules, reads, stock_out, lone) if (p.side, p.field) not in unreadable)
    return [read.hand for read in reads], problems


def stored_entry(raw_sides: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """An entry that passed ``read_hand``, as the hand form stores it: figures as whole numbers
    ("50", 50.0, " 50 " → 50; empty → 0), not going out as null, so the statistics and the API read
    one shape whichever way the hand came in. Each field is stored by its kind (``entry.shape``)."""
    entry = []
    for raw in raw_sides:
        side: dict[str, Any] = {}
        for key, value in raw.items():
            field = shape(key)
            if field.kind == "cards":
                if value is not None:
                    side[key] = {card: _int(count) or 0 for card, count in value.items() if count not in (None, "")}
            elif field.kind == "choice":
                side[key] = None if value in ("", "no", False) else value
            elif field.kind == "flag":
                side[key] = value if field.default is None else bool(value)
            else:
                side[key] = _int(value) or 0
        entry.append(side)
    return entry


def plausibility_warnings(
    rules: RuleSet, sides: Sequence[SideHand], minimums: Sequence[int], lone: int | None = None
) -> list[Problem]:
    """Figures that are possible but unlikely: melded points above 0 yet below the side's opening
    minimum for this hand (§13a). A way of going out that waives the minimum (concealed §2.3,
    Hand-Canasta §7/§10.5, a Modern special hand §8.2) is not warned about, nor a Modern side with a
    natural or wild canasta, which may have opened with a splash (§8.2). The form asks to confirm these;
    the API reports them without refusing.

    Classic 3 players with a lone player (§5): the partner who melds first meets his own minimum
    and the other then melds freely, so the partners are warned only when their melds together
    are below the lower of their two minimums."""
    warnings = []
    partners = [i for i in range(len(sides)) if i != lone] if rules.lone_player and lone is not None else []
    pooled = sum(sides[i].melded_points for i in partners)
    lowest = min((minimums[i] for i in partners), default=0)
    for index, (side, minimum) in enumerate(zip(sides, minimums)):
        kind = rules.going_out_kind(side.went_out) if side.went_out else None
        if index in partners:
            if not (0 < side.melded_points and pooled < lowest):
                continue
            minimum = lowest
        if rules.splash_opening and any(side.canasta_count(k.key) for k in rules.canasta_kinds if k.natural or k.wild):
            continue  # §8.2, §13a: it may have opened with a splash, which needs no minimum
        if 0 < side.melded_points < minimum and not (kind and kind.waives_minimum):
            warnings.append(
                Problem(
                    index,
                    "melded_points",
                    N_(
                        "Melded cards %(melded)s are below this side's opening meld of %(minimum)s. "
                        "Check the count; if it is right, confirm below."
                    ),
                    {"melded": side.melded_points, "minimum": minimum},
                )
            )
    return warnings
