"""The shape of a rule set: the frozen tables every family fills in, and the card groups they count.

Pure data, standard library only. ``scoring.py`` and ``checks.py`` read these tables; the pages, the
API and docs/rules.md are written from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Callable, Mapping

from scorekeeper.core.messages import N_  # noqa: E402  (re-exported: the rule tables' texts are messages)

# The card-count pad: how people count cards at the table, grouped by value (docs/rules.md, "Card values").
CARD_GROUPS: tuple[tuple[str, str], ...] = (
    ("jokers", N_("Jokers")),
    ("twos_aces", N_("2s and aces")),
    ("high", N_("K to 8")),
    ("low", N_("7 to 4")),
    ("black_threes", N_("Black 3s")),
)
# Cards left in hand, where black threes count as the 7 to 4 do (RuleSet.black_threes_with_low_in_hand).
LOW_AND_BLACK_THREES = N_("7 to 4, black 3s")
CARD_GROUP_KEYS = tuple(key for key, _ in CARD_GROUPS)
# Ranks a rule checks cards of one by one (Modern aces and 7s, docs/rules.md, "Canastas", "Penalties"): the deck holds
# as many of
# each rank as it has of any rank (RuleSet.cards_per_rank).
RANKS: Mapping[str, str] = MappingProxyType({"aces": N_("aces"), "sevens": N_("7s")})


# The options a rule set chooses between, by name. The values are what stored games and the API hold.


class RedThreeSign(StrEnum):
    """When red threes (and Modern black threes) count plus, nothing or minus."""

    MELDED = "melded"  # plus for a side that has melded, minus for one that has not
    CANASTA = "canasta"  # plus only for a side with a canasta
    CANASTA_COUNT = "canasta_count"  # minus with no canasta, nothing with one, plus with two or more
    ALWAYS = "always"  # always plus
    MINUS = "minus"  # always minus (a table's own rule: docs/rules.md, "A table's own rules")


# How each sign is explained: beside the threes on the hand form, under the threes table of the reference page.
RED_THREE_HINTS: Mapping[RedThreeSign, str] = MappingProxyType(
    {
        RedThreeSign.MELDED: N_("A side that has melded nothing counts its red threes as minus points."),
        RedThreeSign.CANASTA: N_("Red threes count plus only for a side with a canasta, otherwise minus."),
        RedThreeSign.CANASTA_COUNT: N_("Threes: minus with no canasta, nothing with one, plus with two or more."),
        RedThreeSign.ALWAYS: N_("Each red three counts %(points)s."),
        RedThreeSign.MINUS: N_("Red threes always count minus."),
    }
)
RED_THREE_RULES: Mapping[RedThreeSign, str] = MappingProxyType(
    {
        RedThreeSign.MELDED: N_("Plus when the side has melded, minus when it has not."),
        RedThreeSign.CANASTA: N_("Plus only when the side has a canasta; otherwise minus."),
        RedThreeSign.CANASTA_COUNT: N_("Minus with no canasta, nothing with one canasta, plus with two or more."),
        RedThreeSign.ALWAYS: N_("Always plus."),
        RedThreeSign.MINUS: N_("Always minus."),
    }
)
# the "canasta" sign when a side that melded but has no canasta counts its red threes as nothing
CANASTA_OR_NOTHING_RULE = N_(
    "Plus only when the side has a canasta; otherwise minus without a meld, nothing with a meld but no canasta."
)


class LoneTrigger(StrEnum):
    """Classic 3 players: who plays alone (the table decides; the hand form shows the rule)."""

    PILE_OR_OUT = "pile_or_out"  # the first to take the pile, or who goes out before anyone took it
    PILE_OR_MELD = "pile_or_meld"  # the first to take the pile, or who melds before anyone took it


# The rule the hand form shows above the question who played alone.
LONE_TRIGGER_HINTS: Mapping[LoneTrigger, str] = MappingProxyType(
    {
        LoneTrigger.PILE_OR_OUT: N_(
            "The first to take the pile plays alone; if a player goes out before anyone took it, that player."
        ),
        LoneTrigger.PILE_OR_MELD: N_(
            "The first to take the pile plays alone; if a player melds before anyone took it, that player."
        ),
    }
)
LONE_PARTNERS_HINT = N_(
    "The other two are partners for this hand: enter their melds and canastas under either of them; each keeps "
    "his own red threes."
)

# How to count the cards, as the hand form explains it under its fields.
MELDED_WITH_BLACK_THREES = N_("All cards on the table, canastas included; not red threes.")
MELDED_WITHOUT_THREES = N_("All cards on the table, canastas included; no threes.")
HAND_OF_A_SIDE = N_("All the side’s players’ cards, counted against it.")
HAND_OF_A_PLAYER = N_("Cards still in the player’s hand.")
# where a black three left in hand costs a penalty of its own, in its row: not among these too (105 each)
HAND_OF_A_SIDE_BUT_BLACK_THREES = N_(
    "All the side’s players’ cards but black threes (they have a row of their own), counted against it."
)
HAND_OF_A_PLAYER_BUT_BLACK_THREES = N_(
    "Cards still in the player’s hand but black threes (they have a row of their own)."
)
THREE_KEPT_FOR_A_STRAIGHT = N_(
    "A 3 kept in hand for a Straight counts as melded: add it here; any other 3 left in hand costs 5 in the cards "
    "left in hand."
)


class LoneRedSign(StrEnum):
    """Classic 3 players: whose melding decides the sign of a partner's red threes."""

    PARTNERSHIP = "partnership"  # whether the partnership has melded
    OWN = "own"  # whether that partner has melded himself


class LoneAllFour(StrEnum):
    """Classic 3 players: who earns the value of all four red threes."""

    INDIVIDUAL = "individual"  # only one player holding all four
    PARTNERSHIP = "partnership"  # also two partners holding the four between them


class TieRule(StrEnum):
    """Sides level at the top at or above the target."""

    PLAY_ON = "play_on"  # play another hand
    DRAW = "draw"  # the game ends drawn
    WENT_OUT = "went_out"  # the side that went out in the last hand wins (a table's own rule)


def plain(value: Any) -> Any:
    """An option as stored games and the API hold it: its text (other values as they are)."""
    return str(value) if isinstance(value, StrEnum) else value


def option_setter(attribute: str, options: type[StrEnum]) -> Callable[["RuleSet", Any], "RuleSet"]:
    """A house rule's ``apply`` that sets one option of the rule set; a value that is none of the
    options leaves the rule set's own."""

    def apply(rules: "RuleSet", value: Any) -> "RuleSet":
        chosen = next((option for option in options if option == value), None)
        return replace(rules, **{attribute: chosen}) if chosen is not None else rules

    return apply


@dataclass(frozen=True)
class OpeningRow:
    """One row of an opening-meld table: totals from ``low`` to ``high`` (None = open end)."""

    low: int | None
    high: int | None
    minimum: int
    name: str = ""  # a table's own tier's name (docs/rules.md, "A table's own rules")

    @property
    def label(self) -> str:
        """The row's range in the words of the rule books ("negative", "0 – 1495", "3000 or more")."""
        if self.name:
            return self.name
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
    # RANKS keys: seven natural cards of one of these ranks (docs/rules.md, "Canastas": at most 7 a meld)
    ranks: tuple[str, ...] = ()
    cards: int = 7  # the fewest cards it takes (a table's own kind may take more)
    goes_out: bool = True  # counts as one of the canastas going out needs


@dataclass(frozen=True)
class GoingOut:
    """A way of going out and the breakdown lines it scores."""

    key: str  # the API value of ``went_out``
    label: str
    lines: tuple[tuple[str, str, int], ...]  # (item, label, points) added to the hand score
    special: bool = False  # Modern special hand: the side scores only this (docs/rules.md, "Going out")
    # the opening minimum does not apply (docs/rules.md, "Opening minimum" exception, docs/rules.md, "Vienna Canasta
    # (Wiener Canasta)", "Going out")
    waives_minimum: bool = False
    partner: bool = (
        False  # needs a partner (glatt ausmachen, docs/rules.md, "Going out"): offered only where sides have partners
    )

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
    """A house rule a game can set, with the spec's default (docs/rules.md, "House rules")."""

    key: str
    label: str
    default: Any
    choices: tuple[tuple[Any, str], ...]
    spec: str
    apply: Callable[["RuleSet", Any], "RuleSet"] = field(compare=False, repr=False)

    def __post_init__(self) -> None:
        # options are kept as their text, the values a stored game and the API give
        object.__setattr__(self, "default", plain(self.default))
        object.__setattr__(self, "choices", tuple((plain(value), label) for value, label in self.choices))


@dataclass(frozen=True)
class RuleSet:
    """Every number a variant's score sheet needs (one frozen table per variant)."""

    id: str
    name: str
    spec: str  # the spec sections this table comes from
    summary: str
    layouts: tuple[Layout, ...]  # the first is the default
    target: int  # the game ends at the end of a hand when a side has at least this (docs/rules.md, "End of the game")
    card_values: Mapping[str, int]  # points per card of each CARD_GROUPS key (docs/rules.md, "Card values")
    cards_in_deck: Mapping[str, int]  # how many of each group the deck holds (card conservation)
    canasta_kinds: tuple[CanastaKind, ...]
    going_out: tuple[GoingOut, ...]
    red_three_values: tuple[int, ...]  # value by number of red threes a side has, index 0..all
    red_three_sign: RedThreeSign
    opening_minimums: tuple[
        OpeningRow, ...
    ]  # by the side's total at the start of a hand (docs/rules.md, "Opening minimum")
    canastas_to_go_out: int = 1
    natural_canastas_to_go_out: int = 0
    wild_canastas_to_go_out: int = 0
    red_three_melded_no_canasta: int = (
        -1
    )  # "canasta" sign: a side that melded but has no canasta (docs/rules.md, "House rules")
    black_three_values: tuple[
        int, ...
    ] = ()  # Modern: black threes by the three-table (docs/rules.md, "Red and black threes")
    black_three_in_hand: int = (
        0  # Canadian: each black three left in hand costs this (docs/rules.md, "Canadian Canasta (3 decks)")
    )
    # Canadian: black threes are melded only all together, all six, by the player going out (docs/rules.md,
    # "Canadian Canasta (3 decks)"); else as a set of 3 or 4
    black_threes_melded_all: bool = False
    exact_cut_bonus: int = (
        0  # Canadian: the non-dealing team when the cut is exact (docs/rules.md, "Canadian Canasta (3 decks)")
    )
    incomplete_melds: tuple[Deduction, ...] = ()  # a meld not completed by the end of the hand
    holding_penalties: tuple[
        Deduction, ...
    ] = ()  # Modern: per player holding three or more (docs/rules.md, "Penalties")
    melded_minus_without_canasta: bool = False  # Modern: melded cards count minus with no canasta
    penalty_catalogue: tuple[Deduction, ...] = ()  # offences with their points ([003], [004])
    melded_card_groups: tuple[str, ...] = CARD_GROUP_KEYS  # groups that count as melded cards
    hand_card_groups: tuple[str, ...] = CARD_GROUP_KEYS  # groups counted in hand at card value
    minimum_on_concealed: bool = False  # [004]: the minimum applies even to a concealed going out
    no_going_out_with_incomplete: tuple[str, ...] = ()  # Modern option: incomplete melds that forbid going out
    partie_layouts: tuple[
        Layout, ...
        # [003] complete Game: partnerships of Partien 2 and 3 (docs/rules.md, "Austrian rulebook (Spielregeln, 2–6
        # players)")
    ] = ()
    # classic 3 players: a lone player against a partnership, per hand (docs/rules.md, "Classic Canasta (3 players)")
    lone_player: bool = False
    lone_trigger: LoneTrigger = (
        LoneTrigger.PILE_OR_OUT
    )  # docs/rules.md, "House rules": how the table decides who plays alone (a hint only)
    # docs/rules.md, "Opening minimum" Modern: a "splash" (a natural or wild canasta from hand) needs no minimum
    splash_opening: bool = False
    lone_red_sign: LoneRedSign = LoneRedSign.PARTNERSHIP  # docs/rules.md, "Classic Canasta (3 players)", "House rules"
    lone_all_four: LoneAllFour = LoneAllFour.INDIVIDUAL  # docs/rules.md, "Classic Canasta (3 players)", "House rules"
    tie_rule: TieRule = TieRule.PLAY_ON  # docs/rules.md, "House rules"
    # docs/rules.md, "House rules": values only a table's own rule set changes (the books' are these)
    red_three_minus_cap: int = 0  # red threes counting minus cost at most this (0: no cap)
    hand_counts: bool = True  # cards left in hand count against a side
    special_adds: bool = False  # a special hand adds to the rest of the hand's score instead of replacing it
    hands_limit: int = 0  # the game ends after this many hands (0: no limit)
    # docs/rules.md, "A table's own rules": opening minimums by the hand's number instead of the side's total
    opening_by_hand: tuple[int, ...] = ()  # hand 1, 2, 3, ...; the last goes on for later hands
    opening_per_hand: int = 0  # the minimum is this times the hand's number (0: not used)
    special_after_meld: bool = False  # a special hand may be declared by a side that has melded
    special_with_going_out: bool = False  # a special hand adds the going-out bonus
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
        """The ways of going out this seating allows: glatt ausmachen only where sides have partners
        (docs/rules.md, Austrian rulebook, "Going out")."""
        return tuple(g for g in self.going_out if not g.partner or self.layouts[0].partners)

    @property
    def black_threes_with_low_in_hand(self) -> bool:
        """Whether the cards left in hand count black threes with the 7 to 4: where a black three left in
        hand counts its card value and that is a 7 to 4's, as the rules' tables list them together
        (docs/rules.md, "Card values"). Not where it costs a penalty of its own (Canadian, a table's own
        rules) or a table gave it another value."""
        return (
            "black_threes" in self.hand_card_groups
            and "low" in self.hand_card_groups
            and not self.black_three_in_hand
            and self.card_values["black_threes"] == self.card_values["low"]
        )

    @property
    def max_card_points(self) -> int:
        """The card points of the whole deck without red threes: no side can meld or hold more."""
        return sum(self.card_values[k] * self.cards_in_deck[k] for k in CARD_GROUP_KEYS)

    @property
    def red_three_hint(self) -> str:
        """When red threes count plus or minus, as the hand form says it (a message id; ``points``: one's value)."""
        return RED_THREE_HINTS[self.red_three_sign]

    @property
    def red_three_rule(self) -> str:
        """When red threes count plus or minus, as the reference page says it under the table (a message id)."""
        if self.red_three_sign == RedThreeSign.CANASTA and self.red_three_melded_no_canasta == 0:
            return CANASTA_OR_NOTHING_RULE
        return RED_THREE_RULES[self.red_three_sign]

    @property
    def lone_hint(self) -> str:
        """Classic 3 players: who plays alone, as the hand form says it (a message id)."""
        return LONE_TRIGGER_HINTS[self.lone_trigger]

    @property
    def lone_partners_hint(self) -> str:
        """Classic 3 players: how the partners enter their hand (a message id)."""
        return LONE_PARTNERS_HINT

    @property
    def melded_hint(self) -> str:
        """Which cards the melded points count (a message id)."""
        return MELDED_WITH_BLACK_THREES if "black_threes" in self.melded_card_groups else MELDED_WITHOUT_THREES

    @property
    def hand_hint(self) -> str:
        """Whose cards the points in hand count (a message id); not black threes where one costs a penalty of
        its own (their row counts them: docs/rules.md, "Canadian Canasta (3 decks)", "A table's own rules")."""
        if self.black_three_in_hand:
            return HAND_OF_A_SIDE_BUT_BLACK_THREES if self.side_size > 1 else HAND_OF_A_PLAYER_BUT_BLACK_THREES
        return HAND_OF_A_SIDE if self.side_size > 1 else HAND_OF_A_PLAYER

    @property
    def black_three_hint(self) -> str:
        """Modern: how a three kept in hand is counted ("" where black threes are not melded apart)."""
        return THREE_KEPT_FOR_A_STRAIGHT if self.black_three_values else ""

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
