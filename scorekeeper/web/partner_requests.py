"""A request for fair partners, as a page or the API asks for it: which players (by id), which rule
set and which of its layouts; its problems in the players' words (message ids)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from scorekeeper.core import numbers, rulesets
from scorekeeper.core.messages import N_, Problem
from scorekeeper.core.models import Player
from scorekeeper.storage import leaderboard

DEFAULT_RULES = {4: "classic", 6: "six-3x2"}


def partner_layouts(rules: rulesets.RuleSet, count: int) -> list[rulesets.Layout]:
    """The rule set's layouts for ``count`` players in sides of partners all of one size."""
    return [
        layout
        for layout in rules.layouts
        if layout.players == count
        and len(layout.sides) > 1
        and len({len(s) for s in layout.sides}) == 1
        and len(layout.sides[0]) > 1
    ]


def partner_rule_sets(count: int | None = None) -> list[rulesets.RuleSet]:
    """The rule sets with partnerships for ``count`` players (4 or 6 without)."""
    return [
        rules
        for rules in rulesets.RULE_SETS.values()
        if any(partner_layouts(rules, n) for n in ((count,) if count else (4, 6)))
    ]


@dataclass(frozen=True)
class TeamRequest:
    """Who is to be seated, by which rules and layout (a layout of those rules for that many)."""

    players: list[Player]
    rules: rulesets.RuleSet
    layout: rulesets.Layout


def _player_problems(ids: list[int], found: dict[int, Player]) -> list[Problem]:
    """How many players, each once, each one of the archive."""
    problems = []
    if len(ids) not in (4, 6):
        problems.append(Problem(None, "players", N_("Give 4 or 6 players.")))
    if len(set(ids)) != len(ids):
        problems.append(Problem(None, "players", N_("Give each player once.")))
    for pid in dict.fromkeys(ids):
        if pid not in found:
            problems.append(Problem(None, "players", N_("There is no player %(id)s."), {"id": pid}))
    return problems


def _layout_problems(
    rules: rulesets.RuleSet, count: int, layout: str | None
) -> tuple[rulesets.Layout | None, list[Problem]]:
    """The layout of these rules for ``count`` players (``layout``'s, or the first), or why there is none."""
    layouts = partner_layouts(rules, count)
    chosen = [x for x in layouts if layout in (None, "", x.key)]
    if not layouts:
        known = ", ".join(r.id for r in partner_rule_sets(count))
        text = N_("%(rules)s has no partnerships for %(count)s players; use one of: %(known)s.")
        return None, [Problem(None, "variant", text, {"rules": rules.id, "count": count, "known": known})]
    if not chosen:
        keys = ", ".join(x.key for x in layouts)
        text = N_("Unknown layout; %(rules)s has: %(keys)s.")
        return None, [Problem(None, "layout", text, {"rules": rules.id, "keys": keys})]
    return chosen[0], []


def team_request(
    db: Database, players: str | None, variant: str | None = None, layout: str | None = None
) -> tuple[TeamRequest | None, list[Problem]]:
    """Read a request for fair partners: ``players`` as ids joined by commas (4 or 6 different
    players of the archive), ``variant`` a rule set with partnerships for that many (by default
    classic for 4, six-3x2 for 6), ``layout`` one of its layouts for them (by default its first)."""
    # each by the rule of core.numbers, the list without spaces (as the API's document writes it)
    ids = [numbers.whole(x, digits=19) if x == x.strip() else None for x in (players or "").split(",")]
    if None in ids:
        return None, [Problem(None, "players", N_("Give the players' ids joined by commas, e.g. 1,2,3,4."))]
    found = leaderboard.players_by_id(db, ids)
    problems = _player_problems(ids, found)
    rules = rulesets.RULE_SETS.get(variant or DEFAULT_RULES.get(len(ids), "classic"))
    chosen = None
    if rules is None:
        known = ", ".join(r.id for r in partner_rule_sets())
        problems.append(Problem(None, "variant", N_("Unknown variant; use one of: %(known)s."), {"known": known}))
    elif len(ids) in (4, 6):
        chosen, wrong = _layout_problems(rules, len(ids), layout)
        problems += wrong
    if problems:
        return None, problems
    return TeamRequest([found[pid] for pid in ids], rules, chosen), []
