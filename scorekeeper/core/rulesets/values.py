"""House rules as data: every value of a rule set's table a table may change, in one list per rule set.

Each value has a stable name, a default (the rule set's own), a kind, limits and a one-line
explanation, as Datasette lists its settings. The rule set's settings (the options where the rule
books disagree) join the same list. ``values_of(rules)`` gives the list; ``apply_values`` gives the
rule set with some values changed; ``problems`` says which changes make an impossible table.

A game keeps the values it changed in its ``settings`` (name → value): the settings and the values
share one namespace, so a stored game, an export and the API carry them the same way.

Pure: the standard library only. The rules behind each value: docs/rules.md, "House rules".
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.changeable import (
    CHOICE,
    MOST_POINTS,
    MOST_TARGET,
    YES_NO,
    Value,
    count,
    points,
    setter,
    yes_no,
)
from scorekeeper.core.rulesets.model import (
    CARD_GROUPS,
    RED_THREE_RULES,
    CanastaKind,
    RedThreeSign,
    RuleSet,
    Setting,
    plain,
)
from scorekeeper.core.rulesets.own_kinds import own_values, with_own_kinds
from scorekeeper.core.rulesets.own_rules import opening_by_hand, special_hands

# ---------------------------------------------------------------------------------------------
# How each value changes the table


def canasta_floor(kind: CanastaKind, cards: Mapping[str, int], original: int) -> int:
    """The fewest card points a canasta of this kind can hold with these card values (docs/rules.md,
    "Canastas"): seven natural cards; six naturals and one wild card; seven wild cards as the kind
    has them."""
    low, wild, joker = cards["low"], cards["twos_aces"], cards["jokers"]
    if not kind.wild:
        naturals = min(low, cards["high"], wild) if kind.ranks else low
        return 7 * naturals if kind.natural else min((7 - k) * low + k * min(wild, joker) for k in (1, 2, 3))
    if kind.key == "jokers":
        return 4 * joker + 3 * wild
    return joker + 6 * wild if original > 140 else 7 * wild


def _card_value(group: str) -> Callable[[RuleSet, Any], RuleSet]:
    """Set the points of one card group; the canastas' least points follow."""

    def apply(rules: RuleSet, value: Any) -> RuleSet:
        cards = dict(rules.card_values, **{group: int(value)})
        kinds = tuple(replace(k, min_points=canasta_floor(k, cards, k.min_points)) for k in rules.canasta_kinds)
        return replace(rules, card_values=cards, canasta_kinds=kinds)

    return apply


def _canasta_bonus(key: str) -> Callable[[RuleSet, Any], RuleSet]:
    """Set one kind of canasta's bonus."""
    return lambda rules, value: replace(
        rules, canasta_kinds=tuple(replace(k, bonus=int(value)) if k.key == key else k for k in rules.canasta_kinds)
    )


def _line_points(item: str) -> Callable[[RuleSet, Any], RuleSet]:
    """Set a going-out line (the 100 for going out, a concealed bonus, a special hand) wherever it appears."""

    def apply(rules: RuleSet, value: Any) -> RuleSet:
        ways = tuple(
            replace(way, lines=tuple((i, label, int(value) if i == item else p) for i, label, p in way.lines))
            for way in rules.going_out
        )
        return replace(rules, going_out=ways)

    return apply


def _table_entry(attribute: str, index: int) -> Callable[[RuleSet, Any], RuleSet]:
    """Set one entry of a threes table (red or black threes by how many a side has)."""

    def apply(rules: RuleSet, value: Any) -> RuleSet:
        table = list(getattr(rules, attribute))
        table[index] = int(value)
        return replace(rules, **{attribute: tuple(table)})

    return apply


def _deduction(attribute: str, key: str) -> Callable[[RuleSet, Any], RuleSet]:
    """Set the points of one penalty of a table (incomplete melds, holding, the rule book's offences)."""
    return lambda rules, value: replace(
        rules,
        **{attribute: tuple(replace(d, points=int(value)) if d.key == key else d for d in getattr(rules, attribute))},
    )


def _opening(index: int, part: str) -> Callable[[RuleSet, Any], RuleSet]:
    """Set a tier's minimum or where it starts (the tier before then ends 5 below)."""

    def apply(rules: RuleSet, value: Any) -> RuleSet:
        rows = list(rules.opening_minimums)
        rows[index] = replace(rows[index], **{part: int(value)})
        if part == "low":
            rows[index - 1] = replace(rows[index - 1], high=int(value) - 5)
        return replace(rules, opening_minimums=tuple(rows))

    return apply


def _card_values(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Card values"."""
    return [
        points(
            f"card_{key}",
            N_("%(what)s: points each"),
            N_("What one card of this group counts, melded or in hand."),
            rules.card_values[key],
            "cards",
            _card_value(key),
            (("what", label),),
            high=1000,
        )
        for key, label in CARD_GROUPS
    ]


def _canastas(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Canastas" and "Going out"."""
    values = [
        points(
            f"canasta_{k.key}",
            N_("%(what)s: bonus each"),
            N_("Added for each completed canasta of this kind."),
            k.bonus,
            "canastas",
            _canasta_bonus(k.key),
            (("what", k.label),),
        )
        for k in rules.canasta_kinds
    ]
    return values + _canastas_to_go_out(rules)


def _canastas_to_go_out(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Going out": how many canastas, and of which kinds, a side needs to go out."""
    values = [
        count(
            "canastas_to_go_out",
            N_("Canastas needed to go out"),
            N_("A side may go out only with at least this many canastas."),
            rules.canastas_to_go_out,
            "canastas",
            setter("canastas_to_go_out"),
            low=0,
        )
    ]
    if any(k.natural for k in rules.canasta_kinds):
        values.append(
            count(
                "natural_canastas_to_go_out",
                N_("Of them natural"),
                N_("How many of the canastas needed to go out must be natural."),
                rules.natural_canastas_to_go_out,
                "canastas",
                setter("natural_canastas_to_go_out"),
            )
        )
    if any(k.wild for k in rules.canasta_kinds):
        values.append(
            count(
                "wild_canastas_to_go_out",
                N_("Of them wild-card canastas"),
                N_("How many of the canastas needed to go out must be of wild cards."),
                rules.wild_canastas_to_go_out,
                "canastas",
                setter("wild_canastas_to_go_out"),
            )
        )
    return values


def _going_out(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Going out": each line a way of going out scores, once by its item."""
    values, seen = [], set()
    for way in rules.going_out:
        for number, (item, label, bonus) in enumerate(way.lines):
            if item in seen:
                continue
            seen.add(item)
            if way.special:
                explanation = N_("A special hand: the side scores this.")
            elif number:  # concealed: on top of the going-out bonus, as the rules page adds them up
                explanation = N_("Added to the going-out bonus for going out this way.")
            else:
                explanation = N_("Added for going out this way.")
            values.append(
                points(
                    f"{item}_bonus",
                    N_("%(what)s: bonus"),
                    explanation,
                    bonus,
                    "going_out",
                    _line_points(item),
                    (("what", label),),
                )
            )
    return values + special_hands(rules)


def _threes(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Red and black threes": the tables of red and black threes, then their rules."""
    values = [
        points(
            f"red_threes_{n}",
            N_("Red threes: %(count)s"),
            N_("What a side with this many red threes scores (a minus entry counts against it)."),
            rules.red_three_values[n],
            "threes",
            _table_entry("red_three_values", n),
            (("count", n),),
            low=-MOST_POINTS,
        )
        for n in range(1, len(rules.red_three_values))
    ]
    values += [
        points(
            f"black_threes_{n}",
            N_("Black threes: %(count)s"),
            N_("What a side with this many black threes melded scores."),
            rules.black_three_values[n],
            "threes",
            _table_entry("black_three_values", n),
            (("count", n),),
        )
        for n in range(1, len(rules.black_three_values))
    ]
    return values + _three_rules(rules)


def _three_rules(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Red and black threes": when red threes count minus, a cap, black threes in hand."""
    values = []
    signs = tuple((sign.value, RED_THREE_RULES[sign]) for sign in RedThreeSign)
    values.append(
        Value(
            "red_three_sign",
            N_("When red threes count minus"),
            N_("Whether a side's red threes count plus or minus."),
            CHOICE,
            rules.red_three_sign.value,
            choices=signs,
            group="threes",
            apply=lambda r, v: replace(r, red_three_sign=RedThreeSign(v)),
        )
    )
    values.append(
        points(
            "red_three_minus_cap",
            N_("Red threes counting minus cost at most"),
            N_("0: no cap. Otherwise red threes counting minus never cost a side more than this."),
            rules.red_three_minus_cap,
            "threes",
            setter("red_three_minus_cap"),
        )
    )
    values.append(
        points(
            "black_three_in_hand",
            N_("A black three left in hand costs"),
            N_("0: nothing. Otherwise taken off for each black three still in hand at the end of a hand."),
            rules.black_three_in_hand,
            "threes",
            _black_three_in_hand,
        )
    )
    return values


def _black_three_in_hand(rules: RuleSet, value: Any) -> RuleSet:
    """What a black three left in hand costs. 0 leaves it at its card value, among the cards left in hand,
    also where the rule set counts them apart for their penalty (Canadian): else they could not be
    entered at all (docs/rules.md, "A table's own rules")."""
    groups = rules.hand_card_groups
    if not int(value) and "black_threes" not in groups:
        groups = tuple(key for key, _label in CARD_GROUPS if key in groups or key == "black_threes")
    return replace(rules, black_three_in_hand=int(value), hand_card_groups=groups)


def _opening_values(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Opening minimum": each tier's minimum and where it starts."""
    values = []
    for i, row in enumerate(rules.opening_minimums):
        values.append(
            points(
                f"opening_{i + 1}",
                N_("Opening tier %(count)s: minimum"),
                N_("Points the first meld needs for a side whose total is in this tier."),
                row.minimum,
                "opening",
                _opening(i, "minimum"),
                (("count", i + 1),),
                high=1000,
            )
        )
        earlier = rules.opening_minimums[i - 1] if i else None
        if earlier is not None and earlier.high != -5:  # the tier after "negative" starts at 0
            values.append(
                points(
                    f"opening_{i + 1}_from",
                    N_("Opening tier %(count)s: from a total of"),
                    N_("The total at the start of a hand from which this tier applies."),
                    row.low,
                    "opening",
                    _opening(i, "low"),
                    (("count", i + 1),),
                    low=5,
                    high=MOST_TARGET,
                )
            )
    return values + opening_by_hand(rules)


_DEDUCTION_LISTS = (
    ("incomplete_melds", "incomplete"),
    ("holding_penalties", "holding"),
    ("penalty_catalogue", "offence"),
)


def _penalties(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Penalties"."""
    values = [
        yes_no(
            "cards_in_hand_count",
            N_("Cards left in hand count against a side"),
            N_("No: cards still in hand at the end of a hand cost nothing."),
            rules.hand_counts,
            "penalties",
            setter("hand_counts", bool),
        )
    ]
    values += [
        points(
            f"{prefix}_{d.key}",
            N_("%(what)s: penalty"),
            N_("Taken off for each one."),
            d.points,
            "penalties",
            _deduction(attribute, d.key),
            (("what", d.label),),
        )
        for attribute, prefix in _DEDUCTION_LISTS
        for d in getattr(rules, attribute)
    ]
    if rules.exact_cut_bonus:
        values.append(
            points(
                "exact_cut_bonus",
                N_("Exact cut: bonus"),
                N_("Added to the team that did not deal."),
                rules.exact_cut_bonus,
                "penalties",
                setter("exact_cut_bonus"),
            )
        )
    return values


def _game(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "End of the game"."""
    return [
        points(
            "target",
            N_("Target"),
            N_("The game ends after a hand in which a side reaches this."),
            rules.target,
            "game",
            setter("target"),
            low=5,
            high=MOST_TARGET,
        ),
        count(
            "hands_limit",
            N_("The game ends after this many hands"),
            N_("0: no limit. Otherwise the game ends after this hand; the highest total wins."),
            rules.hands_limit,
            "game",
            setter("hands_limit"),
            high=200,
        ),
    ]


def _setting(setting: Setting) -> Value:
    """A setting of the rule set, in the same list (its choices as they are)."""
    kind = YES_NO if isinstance(setting.default, bool) else CHOICE
    return Value(
        setting.key,
        setting.label,
        setting.spec and N_("One of the options where the rule books disagree."),
        kind,
        setting.default,
        choices=setting.choices,
        group="settings",
        apply=setting.apply,
    )


def values_of(rules: RuleSet) -> tuple[Value, ...]:
    """Every changeable value of a rule set, in the order the page shows them. A generated value whose
    name is a setting's (Canadian's going-out bonus, black three in hand) takes the setting's place:
    its range holds the setting's options."""
    generated = _card_values(rules) + _canastas(rules) + _going_out(rules) + _threes(rules)
    generated += _opening_values(rules) + _penalties(rules) + _game(rules)
    names = {v.name for v in generated}
    settings = [_setting(s) for s in rules.settings if s.key not in names]
    return tuple(generated + settings + own_values())


def value_map(rules: RuleSet) -> dict[str, Value]:
    """The values by name."""
    return {v.name: v for v in values_of(rules)}


def with_settings(base: RuleSet, changes: Mapping[str, Any]) -> RuleSet:
    """``base`` with the settings among ``changes`` applied (one that is not among its setting's
    choices: the default, as the problems say), so its list of values is the one these changes may
    name: a setting may bring values of its own (``wild_melds``: ``canasta_wild`` and
    ``incomplete_wild``; docs/rules.md, "House rules")."""
    rules = base
    for setting in base.settings:
        value = changes.get(setting.key, setting.default)
        rules = setting.apply(rules, value if _setting(setting).fits(value) else setting.default)
    return rules


def apply_values(rules: RuleSet, base: RuleSet, changes: Mapping[str, Any]) -> RuleSet:
    """``rules`` with the values named in ``changes`` set (the settings are applied before, by
    ``configure``); names not of the list of ``base`` with the settings applied, and the settings,
    are left alone."""
    setting_keys = {s.key for s in base.settings}
    for value in values_of(with_settings(base, changes)):
        if value.name in changes and (value.name not in setting_keys or value.group != "settings"):
            rules = value.apply(rules, plain(changes[value.name]))
    return with_own_kinds(rules, changes)
