"""A table's own rule sets (docs/rules.md, "A table's own rules"): the list, and one page to start
from a built-in rule set, change any value (each shows its default, changed ones are marked), name
it and keep it. What was typed is kept when something is refused; the message stands beside the value."""

from __future__ import annotations

import json
import re
from enum import StrEnum
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm

from scorekeeper.core import numbers, rulesets
from scorekeeper.core.messages import N_, Problem
from scorekeeper.services import house_rules as service
from scorekeeper.services.verdicts import MISSING, OVERTAKEN, PROBLEMS
from scorekeeper.storage import records
from scorekeeper.storage.db import get_db
from scorekeeper.web import i18n
from scorekeeper.web.games.changelog import ACTION_NAMES
from scorekeeper.web.games.common import phone_token

HOUSE_PREFIX = "house-"

bp = Blueprint("house_rules", __name__)


def house_of(variant: str) -> records.HouseRules | None:
    """The table's own rule set a ``house-<id>`` variant names, or None; 404 for a missing one."""
    if not variant.startswith(HOUSE_PREFIX):
        return None
    number = numbers.whole(variant[len(HOUSE_PREFIX) :], digits=18)
    found = records.get_house_rules(get_db(), number) if number is not None else None
    if found is None:
        abort(404)
    return found


@bp.app_template_global()
def game_settings(game) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game's settings and its table's own values apart, as POST /api/score takes them (the hand form's
    live score sends both)."""
    keys = {setting.key for setting in rulesets.get(game.variant).settings}
    settings = {k: v for k, v in game.settings.items() if k in keys}
    return settings, {k: v for k, v in game.settings.items() if k not in keys}


def rule_set_keys(own) -> set[str]:
    """What a rule-set filter may be: a built-in rule set's id, or ``house-<id>`` of a table's own."""
    return set(rulesets.RULE_SETS) | {f"{HOUSE_PREFIX}{h.id}" for h in own}


@bp.get("/house-rules")
def house_list():
    """The table's own rule sets, and the built-in ones to start a new one from."""
    return render_template(
        "games/house_list.html",
        house=records.all_house_rules(get_db()),
        rule_sets=rulesets.RULE_SETS.values(),
        names={r.id: r.name for r in rulesets.RULE_SETS.values()},
    )


def _typed(spec: rulesets.Value) -> str:
    """What was sent for one value, as typed."""
    return (request.form.get(f"v_{spec.name}") or "").strip()


def _read(spec: rulesets.Value, typed: str) -> tuple[Any, Problem | None]:
    """A typed value as the kind it is, or the problem with it."""
    if spec.kind == "text":
        return " ".join(typed.split()), None
    if spec.kind == "list":
        numbers_typed = [part for part in re.split(r"[\s,;]+", typed) if part]
        read = [numbers.whole(part, signed=True, digits=7) for part in numbers_typed]
        if None in read:
            return None, Problem(None, spec.name, N_("Give whole numbers separated by commas."))
        return read, None
    if spec.kind in ("points", "count"):  # a number of any length: its range is said beside it (_readable_problems)
        number = numbers.whole(typed, signed=True)
        if number is None:
            return None, Problem(None, spec.name, N_("Give a whole number."))
        return number, None
    for choice, _label in spec.choices:
        if str(choice).lower() == typed.lower():
            return choice, None
    return None, Problem(None, spec.name, N_("Choose one of the options."))


def _settings_sent(rules: rulesets.RuleSet) -> dict[str, Any]:
    """The settings as sent (a setting brings values of its own into the list: ``with_settings``)."""
    sent = {}
    for setting in rules.settings:
        spec = rulesets.value_map(rules).get(setting.key)
        if spec is not None:
            value, problem = _read(spec, _typed(spec))
            if problem is None:
                sent[setting.key] = value
    return sent


def specs_of(rules: rulesets.RuleSet, values: dict[str, Any]) -> tuple[rulesets.Value, ...]:
    """The values the page offers: the rule set's once the chosen settings are applied (with wild-card
    melds allowed, the wild canasta's bonus is one of them; docs/rules.md, "House rules")."""
    return rulesets.values_of(rulesets.with_settings(rules, values))


SHOWN_SETTINGS = "shown_settings"


def shown_settings(rules: rulesets.RuleSet, settings: dict[str, Any] | None) -> str:
    """The settings a page shows its values under, for the form to send back (``_untouched``)."""
    chosen = settings or {}
    return json.dumps({s.key: chosen.get(s.key, s.default) for s in rules.settings}, sort_keys=True)


def _shown_under(rules: rulesets.RuleSet) -> dict[str, Any] | None:
    """The settings the page that was sent showed its values under, or None (a page without them)."""
    try:
        said = json.loads(request.form.get(SHOWN_SETTINGS) or "null")
    except ValueError:
        return None
    if not isinstance(said, dict):
        return None
    keys = {s.key for s in rules.settings}
    return {key: value for key, value in said.items() if key in keys}


def _untouched(rules: rulesets.RuleSet, settings: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What the page showed each value as (its default under the settings it was shown under) and each
    value's default under the settings sent: a value sent as the page showed its default follows the
    settings chosen on the same page (six players' red threes "plus anyway" brings the sign rule with
    it; the form also sends the sign it showed, which is no choice of the player's), and a value the
    settings bring that the page did not show (wild-card melds allowed: the wild canasta's bonus)
    starts at its default (docs/rules.md, "A table's own rules")."""
    under = _shown_under(rules)
    if under is None:
        return {}, {}
    shown = {spec.name: spec.default for spec in specs_of(rules, under)}
    now = {spec.name: spec.default for spec in specs_of(rules, settings)}
    return shown, now


def _as_read(default: Any) -> Any:
    """A default as ``_read`` gives the value back: a list for a list, an option's text."""
    return list(default) if isinstance(default, tuple) else str(default) if isinstance(default, StrEnum) else default


def _sent(rules: rulesets.RuleSet) -> tuple[dict[str, Any], dict[str, str], list[Problem]]:
    """The values sent (every one, defaults included), what was typed, and what could not be read;
    a value left as the page showed its default follows the settings chosen (``_untouched``)."""
    values, typed, problems = {}, {}, []
    settings = _settings_sent(rules)
    shown, now = _untouched(rules, settings)
    setting_keys = {s.key for s in rules.settings}
    for spec in specs_of(rules, settings):
        typed[spec.name] = _typed(spec)
        if shown and spec.name not in setting_keys:
            if spec.name not in shown and not typed[spec.name]:
                typed[spec.name] = _shown(spec, now[spec.name])
            elif spec.name in shown and shown[spec.name] != now[spec.name]:
                if _read(spec, typed[spec.name]) == (_as_read(shown[spec.name]), None):
                    typed[spec.name] = _shown(spec, now[spec.name])
        value, problem = _read(spec, typed[spec.name])
        if problem is None:
            values[spec.name] = value
        else:
            problems.append(problem)
    return values, typed, problems


def _readable_problems(rules, layout, name, values, unread) -> list[Problem]:
    """Beside values that could not be read: what is wrong with the name, the layout and each value read
    on its own, said on the same Save. The checks across values wait until every value is read (with a
    default standing in for one typed wrong, they would speak of a value nobody typed)."""
    found = [p for p in service.check(rules.id, layout, name, {}) if p.field in ("name", "layout")]
    specs = {spec.name: spec for spec in specs_of(rules, values)}
    for key, value in values.items():
        spec = specs.get(key)
        if spec is not None and key not in unread and not spec.fits(value):
            message, args = rulesets.problems(rules, {key: value})[key]
            found.append(Problem(None, key, message, args))
    return found


def _page(rules, house, typed, problems, name, layout, status=200, settings=None):
    """The page of one table's own rule set: its values by group, each with its default, and what
    was changed in it when (the change log)."""
    by_field: dict[str, list[str]] = {}
    for problem in problems:
        by_field.setdefault(problem.field, []).append(i18n.problem_message(problem))
    history = [] if house is None else [(c, _differences(rules, c)) for c in records.house_changes(get_db(), house.id)]
    return render_template(
        "games/house.html",
        rules=rules,
        house=house,
        specs=specs_of(rules, settings or {}),
        typed=typed,
        errors=by_field,
        name=name,
        layout=layout,
        groups=rulesets.VALUE_GROUPS,
        form=FlaskForm(),
        label=i18n.value_label,
        shown=_shown,
        default_text=default_text,
        history=history,
        actions=ACTION_NAMES,
        shown_settings=shown_settings(rules, settings),
    ), status


def _differences(rules: rulesets.RuleSet, change) -> list[tuple[str, str, str]]:
    """What one change of a table's own rule set did: (what, before, after) for its name and each
    value it changed (a value left at its default shows the default)."""
    before, after = change.before or {}, change.after or {}
    found = []
    if before and before.get("name") != after.get("name"):
        found.append((gettext("Name"), before.get("name", ""), after.get("name", "")))
    old, new = before.get("changes", {}), after.get("changes", {})
    for spec in specs_of(rules, {**old, **new}):
        if spec.name in old or spec.name in new:
            was, now = old.get(spec.name, spec.default), new.get(spec.name, spec.default)
            if was != now or not before:
                found.append((i18n.value_label(spec), _said(spec, was), _said(spec, now)))
    return found


def _said(spec: rulesets.Value, value: Any) -> str:
    """A value as the change log says it."""
    return i18n.value_text(spec, value)


def _shown(spec: rulesets.Value, value: Any) -> str:
    """A value as the page shows it in a field ("true" / "false" for yes and no, the option's text, a
    list as "125, 155, 180")."""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


def default_text(spec: rulesets.Value) -> str:
    """A value's default as the page says it: the option's words, or the number."""
    return _said(spec, spec.default)


def changed_parts(rules: rulesets.RuleSet, changes: dict[str, Any]) -> set[str]:
    """The names of the values a table's own rule set changed (its defaults left out)."""
    defaults = {spec.name: spec.default for spec in specs_of(rules, changes)}
    return {name for name, value in changes.items() if defaults.get(name) != value}


@bp.route("/house-rules/new/<variant>", methods=["GET", "POST"])
def new_house(variant: str):
    """Start a table's own rule set from a built-in one."""
    rules = rulesets.RULE_SETS.get(variant)
    if rules is None:
        abort(404)
    defaults = {spec.name: _shown(spec, spec.default) for spec in rulesets.values_of(rules)}
    if request.method == "GET":
        return _page(rules, None, defaults, [], "", rules.layouts[0].key)
    return _save(rules, None)


@bp.route("/house-rules/<int:house_id>", methods=["GET", "POST"])
def edit_house(house_id: int):
    """Change a table's own rule set (games already started keep their values)."""
    house = records.get_house_rules(get_db(), house_id)
    if house is None:
        abort(404)
    rules = rulesets.get(house.base)
    if request.method == "GET":
        specs = specs_of(rules, house.changes)
        typed = {s.name: _shown(s, house.changes.get(s.name, s.default)) for s in specs}
        return _page(rules, house, typed, [], house.name, house.layout, settings=house.changes)
    return _save(rules, house)


def _save(rules: rulesets.RuleSet, house: records.HouseRules | None):
    """Keep what was sent: the list on success, the page again with every problem beside its value."""
    form = FlaskForm()
    name = (request.form.get("name") or "").strip()
    layout = request.form.get("layout") or rules.layouts[0].key
    values, typed, problems = _sent(rules)
    if problems:  # what could be read is checked too: the name, the layout and each value's own range
        problems += _readable_problems(rules, layout, name, values, {problem.field for problem in problems})
    if not form.validate_on_submit():
        problems.append(Problem(None, "name", N_("The page was open too long: send it again.")))
    if not problems:
        db, phone = get_db(), phone_token()
        if house is None:
            verdict = service.create(db, name, rules.id, layout, values, phone)
        else:
            version = numbers.whole(request.form.get("version"), digits=18)
            verdict = service.change(db, house.id, -1 if version is None else version, name, values, phone)
        if verdict.status == MISSING:
            abort(404)
        if verdict.status == OVERTAKEN:
            problems.append(Problem(None, "name", N_("Someone changed these rules meanwhile: look again.")))
        elif verdict.status == PROBLEMS:
            problems.extend(verdict.problems)
        else:
            flash(gettext("Kept: %(name)s.", name=name), "success")
            return redirect(url_for("house_rules.house_list"))
    return _page(rules, house, typed, problems, name, layout, 422, settings=_settings_sent(rules))
