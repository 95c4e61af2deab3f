"""Checks within one side's entry: canastas against melded points, whether it melded, how it went out.

Each rule is one small function returning its problems; ``check_side`` runs them in order.
"""

from __future__ import annotations

from scorekeeper.core.checks.reading import ReadSide
from scorekeeper.core.messages import N_, Msg, Problem
from scorekeeper.core.rulesets import GoingOut, RuleSet
from scorekeeper.core.scoring import SideHand


def canastas_hold_their_points(rules: RuleSet, hand: SideHand, side: int) -> list[Problem]:
    """Melded points include the cards of the canastas, so each canasta needs its least card points.

    docs/rules.md, "Canastas" (a canasta is a meld of at least seven cards)."""
    least = sum(kind.min_points * hand.canasta_count(kind.key) for kind in rules.canasta_kinds)
    if hand.melded_points >= least:
        return []
    text = (
        N_(
            "1 canasta holds at least %(least)s points; melded cards are %(melded)s. "
            "Melded points include the cards in canastas."
        )
        if hand.canastas == 1
        else N_(
            "%(count)s canastas hold at least %(least)s points; melded cards are %(melded)s. "
            "Melded points include the cards in canastas."
        )
    )
    return [
        Problem(side, "melded_points", text, {"count": hand.canastas, "least": least, "melded": hand.melded_points})
    ]


def melded_agrees_with_the_melds(hand: SideHand, team: SideHand, way: GoingOut | None, side: int) -> list[Problem]:
    """ "Has melded" agrees with the melds: red threes alone are no meld; a classic-3p partner's melds may
    stand under the other partner, so the partnership's melds count for him.

    docs/rules.md, "Red and black threes" and "Classic Canasta (3 players)"."""
    if hand.has_melded is False and (hand.melded_points or hand.canastas):
        return [Problem(side, "has_melded", N_("A side with melded cards or canastas has melded."))]
    nothing_melded = not (team.melded_points or team.canastas or team.black_threes)
    if hand.has_melded and nothing_melded and not (way is not None and way.special):
        return [
            Problem(
                side,
                "has_melded",
                N_("Nothing is melded and there is no canasta, so this side has not melded (red threes are no meld)."),
            )
        ]
    return []


def way_is_offered(rules: RuleSet, way: GoingOut, side: int) -> list[Problem]:
    """Going out in one go on the partner's canasta needs a partner.

    docs/rules.md, Austrian rulebook, "Going out"."""
    if way in rules.going_out_offered:
        return []
    return [
        Problem(
            side,
            "went_out",
            N_("%(hand)s needs a partner who already has a canasta; here each player plays alone."),
            {"hand": Msg(way.label)},
        )
    ]


def special_hand_is_all_melded_at_once(rules: RuleSet, hand: SideHand, way: GoingOut, side: int) -> list[Problem]:
    """A special hand is melded at once by a team that had not melded before (a table's own rule set
    may allow it beside melds).

    docs/rules.md, Modern American Canasta, "Going out"; "A table's own rules"."""
    if rules.special_after_meld or not (
        hand.melded_points or hand.canastas or any(hand.incomplete_melds.values()) or hand.black_threes
    ):
        return []
    return [
        Problem(
            side,
            "went_out",
            N_("%(hand)s is only for a team that had not melded: leave its melds at 0."),
            {"hand": Msg(way.label)},
        )
    ]


def _going_out_text(rules: RuleSet) -> str:
    """The sentence saying what going out needs under these rules."""
    if rules.wild_canastas_to_go_out:
        return N_(
            "Going out needs at least %(total)s completed canastas, %(natural)s natural and "
            "%(wild)s wild-card; %(who)s has %(have)s."
        )
    if rules.natural_canastas_to_go_out:
        return N_("Going out needs at least %(total)s completed canastas, %(natural)s natural; %(who)s has %(have)s.")
    if rules.canastas_to_go_out == 1:
        return N_("Going out needs at least 1 completed canasta; %(who)s has %(have)s.")
    return N_("Going out needs at least %(total)s completed canastas; %(who)s has %(have)s.")


def enough_canastas_to_go_out(rules: RuleSet, hand: SideHand, team: SideHand, side: int) -> list[Problem]:
    """Going out needs the rule set's canastas (natural and wild ones where it says so); partners count
    the canastas of their side; a table's own kind of canasta counts only where the table says so.

    docs/rules.md, "Going out"; "A table's own rules"."""
    natural = sum(team.canasta_count(k.key) for k in rules.canasta_kinds if k.natural and k.goes_out)
    wild = sum(team.canasta_count(k.key) for k in rules.canasta_kinds if k.wild and k.goes_out)
    counted = sum(team.canasta_count(k.key) for k in rules.canasta_kinds if k.goes_out)
    if (
        counted >= rules.canastas_to_go_out
        and natural >= rules.natural_canastas_to_go_out
        and wild >= rules.wild_canastas_to_go_out
    ):
        return []
    who = Msg(N_("the partnership")) if team is not hand else Msg(N_("this side"))
    args = {
        "total": rules.canastas_to_go_out,
        "natural": rules.natural_canastas_to_go_out,
        "wild": rules.wild_canastas_to_go_out,
        "who": who,
        "have": counted,
    }
    return [Problem(side, "went_out", _going_out_text(rules), args)]


def no_unfinished_meld_that_forbids_going_out(rules: RuleSet, hand: SideHand, side: int) -> list[Problem]:
    """The house rule that forbids going out with an unfinished meld of 7s or pure aces.

    docs/rules.md, Modern American Canasta, "House rules"."""
    blocking = [
        d.label
        for d in rules.incomplete_melds
        if d.key in rules.no_going_out_with_incomplete and hand.incomplete_melds.get(d.key)
    ]
    if not blocking:
        return []
    return [
        Problem(
            side,
            "went_out",
            N_("House rule: no going out with this unfinished meld: %(meld)s."),
            {"meld": Msg(blocking[0])},
        )
    ]


def no_cards_left_after_going_out(rules: RuleSet, read: ReadSide, side: int) -> list[Problem]:
    """A player who plays alone and goes out has laid down every card.

    docs/rules.md, "Going out"."""
    hand = read.hand
    if rules.side_size != 1 or not (hand.hand_points or hand.black_threes_in_hand):
        return []
    if read.hand_cards is not None and (hand.hand_points or read.black_threes_at_penalty):
        field = "hand_cards"
    else:
        field = "hand_points" if hand.hand_points else "black_threes_in_hand"
    return [Problem(side, field, N_("A player who went out has no cards left in hand."))]


def black_threes_melded_as_a_set(rules: RuleSet, read: ReadSide, side: int) -> list[Problem]:
    """Black threes are melded only by the player going out, as a set of 3 or 4 (Canadian: all 6).

    docs/rules.md, "Red and black threes"; Canadian Canasta."""
    melded_black = (read.melded_cards or {}).get("black_threes", 0)
    if not melded_black:
        return []
    field = "melded_cards.black_threes"
    if not read.hand.went_out:
        return [Problem(side, field, N_("Black threes can only be melded by the player going out."))]
    sets = (rules.cards_in_deck["black_threes"],) if rules.black_threes_melded_all else (3, 4)
    if melded_black in sets:
        return []
    text = (
        N_("Black threes are melded as a set of all 6.")
        if rules.black_threes_melded_all
        else N_("Black threes are melded as a set of 3 or 4.")
    )
    return [Problem(side, field, text)]


def going_out_problems(rules: RuleSet, read: ReadSide, team: SideHand, way: GoingOut, side: int) -> list[Problem]:
    """What going out this way needs of the side."""
    hand = read.hand
    if way.special:
        return special_hand_is_all_melded_at_once(rules, hand, way, side)
    return (
        enough_canastas_to_go_out(rules, hand, team, side)
        + no_unfinished_meld_that_forbids_going_out(rules, hand, side)
        + no_cards_left_after_going_out(rules, read, side)
    )


def check_side(rules: RuleSet, read: ReadSide, side: int, team: SideHand | None = None) -> list[Problem]:
    """Checks within one side: canastas against melded points, whether it melded, going out.

    ``team``: the pooled partnership this side belongs to this hand (classic 3 players), whose
    canastas count for going out."""
    hand = read.hand
    team = team or hand
    way = rules.going_out_kind(hand.went_out) if hand.went_out else None
    problems = canastas_hold_their_points(rules, hand, side)
    problems += melded_agrees_with_the_melds(hand, team, way, side)
    if way is not None:
        problems += way_is_offered(rules, way, side)
        problems += going_out_problems(rules, read, team, way, side)
    problems += black_threes_melded_as_a_set(rules, read, side)
    return problems
