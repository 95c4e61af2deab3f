"""Rule sets as data: one frozen table per variant, every number cited to the scoring spec.

Section numbers (§) in comments refer to the team's scoring specification (players never see
them; docs/rules.md explains every rule in the project's own words). This module is pure data and
uses the standard library only; ``scoring.py`` and ``checks.py`` read these tables, the pages
render them (the reference page of each rule set is generated from them).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Callable, Mapping

from scorekeeper.core.messages import N_  # noqa: E402  (re-exported: the rule tables' texts are messages)

# The card-count pad: how people count cards at the table, grouped by value (§1.1).
CARD_GROUPS: tuple[tuple[str, str], ...] = (
    ("jokers", N_("Jokers")),
    ("twos_aces", N_("2s and aces")),
    ("high", N_("K to 8")),
    ("low", N_("7 to 4")),
    ("black_threes", N_("Black 3s")),
)
CARD_GROUP_KEYS = tuple(key for key, _ in CARD_GROUPS)
# Ranks a rule checks cards of one by one (Modern aces and 7s, §8.3, §8.5): the deck holds as many of
# each rank as it has of any rank (RuleSet.cards_per_rank).
RANKS: Mapping[str, str] = MappingProxyType({"aces": N_("aces"), "sevens": N_("7s")})


@dataclass(frozen=True)
class OpeningRow:
    """One row of an opening-meld table: totals from ``low`` to ``high`` (None = open end)."""

    low: int | None
    high: int | None
    minimum: int

    def covers(self, total: int) -> bool:
        """Whether a side with this total at the start of a hand falls in this row."""
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)

    @property
    def label(self) -> str:
        """The row's range in the words of the rule books ("negative", "0 – 1495", "3000 or more")."""
        if self.low is None and self.high == -5:
            return "negative"
        if self.low is None:
            return f"{self.high} or less"
        if self.high is None:
            return f"{self.low} or more"
        return f"{self.low} – {self.high}"


@dataclass(frozen=True)
class CanastaKind:
    """A kind of completed canasta and its bonus."""

    key: str  # the API field is f"{key}_canastas"
    label: str
    bonus: int
    natural: bool = False  # counts as natural ("clean") for a going-out requirement
    wild: bool = False  # a canasta of wild cards only
    min_points: int = 35  # the fewest card points a canasta of this kind can hold
    ranks: tuple[str, ...] = ()  # RANKS keys: seven natural cards of one of these ranks (§8.3: at most 7 a meld)


@dataclass(frozen=True)
class GoingOut:
    """A way of going out and the breakdown lines it scores."""

    key: str  # the API value of ``went_out``
    label: str
    lines: tuple[tuple[str, str, int], ...]  # (item, label, points) added to the hand score
    special: bool = False  # Modern special hand: the side scores only this (§8.5 element 6)
    waives_minimum: bool = False  # the opening minimum does not apply (§2.3 exception, §7, §10.5)
    partner: bool = False  # needs a partner (glatt ausmachen, §10.5): offered only where sides have partners

    @property
    def bonus(self) -> int:
        """The points this way of going out adds."""
        return sum(points for _item, _label, points in self.lines)


@dataclass(frozen=True)
class Deduction:
    """A fixed penalty: an incomplete meld, a player holding too many of a card, an offence."""

    key: str
    label: str
    points: int  # positive; deducted
    max_count: int = 1  # how many a side can have in one hand
    spec: str = ""
    rank: str = ""  # RANKS key: each one means at least ``least`` cards of this rank (card conservation)
    least: int = 0


@dataclass(frozen=True)
class Layout:
    """Who plays: players at the table and how they form the scoring sides."""

    key: str
    label: str
    players: int
    sides: tuple[tuple[int, ...], ...]  # seat indexes of each side
    sit_out: int = 0  # per hand, this many players of each side larger than the playing size rest
    playing: int = 0  # players per side who play a hand when some sit out (0: all)

    @property
    def side_size(self) -> int:
        """Players per side (the largest side)."""
        return max(len(seats) for seats in self.sides)

    @property
    def partners(self) -> bool:
        """Whether every side has partners: two or more players of it play each hand."""
        return min(min(len(seats), self.playing or len(seats)) for seats in self.sides) > 1


@dataclass(frozen=True)
class Setting:
    """A house rule a game can set, with the spec's default (§15)."""

    key: str
    label: str
    default: Any
    choices: tuple[tuple[Any, str], ...]
    spec: str
    apply: Callable[["RuleSet", Any], "RuleSet"] = field(compare=False, repr=False)


def _seats(*sides: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Sides as tuples of seat indexes."""
    return tuple(tuple(side) for side in sides)


# Seating: players are entered in seat order going round the table to the left.
ALONE_2 = Layout("2", N_("2 players, each for himself"), 2, _seats((0,), (1,)))
ALONE_3 = Layout("3", N_("3 players, each for himself"), 3, _seats((0,), (1,), (2,)))
PAIRS_4 = Layout("4", N_("4 players, 2 partnerships (partners opposite)"), 4, _seats((0, 2), (1, 3)))
PAIR_V_THREE_5 = Layout(
    "5",
    N_("5 players: a pair against three who take turns sitting out"),
    5,
    _seats((0, 1), (2, 3, 4)),
    sit_out=1,
    playing=2,
)
THREE_V_THREE_ROTATING_6 = Layout(
    "6-rotating",
    N_("6 players: three against three, two of each side play each hand"),
    6,
    _seats((0, 2, 4), (1, 3, 5)),
    sit_out=1,
    playing=2,
)
THREE_PAIRS_6 = Layout(
    "6-pairs", N_("6 players: three partnerships of 2 (partners opposite)"), 6, _seats((0, 3), (1, 4), (2, 5))
)
TWO_TRIOS_6 = Layout("6-trios", N_("6 players: two teams of 3 (alternate seats)"), 6, _seats((0, 2, 4), (1, 3, 5)))


# §10.6 a complete "Game" of three Partien: 1) N-S v E-W, 2) N-E v S-W, 3) N-W v S-E, with the
# players entered as N, E, S, W (seats 1–4 going to the left).
COMPLETE_GAME = (
    PAIRS_4,
    Layout("4-ne", N_("Partie 2: North & East against South & West"), 4, _seats((0, 1), (2, 3))),
    Layout("4-nw", N_("Partie 3: North & West against East & South"), 4, _seats((0, 3), (1, 2))),
)


def _frozen(mapping: dict[str, int]) -> Mapping[str, int]:
    """A read-only view of a table, so a rule set cannot be changed by accident."""
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class RuleSet:
    """Every number a variant's score sheet needs (one frozen table per variant)."""

    id: str
    name: str
    spec: str  # the spec sections this table comes from
    summary: str
    layouts: tuple[Layout, ...]  # the first is the default
    target: int  # the game ends at the end of a hand when a side has at least this (§2.6)
    card_values: Mapping[str, int]  # points per card of each CARD_GROUPS key (§1.1)
    cards_in_deck: Mapping[str, int]  # how many of each group the deck holds (card conservation)
    canasta_kinds: tuple[CanastaKind, ...]
    going_out: tuple[GoingOut, ...]
    red_three_values: tuple[int, ...]  # value by number of red threes a side has, index 0..all
    red_three_sign: str  # "melded" (§2.5), "canasta" (§7, §10.5), "always" (§9), "canasta_count" (§8.5)
    opening_minimums: tuple[OpeningRow, ...]  # by the side's total at the start of a hand (§2.3)
    canastas_to_go_out: int = 1
    natural_canastas_to_go_out: int = 0
    wild_canastas_to_go_out: int = 0
    red_three_melded_no_canasta: int = -1  # "canasta" sign: a side that melded but has no canasta (§15.2)
    black_three_values: tuple[int, ...] = ()  # Modern: black threes by the three-table (§8.5 element 3)
    black_three_in_hand: int = 0  # Canadian: each black three left in hand costs this (§9)
    exact_cut_bonus: int = 0  # Canadian: the non-dealing team when the cut is exact (§9)
    incomplete_melds: tuple[Deduction, ...] = ()  # a meld not completed by the end of the hand
    holding_penalties: tuple[Deduction, ...] = ()  # Modern: per player holding three or more (§8.5)
    melded_minus_without_canasta: bool = False  # Modern: melded cards count minus with no canasta
    penalty_catalogue: tuple[Deduction, ...] = ()  # offences with their points ([003], [004])
    melded_card_groups: tuple[str, ...] = CARD_GROUP_KEYS  # groups that count as melded cards
    hand_card_groups: tuple[str, ...] = CARD_GROUP_KEYS  # groups counted in hand at card value
    minimum_on_concealed: bool = False  # [004]: the minimum applies even to a concealed going out
    no_going_out_with_incomplete: tuple[str, ...] = ()  # Modern option: incomplete melds that forbid going out
    partie_layouts: tuple[Layout, ...] = ()  # [003] complete Game: partnerships of Partien 2 and 3 (§10.6)
    lone_player: bool = False  # classic 3 players: a lone player against a partnership, per hand (§5)
    lone_trigger: str = "pile_or_out"  # §15.3: how the table decides who plays alone (a hint only)
    splash_opening: bool = False  # §8.2 Modern: a "splash" (a natural or wild canasta from hand) needs no minimum
    lone_red_sign: str = (
        "partnership"  # §5 reading (a), §15.3: a partner's red threes by whether the partnership melded; "own"
    )
    lone_all_four: str = "individual"  # §5 reading (b), §15.3: the all-four value only for one holder; "partnership"
    tie_rule: str = "play_on"  # §15.4: sides level at the top play another hand; "draw" ends it
    settings: tuple[Setting, ...] = ()
    terms: Mapping[str, str] = field(default_factory=dict)  # the rule book's own words for fields

    @property
    def players(self) -> int:
        """Players at the table in the default layout."""
        return self.layouts[0].players

    @property
    def sides(self) -> int:
        """Scoring sides in the default layout."""
        return len(self.layouts[0].sides)

    @property
    def side_size(self) -> int:
        """Players per side in the default layout."""
        return self.layouts[0].side_size

    @property
    def red_threes_in_deck(self) -> int:
        """How many red threes the deck holds (the top of the red-three table)."""
        return len(self.red_three_values) - 1

    @property
    def cards_per_rank(self) -> int:
        """How many cards of one rank the deck holds (8 in 108 cards, 12 in 162): K to 8 are six ranks."""
        return self.cards_in_deck["high"] // 6

    @property
    def going_out_offered(self) -> tuple[GoingOut, ...]:
        """The ways of going out this seating allows: glatt ausmachen only where sides have partners (§10.5)."""
        return tuple(g for g in self.going_out if not g.partner or self.layouts[0].partners)

    @property
    def max_card_points(self) -> int:
        """The card points of the whole deck without red threes: no side can meld or hold more."""
        return sum(self.card_values[k] * self.cards_in_deck[k] for k in CARD_GROUP_KEYS)

    def kind(self, key: str) -> CanastaKind:
        """The canasta kind with this key."""
        return next(k for k in self.canasta_kinds if k.key == key)

    def going_out_kind(self, key: str) -> GoingOut | None:
        """The way of going out with this key, or None."""
        return next((g for g in self.going_out if g.key == key), None)

    def layout(self, key: str | None) -> Layout:
        """The layout with this key (the default for None); KeyError for an unknown one."""
        if key is None:
            return self.layouts[0]
        for layout in self.layouts + self.partie_layouts:
            if layout.key == key:
                return layout
        raise KeyError(key)

    def for_layout(self, layout: Layout) -> "RuleSet":
        """The same rules for another seating (the layout becomes the default)."""
        return replace(self, layouts=(layout,) + tuple(other for other in self.layouts if other is not layout))

    def term(self, key: str, default: str) -> str:
        """The rule book's word for a field, e.g. "Hand-Canasta"."""
        return self.terms.get(key, default)


# ---------------------------------------------------------------------------------------------
# Shared tables

# §1.1: Joker 50; ace and 2: 20; K to 8: 10; 7 to 4: 5; black 3: 5. Red threes are bonus only.
CLASSIC_CARD_VALUES = _frozen({"jokers": 50, "twos_aces": 20, "high": 10, "low": 5, "black_threes": 5})

# §2.1: 2 × 52 + 4 jokers = 108: 4 jokers; 8 twos + 8 aces; K–8 6 ranks × 8 = 48; 7–4 4 × 8 = 32; 4 black 3s.
DECK_108 = _frozen({"jokers": 4, "twos_aces": 16, "high": 48, "low": 32, "black_threes": 4})
# §6, §9, §10.1: 3 × 52 + 6 jokers = 162.
DECK_162 = _frozen({"jokers": 6, "twos_aces": 24, "high": 72, "low": 48, "black_threes": 6})

# §2.3 / §12: negative → 15 (no minimum), 0–1495 → 50, 1500–2995 → 90, 3000 or more → 120.
CLASSIC_OPENING = (
    OpeningRow(None, -5, 15),
    OpeningRow(0, 1495, 50),
    OpeningRow(1500, 2995, 90),
    OpeningRow(3000, None, 120),
)
# §6 two teams of 3 and §9 Canadian: a fifth row, 7000 or more → 150.
OPENING_150 = (
    OpeningRow(None, -5, 15),
    OpeningRow(0, 1495, 50),
    OpeningRow(1500, 2995, 90),
    OpeningRow(3000, 6995, 120),
    OpeningRow(7000, None, 150),
)

# §2.5: each red three 100, all four 800.
CLASSIC_RED_THREES = (0, 100, 200, 300, 800)
# §6: 1–3 → 100 each, 4 → 400 (no 800 bonus), 5 → 1000, 6 → 1200.
SIX_RED_THREES = (0, 100, 200, 300, 400, 1000, 1200)

NATURAL = CanastaKind("natural", N_("Natural canastas"), 500, natural=True, min_points=35)  # §2.5; 7 × 5
MIXED = CanastaKind("mixed", N_("Mixed canastas"), 300, min_points=50)  # §2.5; six 4s–7s and one 2
CLASSIC_CANASTAS = (NATURAL, MIXED)
WILD_2000 = CanastaKind("wild", N_("Wild-card canastas"), 2000, wild=True, min_points=140)  # §3; seven 2s

GOING_OUT = ("going_out", N_("Going out"), 100)  # §2.5
NORMAL = GoingOut("normal", N_("Went out"), (GOING_OUT,))
CONCEALED = GoingOut(
    "concealed", N_("Concealed"), (GOING_OUT, ("concealed", N_("Concealed going out"), 100)), waives_minimum=True
)  # §2.5: 100 more, 200 in all; §2.3: no minimum
CLASSIC_GOING_OUT = (NORMAL, CONCEALED)


def _with_opening_negative(rules: RuleSet, minimum: int) -> RuleSet:
    """The negative-total row set to ``minimum`` (§15.6)."""
    rows = tuple(replace(row, minimum=minimum) if row.low is None else row for row in rules.opening_minimums)
    if rows[0].low is not None:  # a table that starts at 0: add the negative row
        rows = (OpeningRow(None, -5, minimum),) + rows
    return replace(rules, opening_minimums=rows)


def _with_target(rules: RuleSet, target: Any) -> RuleSet:
    """A custom target score."""
    return replace(rules, target=int(target))


TIE_SETTING = Setting(
    "tie_rule",
    N_("Sides level at the top at or above the target"),
    "play_on",
    (("play_on", N_("Tie: play another hand")), ("draw", N_("The game ends drawn"))),
    "§2.6, §13 D19, §15.4",
    lambda rules, value: replace(rules, tie_rule=value),
)


def _going_out_lines(rules: RuleSet, key: str, lines: tuple[tuple[str, str, int], ...]) -> RuleSet:
    """Replace the lines of one way of going out."""
    return replace(rules, going_out=tuple(replace(g, lines=lines) if g.key == key else g for g in rules.going_out))


def _hand_canasta_adds(rules: RuleSet, adds: Any) -> RuleSet:
    """§15.1: Hand-Canasta 1000 replaces the going-out bonus (default) or adds the 100 to it."""
    kind = rules.going_out_kind("hand_canasta")
    base = tuple(line for line in kind.lines if line[0] != "going_out")
    return _going_out_lines(rules, "hand_canasta", ((GOING_OUT,) + base) if adds else base)


HAND_CANASTA_SETTING = Setting(
    "hand_canasta_adds",
    N_("Hand-Canasta 1000"),
    False,
    ((False, N_("replaces the 100 for going out")), (True, N_("plus the 100 for going out"))),
    "§13 D3, §15.1",
    _hand_canasta_adds,
)
RED_THREE_NO_CANASTA_SETTING = Setting(
    "red_three_melded_no_canasta",
    N_("Red threes of a side that melded but has no canasta"),
    -1,
    ((-1, N_("count minus (as the Austrian rulebook)")), (0, N_("count nothing"))),
    "§13 D2, §15.2",
    lambda rules, value: replace(rules, red_three_melded_no_canasta=int(value)),
)


def _wild_melds(rules: RuleSet, allowed: Any) -> RuleSet:
    """§3: wild-card melds allowed: a wild canasta 2000, an incomplete wild meld −1000."""
    if not allowed:
        return rules
    return replace(
        rules,
        canasta_kinds=rules.canasta_kinds + (WILD_2000,),
        incomplete_melds=rules.incomplete_melds
        + (Deduction("wild", N_("Incomplete wild-card meld"), 1000, spec="§3"),),
    )


WILD_MELDS_SETTING = Setting(
    "wild_melds",
    N_("Wild-card melds (2s and jokers)"),
    False,
    ((False, N_("not allowed")), (True, N_("allowed: canasta +2000, incomplete −1000"))),
    "§3",
    _wild_melds,
)


def _common(*settings: Setting) -> tuple[Setting, ...]:
    """The settings every rule set has: its own, then the tie rule."""
    return settings + (TIE_SETTING,)


# ---------------------------------------------------------------------------------------------
# The rule sets

CLASSIC = RuleSet(
    id="classic",
    name=N_("Classic Canasta (4 players, 2 partnerships)"),
    spec="§2",
    summary=N_("The standard game: two partnerships, 108 cards, one canasta to go out, game to 5000."),
    layouts=(PAIRS_4,),
    target=5000,  # §2.6
    card_values=CLASSIC_CARD_VALUES,
    cards_in_deck=DECK_108,
    canasta_kinds=CLASSIC_CANASTAS,
    going_out=CLASSIC_GOING_OUT,
    red_three_values=CLASSIC_RED_THREES,
    red_three_sign="melded",
    opening_minimums=CLASSIC_OPENING,
    canastas_to_go_out=1,  # §2.4
    settings=_common(WILD_MELDS_SETTING),
)

# §4: classic rules for two players; going out needs 2 canastas; everything else as §2.
CLASSIC_2P = replace(
    CLASSIC,
    id="classic-2p",
    name=N_("Classic Canasta (2 players)"),
    spec="§4",
    summary=N_("Classic rules for two: 15 cards each, two canastas to go out, game to 5000."),
    layouts=(ALONE_2,),
    canastas_to_go_out=2,  # §4 "Ein Spieler braucht zwei Canastas"
)

SIX_RED_THREE_SIGN_SETTING = Setting(
    "red_three_negative",
    N_("Red threes of a team that has not melded"),
    True,
    ((True, N_("count minus (classic rule)")), (False, N_("count plus anyway"))),
    "§6, §15.9",
    lambda rules, value: replace(rules, red_three_sign="melded" if value else "always"),
)

# §5 three players: individual totals, a temporary partnership per hand, target 7500.
CLASSIC_3P = replace(
    CLASSIC,
    id="classic-3p",
    name=N_("Classic Canasta (3 players)"),
    spec="§5",
    summary=N_(
        "Individual totals; each hand the lone player plays against the other two, who share melds; game to 7500."
    ),
    layouts=(ALONE_3,),
    target=7500,  # §5
    lone_player=True,
    settings=_common(
        Setting(
            "lone_trigger",
            N_("Who plays alone"),
            "pile_or_out",
            (
                (
                    "pile_or_out",
                    N_("the first to take the pile, or who goes out before anyone took it (Italian rules)"),
                ),
                ("pile_or_meld", N_("the first to take the pile, or who melds before anyone took it (German rules)")),
            ),
            "§13 D8, §15.3",
            lambda rules, value: replace(rules, lone_trigger=value),
        ),
        Setting(
            "lone_red_sign",
            N_("A partner's red threes count minus"),
            "partnership",
            (
                ("partnership", N_("when the partnership has melded nothing")),
                ("own", N_("when that partner has melded nothing himself")),
            ),
            "§5 (a), §15.3",
            lambda rules, value: replace(rules, lone_red_sign=value),
        ),
        Setting(
            "lone_all_four",
            N_("All four red threes (800)"),
            "individual",
            (
                ("individual", N_("only when one player holds all four")),
                ("partnership", N_("also when the two partners hold them between them")),
            ),
            "§5 (b), §15.3",
            lambda rules, value: replace(rules, lone_all_four=value),
        ),
    ),
)

# §6 the book version for six: 162 cards, red threes 400/1000/1200, two canastas to go out.
SIX_3X2 = replace(
    CLASSIC,
    id="six-3x2",
    name=N_("Classic Canasta, 6 players in three teams of 2"),
    spec="§6",
    summary=N_("Three partnerships, 162 cards, two canastas to go out, game to 7500."),
    layouts=(THREE_PAIRS_6,),
    target=7500,
    cards_in_deck=DECK_162,
    red_three_values=SIX_RED_THREES,
    canastas_to_go_out=2,
    settings=_common(WILD_MELDS_SETTING, SIX_RED_THREE_SIGN_SETTING),
)
SIX_2X3 = replace(
    SIX_3X2,
    id="six-2x3",
    name=N_("Classic Canasta, 6 players in two teams of 3"),
    summary=N_("Two teams of three, 162 cards, two canastas to go out, 150 to open from 7000, game to 10000."),
    layouts=(TWO_TRIOS_6,),
    target=10000,
    opening_minimums=OPENING_150,
)
MILLER = replace(
    SIX_2X3,
    id="miller",
    name=N_("Shirley Miller's six-player Canasta (two teams of 3)"),
    summary=N_("Wild-card canastas +2000, an unfinished wild meld −2000, three canastas (two natural) to go out."),
    canasta_kinds=CLASSIC_CANASTAS + (WILD_2000,),
    incomplete_melds=(Deduction("wild", N_("Incomplete wild-card meld"), 2000, spec="§6"),),
    canastas_to_go_out=3,
    natural_canastas_to_go_out=2,
    settings=_common(SIX_RED_THREE_SIGN_SETTING),
)

# The Austrian rule books' words for going out. In English the English term comes first, with the
# word the players know it by in brackets; the German catalogue keeps the rule book's word alone.
AUSMACHEN = N_("Went out (Ausmachen)")
# "Vienna Canasta (Wiener Canasta)": going out concealed without a canasta of one's own
VERDECKT = N_("Concealed, on the partner's canasta (Verdeckt Ausmachen)")
# "Austrian rulebook": the whole hand laid out at once when the partner already has a canasta
GLATT = N_("In one go, on the partner's canasta (glatt ausmachen)")

# §7 Vienna: red threes count plus only with a canasta; Hand-Canasta 1000; Verdeckt Ausmachen 200.
VIENNA = replace(
    CLASSIC,
    id="vienna",
    name=N_("Vienna Canasta (Wiener Canasta)"),
    spec="§7",
    summary=N_(
        "Classic with red threes counting only with a canasta, Hand-Canasta 1000 and concealed going out on the "
        "partner's canasta (Verdeckt Ausmachen) 200."
    ),
    going_out=(
        NORMAL,
        GoingOut("verdeckt", VERDECKT, (("verdeckt", VERDECKT, 200),), waives_minimum=True),
        GoingOut(
            "hand_canasta", N_("Hand-Canasta"), (("hand_canasta", N_("Hand-Canasta"), 1000),), waives_minimum=True
        ),
    ),
    red_three_sign="canasta",
    settings=_common(HAND_CANASTA_SETTING, RED_THREE_NO_CANASTA_SETTING),
    terms=MappingProxyType({"went_out": AUSMACHEN}),
)

# §8 Modern American.
MODERN_SPECIAL = (
    ("straight", N_("Straight"), 3000),
    ("pairs", N_("Pairs (no wild cards)"), 2500),
    ("pairs_wild", N_("Pairs with 2s, 7s and aces"), 2000),
    ("garbage", N_("Garbage"), 2000),
)


def _modern_special(rules: RuleSet, high: Any) -> RuleSet:
    """§15.10: Pairs and Garbage scored 3500. [000] "ein Blatt aus Paaren und ein Garbage-Blatt":
    reading, every hand of pairs (with or without 2s) and Garbage."""
    if not high:
        return rules
    for key in ("pairs", "pairs_wild", "garbage"):
        kind = rules.going_out_kind(key)
        rules = _going_out_lines(rules, key, ((key, kind.label, 3500),))
    return rules


MODERN = RuleSet(
    id="modern",
    name=N_("Modern American Canasta"),
    spec="§8",
    summary=N_("Four players in partnerships, 13 cards, two canastas to go out, special hands, game to 8500."),
    layouts=(PAIRS_4,),
    target=8500,
    card_values=CLASSIC_CARD_VALUES,
    cards_in_deck=DECK_108,
    canasta_kinds=(
        CanastaKind("mixed", N_("Mixed canastas"), 300, min_points=50),  # §8.3 at most 2 wild: six 4s + one 2 = 30 + 20
        CanastaKind("natural", N_("Natural canastas"), 500, natural=True, min_points=35),  # seven 4s
        CanastaKind(
            "natural_aces_sevens",
            N_("Natural aces or 7s canastas"),
            2500,
            natural=True,
            min_points=35,
            ranks=("aces", "sevens"),  # §8.3: 7 aces or 7 sevens, no wild card
        ),
        CanastaKind("twos", N_("Canastas of seven 2s"), 3000, wild=True, min_points=140),
        CanastaKind("jokers", N_("Joker canastas (4 jokers + three 2s)"), 2500, wild=True, min_points=260),
        CanastaKind("wild", N_("Other wild canastas (1–3 jokers)"), 2000, wild=True, min_points=170),
    ),
    going_out=(NORMAL,)
    + tuple(GoingOut(k, label, ((k, label, v),), special=True, waives_minimum=True) for k, label, v in MODERN_SPECIAL),
    red_three_values=(0, 100, 300, 500, 1000),  # §8.5 element 3
    black_three_values=(0, 100, 300, 500, 1000),
    red_three_sign="canasta_count",
    opening_minimums=(OpeningRow(None, 2995, 125), OpeningRow(3000, 4995, 155), OpeningRow(5000, None, 180)),  # §8.2
    canastas_to_go_out=2,  # §8.4
    incomplete_melds=(
        # §8.3: a meld has at least 3 cards; §13 D4: one with players holding 3 can need more than 8
        Deduction("aces", N_("Incomplete pure aces meld"), 2500, spec="§8.5", rank="aces", least=3),
        Deduction("sevens", N_("Incomplete 7s meld"), 2500, spec="§8.5", rank="sevens", least=3),
        Deduction("wild", N_("Incomplete wild-card meld"), 2000, spec="§8.5"),
    ),
    holding_penalties=(
        Deduction(
            "aces", N_("Players holding 3 or more aces"), 1500, max_count=2, spec="§8.5, §13 D4", rank="aces", least=3
        ),
        Deduction(
            "sevens", N_("Players holding 3 or more 7s"), 1500, max_count=2, spec="§8.5, §13 D4", rank="sevens", least=3
        ),
    ),
    melded_minus_without_canasta=True,
    melded_card_groups=("jokers", "twos_aces", "high", "low"),  # §8.5 element 4: threes excluded
    splash_opening=True,  # §8.2: a natural or wild canasta from hand opens with no minimum
    settings=_common(
        Setting(
            "special_3500",
            N_("Pairs and Garbage"),
            False,
            ((False, N_("2500 / 2000")), (True, N_("3500 each"))),
            "§8.5, §15.10",
            _modern_special,
        ),
        Setting(
            "no_out_with_incomplete",
            N_("Going out with an incomplete 7s or pure aces meld"),
            False,
            ((False, N_("allowed")), (True, N_("not allowed"))),
            "§8.4, §15.10",
            lambda r, v: replace(r, no_going_out_with_incomplete=("aces", "sevens") if v else ()),
        ),
    ),
    terms=MappingProxyType({"black_threes": N_("Black threes melded")}),
)

# §9 Canadian, 3 decks.
CANADIAN = RuleSet(
    id="canadian",
    name=N_("Canadian Canasta (3 decks)"),
    spec="§9",
    summary=N_("162 cards, 15 each; two natural and one wild canasta to go out; red threes 200; game to 10000."),
    layouts=(PAIRS_4,),
    target=10000,
    card_values=CLASSIC_CARD_VALUES,
    cards_in_deck=DECK_162,
    canasta_kinds=(
        CanastaKind("natural", N_("Natural canastas"), 300, natural=True, min_points=35),
        CanastaKind("mixed", N_("Mixed canastas"), 200, min_points=50),
        CanastaKind("wild", N_("Wild-card canastas"), 300, wild=True, min_points=140),
    ),
    going_out=(NORMAL,),  # §13 D18: going-out bonus not stated, reading 100; no concealed bonus
    red_three_values=(0, 200, 400, 600, 800, 1000, 1200),  # 200 each, no all-four bonus
    red_three_sign="always",  # §15.7: no sign rule by default
    opening_minimums=(OpeningRow(None, -5, 50),) + OPENING_150[1:],  # §15.6: negative → 50
    canastas_to_go_out=3,
    natural_canastas_to_go_out=2,
    wild_canastas_to_go_out=1,
    black_three_in_hand=100,  # §9: −100 each, instead of its 5 (§13 D18)
    exact_cut_bonus=100,
    hand_card_groups=("jokers", "twos_aces", "high", "low"),  # black threes in hand are counted apart
    settings=_common(
        Setting(
            "negative_minimum",
            N_("Opening minimum with a negative total"),
            50,
            ((50, N_("50")), (15, N_("15 (classic)"))),
            "§13 D1, §15.6",
            _with_opening_negative,
        ),
        Setting(
            "red_three_sign",
            N_("Red threes of a team that has not melded"),
            "always",
            (("always", N_("+200 always")), ("melded", N_("minus (classic rule)"))),
            "§13 D18, §15.7",
            lambda r, v: replace(r, red_three_sign=v),
        ),
        Setting(
            "going_out_bonus",
            N_("Going-out bonus"),
            100,
            ((100, N_("100")), (0, N_("none"))),
            "§13 D18, §15.7",
            lambda r, v: _going_out_lines(r, "normal", (("going_out", "Going out", int(v)),)),
        ),
        Setting(
            "black_three_in_hand",
            N_("A black three left in hand"),
            100,
            ((100, N_("−100 instead of its 5")), (105, N_("−100 and its 5"))),
            "§13 D18, §15.7",
            lambda r, v: replace(r, black_three_in_hand=int(v)),
        ),
    ),
)

# §10 the Austrian rulebook [003].
AUSTRIAN_PENALTIES = (
    Deduction("minimum_failed", N_("Took the top discard, then could not meet the minimum"), 50, 9, "§10.5 (3)"),
    Deduction("pile_before_meld", N_("Took the pile into hand before melding the top card"), 200, 9, "§10.5 (4)"),
    Deduction("drew_out_of_turn", N_("Drew from the stock out of turn, card not in hand"), 100, 9, "§10.5 (5a)"),
    Deduction("drew_out_of_turn_kept", N_("Drew from the stock out of turn, card in hand"), 200, 9, "§10.5 (5b)"),
    Deduction("pile_out_of_turn", N_("Took the pile out of turn"), 100, 9, "§10.5 (6)"),
)
AUSTRIAN = replace(
    CLASSIC,
    id="austrian",
    name=N_("Austrian rulebook (Spielregeln, 2–6 players)"),
    spec="§10",
    summary=N_(
        "Red threes count plus only with a canasta; Hand-Canasta 1000; going out in one go on the partner's "
        "canasta (glatt ausmachen) 200; penalty points."
    ),
    layouts=(PAIRS_4, ALONE_2, ALONE_3, PAIR_V_THREE_5, THREE_V_THREE_ROTATING_6),
    going_out=(
        NORMAL,
        # §10.5 "Falls der Partner … bereits einen Canasta herausgelegt hat": only with a partner (4p, 5p, 6p)
        GoingOut("glatt", GLATT, (GOING_OUT, ("glatt", GLATT, 100)), partner=True),
        GoingOut(
            "hand_canasta", N_("Hand-Canasta"), (("hand_canasta", N_("Hand-Canasta"), 1000),), waives_minimum=True
        ),
    ),
    red_three_sign="canasta",
    opening_minimums=(OpeningRow(None, -5, 50),) + CLASSIC_OPENING[1:],  # §10.3, §13 D1: negative → 50
    penalty_catalogue=AUSTRIAN_PENALTIES,
    partie_layouts=COMPLETE_GAME[1:],
    settings=_common(
        HAND_CANASTA_SETTING,
        RED_THREE_NO_CANASTA_SETTING,
        Setting(
            "negative_minimum",
            N_("Opening minimum with a negative total"),
            50,
            ((50, N_("50")), (15, N_("15 (classic)"))),
            "§13 D1, §15.6",
            _with_opening_negative,
        ),
    ),
    terms=MappingProxyType({"went_out": AUSMACHEN}),
)
AUSTRIAN_6_PAIRS = replace(
    AUSTRIAN,
    id="austrian-6",
    name=N_("Austrian rulebook, 6 players in three pairs (162 cards)"),
    summary=N_("Three partnerships with 3 packs and 6 jokers: two canastas to go out, five red threes 1000, six 1200."),
    layouts=(THREE_PAIRS_6,),
    cards_in_deck=DECK_162,
    red_three_values=SIX_RED_THREES,  # four: 400 as pagat (§10.1 reading); setting 800
    canastas_to_go_out=2,
    settings=AUSTRIAN.settings[:-1]
    + (
        Setting(
            "four_red_threes",
            N_("Four red threes"),
            400,
            ((400, N_("400 (as pagat)")), (800, N_("800 (the Austrian rulebook's general rule)"))),
            "§10.1, §15.9",
            lambda r, v: replace(r, red_three_values=r.red_three_values[:4] + (int(v),) + r.red_three_values[5:]),
        ),
        TIE_SETTING,
    ),
)

# §11 the encyclopedia [004].
ENCYCLOPEDIA = replace(
    CLASSIC,
    id="encyclopedia",
    name=N_("Encyclopedia rules (2–6 players)"),
    spec="§11",
    summary=N_(
        "Classic scoring for 2 to 6 players with 108 cards; the minimum applies to a concealed going out too; "
        "penalties."
    ),
    layouts=(PAIRS_4, ALONE_2, ALONE_3, PAIR_V_THREE_5, TWO_TRIOS_6, THREE_PAIRS_6),
    going_out=(NORMAL, replace(CONCEALED, waives_minimum=False)),
    minimum_on_concealed=True,
    penalty_catalogue=(
        Deduction("red_three_not_laid", N_("Failed to lay out a red three"), 500, 4, "§11.5"),
        Deduction("drawing_error", N_("Drawing error"), 50, 9, "§11.5"),
        Deduction("drew_out_of_turn", N_("Drew out of turn"), 100, 9, "§11.5"),
        Deduction("melded_out_of_turn", N_("Melded out of turn"), 100, 9, "§11.5"),
    ),
    settings=_common(
        Setting(
            "minimum_on_concealed",
            N_("Opening minimum on a concealed going out"),
            True,
            ((True, N_("applies")), (False, N_("waived (classic)"))),
            "§13 D10, §15.8",
            lambda r, v: replace(
                r, minimum_on_concealed=bool(v), going_out=(NORMAL, replace(CONCEALED, waives_minimum=not v))
            ),
        ),
    ),
)

RULE_SETS: Mapping[str, RuleSet] = MappingProxyType(
    {
        r.id: r
        for r in (
            CLASSIC,
            CLASSIC_2P,
            CLASSIC_3P,
            SIX_3X2,
            SIX_2X3,
            MILLER,
            VIENNA,
            MODERN,
            CANADIAN,
            AUSTRIAN,
            AUSTRIAN_6_PAIRS,
            ENCYCLOPEDIA,
        )
    }
)


def get(variant_id: str) -> RuleSet:
    """The rule set with this id; KeyError for an unknown one."""
    return RULE_SETS[variant_id]


def configure(
    rules: RuleSet, settings: Mapping[str, Any] | None = None, layout: str | None = None, target: int | None = None
) -> RuleSet:
    """The rule set as a game plays it: its layout, house-rule settings and target applied. The
    same choices give the same (frozen) rule set object, so what is derived from it once (the
    side-entry table) is not derived again for every request."""
    if RULE_SETS.get(rules.id) is rules:
        try:
            key = tuple(sorted((settings or {}).items()))
            return _configured(rules.id, key, layout, target)
        except TypeError:  # a setting value that cannot be a key (a list from odd JSON): no memo
            pass
    return _configure(rules, settings, layout, target)


@functools.lru_cache(maxsize=512)
def _configured(rule_set: str, settings: tuple, layout: str | None, target: int | None) -> RuleSet:
    """``configure`` of a listed rule set, remembered (pure: the same arguments, the same rules)."""
    return _configure(RULE_SETS[rule_set], dict(settings), layout, target)


def _configure(
    rules: RuleSet, settings: Mapping[str, Any] | None = None, layout: str | None = None, target: int | None = None
) -> RuleSet:
    """The rule set with its layout, house-rule settings and target applied."""
    settings = settings or {}
    configured = rules.for_layout(rules.layout(layout)) if layout else rules
    for setting in rules.settings:
        configured = setting.apply(configured, settings.get(setting.key, setting.default))
    if target:
        configured = _with_target(configured, target)
    return configured
