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

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets.model import (
    CARD_GROUPS,
    RED_THREE_RULES,
    CanastaKind,
    RedThreeSign,
    RuleSet,
    Setting,
    plain,
)

POINTS, COUNT, YES_NO, CHOICE = "points", "count", "yes_no", "choice"
MOST_POINTS = 10000  # no bonus, penalty or card of the books comes near it
MOST_TARGET = 100000  # as the API's target
TARGET_RANGE = (500, MOST_TARGET)  # a game's own target, as the forms take it (and so the import)


@dataclass(frozen=True)
class Value:
    """One changeable value of a rule set (docs/rules.md, "House rules")."""

    name: str  # stable: stored games, exports and the API hold it
    label: str  # a message id, ``label_args`` put into it
    explanation: str  # one line, a message id
    kind: str  # POINTS (a multiple of 5), COUNT, YES_NO or CHOICE
    default: Any
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[Any, str], ...] = ()
    group: str = "game"  # where the page shows it: cards, canastas, going_out, threes, opening, penalties, game
    label_args: tuple[tuple[str, Any], ...] = ()
    apply: Callable[[RuleSet, Any], RuleSet] = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    def fits(self, value: Any) -> bool:
        """Whether ``value`` is of this value's kind and within its limits."""
        if self.kind == CHOICE:
            return any(value == choice and type(value) is type(choice) for choice, _ in self.choices)
        if self.kind == YES_NO:
            return type(value) is bool
        if type(value) is not int or not (self.low <= value <= self.high):
            return False
        return self.kind != POINTS or value % 5 == 0


VALUE_GROUPS = (
    ("cards", N_("Card values")),
    ("canastas", N_("Canastas")),
    ("going_out", N_("Going out")),
    ("threes", N_("Red and black threes")),
    ("opening", N_("Opening minimum")),
    ("penalties", N_("Penalties")),
    ("game", N_("End of the game")),
    ("settings", N_("Settings")),
)


def _points(name, label, explanation, default, group, apply, args=(), low=0, high=MOST_POINTS) -> Value:
    """A value in points."""
    return Value(name, label, explanation, POINTS, default, low, high, (), group, tuple(args), apply)


def _count(name, label, explanation, default, group, apply, low=0, high=9) -> Value:
    """A value that counts something."""
    return Value(name, label, explanation, COUNT, default, low, high, (), group, (), apply)


def _yes_no(name, label, explanation, default, group, apply) -> Value:
    """A value that is on or off."""
    return Value(name, label, explanation, YES_NO, default, None, None, ((True, N_("yes")), (False, N_("no"))), group,
                 (), apply)  # fmt: skip


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


def _field(attribute: str, convert: Callable[[Any], Any] = int) -> Callable[[RuleSet, Any], RuleSet]:
    """Set one field of the rule set."""
    return lambda rules, value: replace(rules, **{attribute: convert(value)})


# ---------------------------------------------------------------------------------------------
# The list


def _card_values(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Card values"."""
    return [
        _points(
            f"card_{key}",
            N_("%(what)s: points each"),
            N_("What one card of this group counts, melded or in hand."),
            rules.card_values[key],
            "cards",
            _card_value(key),
            (("what", label),),
            high=1000,
        )  # fmt: skip
        for key, label in CARD_GROUPS
    ]


def _canastas(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Canastas" and "Going out"."""
    values = [
        _points(
            f"canasta_{k.key}",
            N_("%(what)s: bonus each"),
            N_("Added for each completed canasta of this kind."),
            k.bonus,
            "canastas",
            _canasta_bonus(k.key),
            (("what", k.label),),
        )  # fmt: skip
        for k in rules.canasta_kinds
    ]
    values.append(_count("canastas_to_go_out", N_("Canastas needed to go out"),
                         N_("A side may go out only with at least this many canastas."),
                         rules.canastas_to_go_out, "canastas", _field("canastas_to_go_out"), low=1))  # fmt: skip
    if any(k.natural for k in rules.canasta_kinds):
        values.append(_count("natural_canastas_to_go_out", N_("Of them natural"),
                             N_("How many of the canastas needed to go out must be natural."),
                             rules.natural_canastas_to_go_out, "canastas",
                             _field("natural_canastas_to_go_out")))  # fmt: skip
    if any(k.wild for k in rules.canasta_kinds):
        values.append(_count("wild_canastas_to_go_out", N_("Of them wild-card canastas"),
                             N_("How many of the canastas needed to go out must be of wild cards."),
                             rules.wild_canastas_to_go_out, "canastas", _field("wild_canastas_to_go_out")))  # fmt: skip
    return values


def _going_out(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Going out": each line a way of going out scores, once by its item."""
    values, seen = [], set()
    for way in rules.going_out:
        for item, label, points in way.lines:
            if item in seen:
                continue
            seen.add(item)
            explanation = N_("A special hand: the side scores this.") if way.special else N_(
                "Added for going out this way.")  # fmt: skip
            values.append(_points(f"{item}_bonus", N_("%(what)s: bonus"), explanation, points, "going_out",
                                  _line_points(item), (("what", label),)))  # fmt: skip
    if any(way.special for way in rules.going_out):
        values.append(_yes_no("special_adds", N_("A special hand adds to the rest of the hand"),
                              N_("No: the side scores only the special hand. Yes: its canastas, threes and cards too."),
                              rules.special_adds, "going_out", _field("special_adds", bool)))  # fmt: skip
    return values


def _threes(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Red and black threes"."""
    values = [
        _points(
            f"red_threes_{n}",
            N_("Red threes: %(count)s"),
            N_("What a side with this many red threes scores."),
            rules.red_three_values[n],
            "threes",
            _table_entry("red_three_values", n),
            (("count", n),),
        )  # fmt: skip
        for n in range(1, len(rules.red_three_values))
    ]
    values += [
        _points(
            f"black_threes_{n}",
            N_("Black threes: %(count)s"),
            N_("What a side with this many black threes melded scores."),
            rules.black_three_values[n],
            "threes",
            _table_entry("black_three_values", n),
            (("count", n),),
        )  # fmt: skip
        for n in range(1, len(rules.black_three_values))
    ]
    signs = tuple((sign.value, RED_THREE_RULES[sign]) for sign in RedThreeSign)
    values.append(Value("red_three_sign", N_("When red threes count minus"),
                        N_("Whether a side's red threes count plus or minus."), CHOICE, rules.red_three_sign.value,
                        choices=signs, group="threes",
                        apply=lambda r, v: replace(r, red_three_sign=RedThreeSign(v))))  # fmt: skip
    values.append(_points("red_three_minus_cap", N_("Red threes counting minus cost at most"),
                          N_("0: no cap. Otherwise red threes counting minus never cost a side more than this."),
                          rules.red_three_minus_cap, "threes", _field("red_three_minus_cap")))  # fmt: skip
    if rules.black_three_in_hand:
        values.append(_points("black_three_in_hand", N_("A black three left in hand costs"),
                              N_("Taken off for each black three still in hand at the end of a hand."),
                              rules.black_three_in_hand, "threes", _field("black_three_in_hand")))  # fmt: skip
    return values


def _opening_values(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Opening minimum": each tier's minimum and where it starts."""
    values = []
    for i, row in enumerate(rules.opening_minimums):
        values.append(_points(f"opening_{i + 1}", N_("Opening tier %(count)s: minimum"),
                              N_("Points the first meld needs for a side whose total is in this tier."), row.minimum,
                              "opening", _opening(i, "minimum"), (("count", i + 1),), high=1000))  # fmt: skip
        earlier = rules.opening_minimums[i - 1] if i else None
        if earlier is not None and earlier.high != -5:  # the tier after "negative" starts at 0
            values.append(_points(f"opening_{i + 1}_from", N_("Opening tier %(count)s: from a total of"),
                                  N_("The total at the start of a hand from which this tier applies."), row.low,
                                  "opening", _opening(i, "low"), (("count", i + 1),), low=5,
                                  high=MOST_TARGET))  # fmt: skip
    return values


def _penalties(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "Penalties"."""
    values = [
        _yes_no(
            "cards_in_hand_count",
            N_("Cards left in hand count against a side"),
            N_("No: cards still in hand at the end of a hand cost nothing."),
            rules.hand_counts,
            "penalties",
            _field("hand_counts", bool),
        )  # fmt: skip
    ]
    for attribute, prefix in (("incomplete_melds", "incomplete"), ("holding_penalties", "holding"),
                              ("penalty_catalogue", "offence")):  # fmt: skip
        for d in getattr(rules, attribute):
            what = (("what", d.label),)
            values.append(_points(f"{prefix}_{d.key}", N_("%(what)s: penalty"), N_("Taken off for each one."),
                                  d.points, "penalties", _deduction(attribute, d.key), what))  # fmt: skip
    if rules.exact_cut_bonus:
        values.append(_points("exact_cut_bonus", N_("Exact cut: bonus"), N_("Added to the team that did not deal."),
                              rules.exact_cut_bonus, "penalties", _field("exact_cut_bonus")))  # fmt: skip
    return values


def _game(rules: RuleSet) -> list[Value]:
    """docs/rules.md, "End of the game"."""
    return [
        _points(
            "target",
            N_("Target"),
            N_("The game ends after a hand in which a side reaches this."),
            rules.target,
            "game",
            _field("target"),
            low=5,
            high=MOST_TARGET,
        ),  # fmt: skip
        _count(
            "hands_limit",
            N_("The game ends after this many hands"),
            N_("0: no limit. Otherwise the game ends after this hand; the highest total wins."),
            rules.hands_limit,
            "game",
            _field("hands_limit"),
            high=200,
        ),  # fmt: skip
    ]


def _setting(setting: Setting) -> Value:
    """A setting of the rule set, in the same list (its choices as they are)."""
    kind = YES_NO if isinstance(setting.default, bool) else CHOICE
    return Value(setting.key, setting.label, setting.spec and N_("One of the options where the rule books disagree."),
                 kind, setting.default, choices=setting.choices, group="settings", apply=setting.apply)  # fmt: skip


def values_of(rules: RuleSet) -> tuple[Value, ...]:
    """Every changeable value of a rule set, in the order the page shows them. A generated value whose
    name is a setting's (Canadian's going-out bonus, black three in hand) takes the setting's place:
    its range holds the setting's options."""
    generated = _card_values(rules) + _canastas(rules) + _going_out(rules) + _threes(rules)
    generated += _opening_values(rules) + _penalties(rules) + _game(rules)
    names = {v.name for v in generated}
    settings = [_setting(s) for s in rules.settings if s.key not in names]
    return tuple(generated + settings)


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
    return rules


def problems(
    base: RuleSet, changes: Mapping[str, Any], settings: Mapping[str, Any] | None = None
) -> dict[str, tuple[str, dict[str, Any]]]:
    """What makes these changes an impossible table, by the name of the value to show it beside:
    (message id, its arguments). Empty: the table is possible. The names are those of ``base``'s list
    once the settings are applied (those among ``changes``, over ``settings`` given apart, as the API's
    request gives them)."""
    known = value_map(with_settings(base, {**(settings or {}), **changes}))
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for name, value in changes.items():
        spec = known.get(name)
        if spec is None:
            found[name] = (N_("Unknown value for %(rules)s."), {"rules": base.id})
        elif not spec.fits(value):
            found[name] = _out_of_range(spec)
    if found:
        return found
    values = {name: changes.get(name, spec.default) for name, spec in known.items()}
    return _table_problems(base, values)


def _out_of_range(spec: Value) -> tuple[str, dict[str, Any]]:
    """The message for a value that is not of its kind or outside its limits."""
    if spec.kind in (CHOICE, YES_NO):
        return N_("Use one of: %(choices)s."), {"choices": ", ".join(str(plain(c)).lower() for c, _ in spec.choices)}
    if spec.kind == POINTS:
        return N_("A multiple of 5 from %(low)s to %(high)s."), {"low": spec.low, "high": spec.high}
    return N_("A whole number from %(low)s to %(high)s."), {"low": spec.low, "high": spec.high}


def _table_problems(base: RuleSet, values: Mapping[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Values each possible alone that together make no table (docs/rules.md, "House rules")."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    tiers = len(base.opening_minimums)
    starts = [(i + 1, values.get(f"opening_{i + 1}_from")) for i in range(tiers)]
    starts = [(n, low) for n, low in starts if low is not None]
    for (_, before), (n, low) in zip(starts, starts[1:]):
        if low <= before:
            found[f"opening_{n}_from"] = (N_("Each tier must start above the one before (%(before)s)."),
                                          {"before": before})  # fmt: skip
    for n in range(2, tiers + 1):
        before, minimum = values[f"opening_{n - 1}"], values[f"opening_{n}"]
        if minimum < before:
            found[f"opening_{n}"] = (N_("A tier's minimum cannot be below the tier before (%(before)s)."),
                                     {"before": before})  # fmt: skip
    first = min((low for _, low in starts), default=None)
    if first is not None and values["target"] <= first:
        found["target"] = (N_("The target must be above the first opening tier (%(first)s)."), {"first": first})
    needed = values["canastas_to_go_out"]
    parts = values.get("natural_canastas_to_go_out", 0) + values.get("wild_canastas_to_go_out", 0)
    if parts > needed:
        name = "natural_canastas_to_go_out" if "natural_canastas_to_go_out" in values else "wild_canastas_to_go_out"
        found[name] = (N_("More than the %(count)s canastas needed to go out."), {"count": needed})
    if all(values[f"card_{key}"] == 0 for key, _ in CARD_GROUPS):
        found["card_jokers"] = (N_("At least one card must count."), {})
    return found
