"""A table's own rule set (docs/rules.md, "A table's own rules"): made from a built-in rule set and
changed, each change one transaction that decides its conflicts inside it (a name another table
rule set took meanwhile, a change based on an older version) and goes on the change log."""

from __future__ import annotations

from typing import Any, Mapping

from sqlite_utils import Database

from scorekeeper.core import names, rulesets
from scorekeeper.core.messages import N_, Problem
from scorekeeper.services.verdicts import MISSING, OVERTAKEN, PROBLEMS, SAVED, UNCHANGED, Verdict
from scorekeeper.storage import changes as change_log
from scorekeeper.storage import house_rules, records, transaction

MOST_NAME = 60


def check(base: str, layout: str | None, name: str, values: Mapping[str, Any]) -> list[Problem]:
    """What is wrong with a table's own rule set, by field: the name, the layout, each value
    (an impossible table is refused beside the value that makes it so)."""
    if base not in rulesets.RULE_SETS:
        return [Problem(None, "base", N_("Unknown rule set."))]
    rules = rulesets.get(base)
    found = []
    if names.invisible(name):
        found.append(Problem(None, "name", names.INVISIBLE))
    elif not names.normal(name) or len(name) > MOST_NAME:
        found.append(Problem(None, "name", N_("Give it a name of 1 to %(most)s characters."), {"most": MOST_NAME}))
    elif names.skeleton(name) in {names.skeleton(r.name) for r in rulesets.RULE_SETS.values()}:
        found.append(
            Problem(None, "name", N_("That is the name of a built-in rule set: give yours a name of its own."))
        )
    if layout is not None and layout not in [lay.key for lay in rules.layouts]:
        found.append(
            Problem(
                None,
                "layout",
                N_("Unknown layout; %(rules)s has: %(keys)s."),
                {"rules": base, "keys": ", ".join(lay.key for lay in rules.layouts)},
            )
        )
    for value_name, (message, args) in rulesets.problems(rules, values).items():
        found.append(Problem(None, value_name, message, args))
    refused = {problem.field for problem in found}
    if values.get("opening_per_hand") and values.get("opening_by_hand") and "opening_per_hand" not in refused:
        # two rules for one minimum: refused for a rule set kept from now on (a game or a rule set that
        # has both keeps playing: the number times the hand decides, as it did)
        message = N_("Either this or the minimums by the hand's number above, not both: empty one of them.")
        found.append(Problem(None, "opening_per_hand", message))
    return found


def _taken(db: Database, name: str, other_than: int | None = None) -> bool:
    """Whether another of the table's own rule sets has this name, or one that looks like it ("Ours" and
    "Оurs" with a Cyrillic O, any case): two of them would read the same in every list."""
    seen = names.skeleton(name)
    return any(names.skeleton(other) == seen for other in house_rules.names(db, other_than))


def only_changes(base: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The values that differ from the rule set's defaults (what is kept)."""
    defaults = {v.name: v.default for v in rulesets.values_of(rulesets.with_settings(rulesets.get(base), values))}
    return {name: value for name, value in values.items() if defaults.get(name) != value}


def create(
    db: Database, name: str, base: str, layout: str | None, values: Mapping[str, Any], phone: str | None = None
) -> Verdict:
    """Keep a new table's own rule set: SAVED with its id, or PROBLEMS (a name already taken, or one
    that looks like it, is decided inside the write, with the unique index behind it). The name is
    kept as a player's is (NFC, one space between words)."""
    problems = check(base, layout, name, values)
    name = names.normal(name)
    if problems:
        return Verdict(PROBLEMS, problems=tuple(problems))
    kept = only_changes(base, values)
    with transaction.write(db):
        if _taken(db, name):
            return Verdict(PROBLEMS, problems=(Problem(None, "name", N_("A rule set of that name exists.")),))
        house_id = house_rules.insert(db, name, base, layout, kept)
        change_log.log_change(
            db, None, None, "house rules created", None, records.get_house_rules(db, house_id).record(), phone
        )
        return Verdict(SAVED, id=house_id)


def change(
    db: Database, house_id: int, version: int, name: str, values: Mapping[str, Any], phone: str | None = None
) -> Verdict:
    """Change a table's own rule set's name and values: SAVED, UNCHANGED, PROBLEMS, MISSING, or OVERTAKEN
    when another phone changed it since ``version``. Games already started keep their values."""
    typed, name = name, names.normal(name)
    with transaction.write(db):
        before = records.get_house_rules(db, house_id)
        if before is None:
            return Verdict(MISSING)
        if before.version != version:
            return Verdict(OVERTAKEN, id=house_id, now=before.version)
        problems = check(before.base, before.layout, typed, values)
        if problems:
            return Verdict(PROBLEMS, problems=tuple(problems))
        kept = only_changes(before.base, values)
        if name == before.name and kept == dict(before.changes):
            return Verdict(UNCHANGED, id=house_id)
        if _taken(db, name, other_than=house_id):
            return Verdict(PROBLEMS, problems=(Problem(None, "name", N_("A rule set of that name exists.")),))
        house_rules.update(db, house_id, version, name, kept)
        after = records.get_house_rules(db, house_id)
        change_log.log_change(db, None, None, "house rules changed", before.record(), after.record(), phone)
        return Verdict(SAVED, id=house_id)
