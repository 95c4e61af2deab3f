"""Checks across the sides of one hand: who went out, threes and cards the deck holds; reading and
checking a whole hand entry; and the figures that are possible but unlikely.

Each rule is one small function returning its problems; ``check_hand`` runs them in order.
"""

from __future__ import annotations

from typing import Any, Sequence

from scorekeeper.core.checks.ranks import rank_problems
from scorekeeper.core.checks.reading import ReadSide, read_lone, read_side
from scorekeeper.core.checks.side import check_side
from scorekeeper.core.entry import group, side_fields
from scorekeeper.core.messages import N_, Msg, Problem
from scorekeeper.core.rulesets import CARD_GROUP_KEYS, CARD_GROUPS, LOW_AND_BLACK_THREES, RuleSet
from scorekeeper.core.scoring import SideHand, pool

GROUP_LABELS = dict(CARD_GROUPS)


def one_side_went_out(reads: Sequence[ReadSide], stock_out: bool | None) -> list[Problem]:
    """A hand ends when one side goes out or the stock runs out, never both.

    docs/rules.md, "How a hand is scored"."""
    out = [i for i, read in enumerate(reads) if read.hand.went_out]
    problems = []
    if len(out) > 1:
        problems += [Problem(i, "went_out", N_("Only one side can go out in a hand."), shared=True) for i in out]
    if stock_out is True and out:
        problems.append(
            Problem(None, "stock_out", N_("A side went out, so the stock did not run out: untick one of them."))
        )
    if stock_out is False and not out:
        problems.append(Problem(None, "stock_out", N_("Mark the side that went out, or that the stock ran out.")))
    return problems


def red_threes_in_the_deck(rules: RuleSet, reads: Sequence[ReadSide]) -> list[Problem]:
    """The sides' red threes together are at most the deck's.

    docs/rules.md, "Red and black threes"."""
    reds = sum(read.hand.red_threes for read in reads)
    if reds <= rules.red_threes_in_deck:
        return []
    return [
        Problem(
            i,
            "red_threes",
            N_("The deck has %(deck)s red threes; the sides entered %(entered)s in all."),
            {"deck": rules.red_threes_in_deck, "entered": reds},
            shared=True,
        )
        for i, read in enumerate(reads)
        if read.hand.red_threes
    ]


def black_threes_in_the_deck(rules: RuleSet, reads: Sequence[ReadSide]) -> list[Problem]:
    """The black threes entered anywhere, melded or in hand, are at most the deck's: said beside every
    count of them (those among the cards, when over the deck by themselves, by
    ``cards_of_each_kind_in_the_deck``).

    docs/rules.md, "Card values"."""
    counts = _black_three_counts(reads)
    blacks = sum(count for _side, _field, count in counts)
    if blacks <= rules.cards_in_deck["black_threes"]:
        return []
    cards = [c for c in counts if c[1] in AMONG_THE_CARDS]  # over the deck by themselves: told so there
    if sum(count for _side, _field, count in cards) > rules.cards_in_deck["black_threes"]:
        counts = [c for c in counts if c not in cards]
    return [
        Problem(
            i,
            field,
            N_("The deck has %(deck)s black threes; %(entered)s are entered in all."),
            {"deck": rules.cards_in_deck["black_threes"], "entered": blacks},
            shared=True,
        )
        for i, field, _count in counts
    ]


# black threes counted among the cards (``cards_of_each_kind_in_the_deck`` checks these on their own too)
AMONG_THE_CARDS = ("melded_cards.black_threes", "hand_cards.black_threes")


def _black_three_counts(reads: Sequence[ReadSide]) -> list[tuple[int, str, int]]:
    """Each count of black threes entered apart, melded or in hand: (side, field, count), none of 0."""
    return [
        (i, field, count)
        for i, read in enumerate(reads)
        for field, count in (
            (AMONG_THE_CARDS[0], (read.melded_cards or {}).get("black_threes", 0)),
            (AMONG_THE_CARDS[1], (read.hand_cards or {}).get("black_threes", 0)),
            ("black_threes", read.hand.black_threes),
            ("black_threes_in_hand", read.hand.black_threes_in_hand - read.black_threes_at_penalty),
        )
        if count
    ]


def one_exact_cut(reads: Sequence[ReadSide]) -> list[Problem]:
    """Only the team that did not deal scores the exact cut.

    docs/rules.md, Canadian Canasta, "Going out"."""
    cuts = [i for i, read in enumerate(reads) if read.hand.exact_cut]
    if len(cuts) <= 1:
        return []
    text = N_("Only the team that did not deal gets the exact-cut bonus.")
    return [Problem(i, "exact_cut", text, shared=True) for i in cuts]


def cards_of_each_kind_in_the_deck(rules: RuleSet, reads: Sequence[ReadSide]) -> list[Problem]:
    """The cards counted of each kind, melded and in hand, are at most the deck's.

    docs/rules.md, "Card values". Where the cards left in hand count black threes with the 7 to 4, the
    melded 7 to 4 are checked against the deck's 7 to 4, and with those in hand and every black three
    entered against the deck's 7 to 4 and black threes together (the black threes alone:
    ``black_threes_in_the_deck``)."""
    pooled = rules.black_threes_with_low_in_hand
    problems = []
    melded_low_over = False
    for key in CARD_GROUP_KEYS:
        parts = ("melded_cards",) if key == "low" and pooled else ("melded_cards", "hand_cards")
        over = _over_the_deck(reads, key, parts, rules.cards_in_deck[key], GROUP_LABELS[key])
        melded_low_over = melded_low_over or (key == "low" and pooled and bool(over))
        problems += over
    if pooled and not melded_low_over:  # the black threes counted apart are in the sum, told so beside their counts
        # (a melded 7 to 4 over the deck's is told once, not again as over the 7 to 4 and black threes)
        deck = rules.cards_in_deck["low"] + rules.cards_in_deck["black_threes"]
        both = ("melded_cards", "hand_cards")
        problems += _over_the_deck(reads, "low", both, deck, LOW_AND_BLACK_THREES, _black_three_counts(reads))
    return problems


def _over_the_deck(
    reads: Sequence[ReadSide],
    key: str,
    parts: tuple[str, ...],
    deck: int,
    label: str,
    more: Sequence[tuple[int, str, int]] = (),
) -> list[Problem]:
    """A problem on every count of ``key`` in ``parts``, and on each of ``more`` ((side, field, count)),
    when together they are more than ``deck``."""
    counts = [
        (i, f"{part}.{key}", (getattr(read, part) or {}).get(key, 0)) for i, read in enumerate(reads) for part in parts
    ]
    counts = [c for c in counts if c[2]] + list(more)
    entered = sum(count for _side, _field, count in counts)
    if entered <= deck:
        return []
    args = {"deck": deck, "cards": Msg(label), "entered": entered}
    text = N_("The deck holds %(deck)s cards of the kind “%(cards)s”; %(entered)s are entered in all.")
    return [Problem(side, field, text, args, shared=True) for side, field, _count in counts]


def card_points_in_the_deck(rules: RuleSet, reads: Sequence[ReadSide]) -> list[Problem]:
    """The cards of all the sides together, melded and in hand, come from one deck.

    docs/rules.md, "Card values"."""
    points = sum(read.hand.melded_points + read.hand.hand_points for read in reads)
    if points <= rules.max_card_points:
        return []
    return [
        Problem(
            i,
            field,
            N_("The sides' cards come to %(entered)s points in all; the whole deck holds %(deck)s. Check the counts."),
            {"entered": points, "deck": rules.max_card_points},
            shared=True,
        )
        for i, read in enumerate(reads)
        for field, value in (("melded_points", read.hand.melded_points), ("hand_points", read.hand.hand_points))
        if value
    ]


def canastas_in_the_deck(rules: RuleSet, reads: Sequence[ReadSide]) -> list[Problem]:
    """Every canasta takes seven cards (a table's own kind may take more): all of them together fit in
    the deck.

    docs/rules.md, "Canastas" and "Card values"; "A table's own rules"."""
    cards = sum(rules.cards_in_deck[key] for key in CARD_GROUP_KEYS)
    canastas = sum(read.hand.canasta_count(k.key) for read in reads for k in rules.canasta_kinds)
    taken = sum(read.hand.canasta_count(k.key) * k.cards for read in reads for k in rules.canasta_kinds)
    if taken <= cards:
        return []
    return [
        Problem(
            i,
            f.name,
            N_("%(entered)s canastas in all need more cards than the deck holds (%(most)s canastas at most)."),
            {"entered": canastas, "most": cards // 7},
            shared=True,
        )
        for i, read in enumerate(reads)
        for f in group(side_fields(rules), "canastas")
        if read.hand.canasta_count(f.key)
    ]


def check_hand(
    rules: RuleSet, reads: Sequence[ReadSide], stock_out: bool | None = None, lone: int | None = None
) -> list[Problem]:
    """Checks across sides: one side went out or the stock ran out, threes and cards the deck holds."""
    team = None
    if rules.lone_player and lone is not None:
        team = pool([read.hand for i, read in enumerate(reads) if i != lone])
    problems: list[Problem] = []
    for index, read in enumerate(reads):
        problems += check_side(rules, read, index, team if index != lone else None)
    problems += one_side_went_out(reads, stock_out)
    problems += red_threes_in_the_deck(rules, reads)
    problems += black_threes_in_the_deck(rules, reads)
    problems += one_exact_cut(reads)
    problems += cards_of_each_kind_in_the_deck(rules, reads)
    problems += card_points_in_the_deck(rules, reads)
    problems += rank_problems(rules, reads)
    problems += canastas_in_the_deck(rules, reads)
    return problems


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
        # docs/rules.md, "Classic Canasta (3 players)": who goes out before anyone took the pile plays alone
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


def plausibility_warnings(
    rules: RuleSet, sides: Sequence[SideHand], minimums: Sequence[int], lone: int | None = None
) -> list[Problem]:
    """Figures that are possible but unlikely: melded points above 0 yet below the side's opening
    minimum for this hand. A way of going out that waives the minimum (concealed, Hand-Canasta, a
    Modern special hand) is not warned about, nor a Modern side with a natural or wild canasta, which
    may have opened with a splash. The form asks to confirm these; the API reports them without refusing.

    Classic 3 players with a lone player: the partner who melds first meets his own minimum and the
    other then melds freely, so the partners are warned only when their melds together are below the
    lower of their two minimums.

    docs/rules.md, "Opening minimum"."""
    partners = [i for i in range(len(sides)) if i != lone] if rules.lone_player and lone is not None else []
    pooled = sum(sides[i].melded_points for i in partners)
    lowest = min((minimums[i] for i in partners), default=0)
    warnings = []
    for index, (side, minimum) in enumerate(zip(sides, minimums)):
        if index in partners:
            if not (0 < side.melded_points and pooled < lowest):
                continue
            minimum = lowest
        if below_the_opening_minimum(rules, side, minimum):
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


def below_the_opening_minimum(rules: RuleSet, side: SideHand, minimum: int) -> bool:
    """Whether the side melded something, yet less than its minimum, with no way out that waives it and
    no canasta that may have been a splash (docs/rules.md, Modern American Canasta, "Opening minimum")."""
    if rules.splash_opening and any(side.canasta_count(k.key) for k in rules.canasta_kinds if k.natural or k.wild):
        return False
    way = rules.going_out_kind(side.went_out) if side.went_out else None
    return 0 < side.melded_points < minimum and not (way and way.waives_minimum)
