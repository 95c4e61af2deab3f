"""The hand form's data without the form: a posted hand read from the form data (the one reader of a
posted hand: the form object is built only to show the page again), a stored hand put back into the
form's inputs for editing, and the checks' problems put beside the form's fields."""

from __future__ import annotations

from typing import Any, NamedTuple

from flask_wtf import FlaskForm

from scorekeeper.core import entry, numbers, scoring
from scorekeeper.core.checks import Problem
from scorekeeper.core.messages import N_
from scorekeeper.core.rulesets import RuleSet
from scorekeeper.web import i18n

STOCK_OUT = "stock"  # the hand form's answer to "Who went out?" when nobody did


def read_ending(
    rules: RuleSet, out: str | None, how: str | None, legacy: list[str | None], legacy_stock: bool
) -> tuple[list[str | None], bool]:
    """Each side's ``went_out`` and ``stock_out`` from the hand's one answer (``out``: a side's index
    or "stock"; ``how``: the way of going out), or from each side's own field of an older page."""
    if out not in (None, ""):
        kind = how if how in {g.key for g in rules.going_out_offered} else rules.going_out_offered[0].key
        return [kind if out == str(i) else None for i in range(rules.sides)], out == STOCK_OUT
    return [None if value in (None, "", "no") else value for value in legacy], legacy_stock


def based_on(value: str | None) -> int | None:
    """What the phone's page was based on (a hidden number), or None when it did not say or it is no number."""
    return numbers.whole(value, digits=18)


class PostedHand(NamedTuple):
    """A posted hand in the API's shape (its figures as typed: the checks read them), how it ended,
    the hidden fields, and what the page sent that no page of ours sends (``problems``)."""

    entry: list[dict[str, Any]]
    stock_out: bool
    lone: int | None
    confirmed: bool
    client_key: str | None
    based_on: int | None
    problems: tuple[Problem, ...] = ()


NOT_AS_SHOWN = N_("This page was not sent as it was shown. Check the values and press Save again.")
WHO_PLAYED_ALONE = N_("Pick who played alone.")


def _posted_field(field: entry.Field, formdata, prefix: str, mode: str) -> tuple[bool, Any]:
    """One field of one side as typed: (whether it was given this way, its value). Figures stay text:
    the checks read them and say what is wrong beside the field."""
    if field.mode:  # the hand's one choice; an older page sent each side's own
        mode = mode or formdata.get(prefix + field.mode) or entry.POINTS_MODE
        if (mode == entry.COUNTS_MODE) != (field.kind == "cards"):
            return False, None  # the figure was given the other way (points or card counts)
    if field.kind == "cards":
        return True, {card.key: (formdata.get(prefix + card.input) or "").strip() for card in field.cards}
    if field.kind == "choice":
        value = formdata.get(prefix + field.name, "no")
        return True, None if value in ("", "no") else value
    if field.kind == "flag":
        return True, formdata.get(prefix + field.name, "") not in ("", "false")
    return True, (formdata.get(prefix + field.name) or "").strip()


def _posted_side(rules: RuleSet, formdata, index: int, mode: str) -> dict[str, Any]:
    """One side's entry from the posted form data."""
    raw: dict[str, Any] = {}
    for field in entry.side_fields(rules):
        if field.form:
            given, value = _posted_field(field, formdata, f"sides-{index}-", mode)
            if given:
                raw[field.name] = value
    return raw


def _indexes(rules: RuleSet) -> set[str]:
    """The values the hand form's choice of a side or a player sends: "0", "1" …"""
    return {str(i) for i in range(rules.sides)}


def _posted_lone(rules: RuleSet, formdata, problems: list[Problem]) -> int | None:
    """The lone player of a classic 3-player hand (docs/rules.md, "Classic Canasta (3 players)")."""
    if not rules.lone_player:
        return None
    value = formdata.get("lone")
    if value in _indexes(rules):  # a choice is one of the values the page offers
        return int(value)
    if value != "none":
        problems.append(Problem(None, "lone", WHO_PLAYED_ALONE))
    return None


def posted_hand(rules: RuleSet, formdata) -> PostedHand:
    """The one reader of a hand posted by the hand form: its figures in the API's shape, read by the
    same checks as a hand the API or a phone's queue sends. The form object is built only to show the
    page again."""
    problems: list[Problem] = []
    mode = formdata.get("mode") or ""
    if mode not in ("", entry.POINTS_MODE, entry.COUNTS_MODE):
        problems.append(Problem(None, "mode", NOT_AS_SHOWN))
        mode = entry.POINTS_MODE
    sides = [_posted_side(rules, formdata, index, mode) for index in range(rules.sides)]
    lone = _posted_lone(rules, formdata, problems)
    key, seen = formdata.get("client_key", ""), formdata.get("based_on", "")
    if len(key) > 64:
        problems.append(Problem(None, "client_key", NOT_AS_SHOWN))
    if len(seen) > 20 or (seen and based_on(seen) is None):
        problems.append(Problem(None, "based_on", NOT_AS_SHOWN))
    went_out, stock_out = read_ending(
        rules,
        formdata.get("out"),
        formdata.get("how"),
        [side.get("went_out") for side in sides],
        formdata.get("stock_out", "") not in ("", "false"),
    )
    for side, kind in zip(sides, went_out):
        side["went_out"] = kind
    confirmed = formdata.get("confirm", "") not in ("", "false")
    return PostedHand(sides, stock_out, lone, confirmed, key or None, based_on(seen), tuple(problems))


def _side_inputs(stored: dict[str, Any], rules: RuleSet | None, all_counts: bool) -> dict[str, Any]:
    """One side's stored fields as the form's inputs (form_data): a part with cards as its counts if
    it was stored so and the form gives counts, else as its points."""
    side: dict[str, Any] = {}
    for name, value in stored.items():
        field = entry.shape(name)
        if field.kind == "cards" or field.mode:
            continue  # below, with its pair
        side[name] = (value or "no") if field.kind == "choice" else value
    for field in entry.FRAME:
        if field.kind == "cards":  # counts if they were stored, else the points
            cards = stored.get(field.name)
            if cards is not None and rules is not None and not all_counts:
                side[field.mode] = entry.POINTS_MODE
                side[field.pair] = scoring.card_points(rules, cards)
                continue
            side[field.mode] = entry.COUNTS_MODE if cards is not None else entry.POINTS_MODE
            if cards is not None:
                for card in field.cards:
                    side[card.input] = cards.get(card.key, 0)
            else:
                side[field.pair] = stored.get(field.pair, 0)
        elif field.kind == "choice" and field.name not in stored:
            side[field.name] = "no"
    return side


def form_data(
    sides: list[dict[str, Any]], stock_out: bool | None = None, lone: int | None = None, rules: RuleSet | None = None
) -> dict[str, Any]:
    """Form data for editing a stored hand: each stored field put back into the form's inputs by its
    kind (``entry.shape``: a stored entry's fields are the same in every rule set, limits aside).

    The form gives every figure one way, points or card counts: counts when every part with cards
    was stored as counts, else points (a part stored as counts then shows its points, worked out
    with the rule set's card values; without ``rules`` each side keeps its own choice)."""
    parts = [(stored.get(f.name), stored.get(f.pair)) for stored in sides for f in entry.FRAME if f.kind == "cards"]
    all_counts = any(cards is not None for cards, _ in parts) and not any(
        cards is None and points for cards, points in parts
    )
    data = [_side_inputs(stored, rules, all_counts) for stored in sides]
    if stock_out is None:  # left out (the API allows it): nobody went out means the stock ran out
        stock_out = not any(side.get("went_out") not in (None, "", "no", False) for side in sides)
    went_out = [i for i, side in enumerate(sides) if side.get("went_out") not in (None, "", "no", False)]
    out = str(went_out[0]) if went_out else (STOCK_OUT if stock_out else "")
    result = {
        "sides": data,
        "stock_out": bool(stock_out),
        "lone": "none" if lone is None else str(lone),
        "out": out,
        "mode": entry.COUNTS_MODE if all_counts else entry.POINTS_MODE,
    }
    if went_out:
        result["how"] = sides[went_out[0]]["went_out"]
    return result


def form_field_name(problem: Problem, fields: tuple[entry.Field, ...] = entry.FRAME) -> str:
    """The side form field a problem of the checks belongs to: a card count's own input; a problem of
    the counts as a whole beside the choice of points or counts."""
    for field in fields:
        if field.kind == "cards":
            if problem.field == field.name:  # beside the first count of the part
                return field.cards[0].input if field.cards else field.mode
            for card in field.cards:
                if problem.field == f"{field.name}.{card.key}":
                    return card.input
    return problem.field


def _problem_field(form: FlaskForm, fields, problem: Problem):
    """The form's field a problem stands beside, or None (it belongs to no field): how the hand ended
    by the question of who went out, a side's figure by its field (a figure counted on the pad by its
    first count)."""
    if problem.field in ("went_out", "stock_out") and hasattr(form, "out"):
        return form.out
    if problem.side is None or problem.side >= len(form.sides):
        return getattr(form, problem.field, None) if problem.side is None else None
    name = form_field_name(problem, fields)
    pair = next((f for f in fields if f.name == name and f.kind == "points" and f.pair), None)
    if pair is not None and hasattr(form, "counts_mode"):
        cards = next(f for f in fields if f.name == pair.pair)
        if form.counts_mode(problem.side, cards) and cards.cards:
            name = cards.cards[0].input  # counted on the pad: said where the counts are
    return getattr(form.sides[problem.side].form, name, None)


def attach_problems(form: FlaskForm, problems: list[Problem]) -> list[str]:
    """Put each problem beside its field; return the ones that belong to no field.

    A problem is said once: a sentence about several fields together (``Problem.shared``: cards
    beyond the deck, counted in every card field) stands beside the first of them, and the others are
    only marked (``form.marked``: field id -> the id of the field whose message explains it); any other
    problem stands beside its own field, even where another field's reads the same. How the hand
    ended is asked once for the hand, so its problems stand beside that question. A sentence about
    several sides' fields (the deck's cards entered in all) names every one of those sides
    (``form.sides_named``: the id of the field it stands beside -> those sides), never the first alone."""
    fields = getattr(form, "side_fields", entry.FRAME)
    loose: list[str] = []
    said: dict[str, str] = {}  # message -> the id of the field it stands beside
    marked: dict[str, str] = getattr(form, "marked", {})
    named: dict[str, list[int]] = getattr(form, "sides_named", {})
    for problem in problems:
        target = _problem_field(form, fields, problem)
        message = i18n.problem_message(problem)
        if target is None:
            if message not in loose:
                loose.append(message)
            continue
        if problem.shared:
            if problem.side is not None and target is not getattr(form, "out", None):
                sides = named.setdefault(said.get(message, target.id), [])
                sides += [problem.side] if problem.side not in sides else []
            if message in said and said[message] != target.id:
                marked.setdefault(target.id, said[message])
                continue
            said.setdefault(message, target.id)
        if message not in target.errors:
            target.errors = list(target.errors) + [message]
    form.marked = marked
    form.sides_named = named
    return loose


def unshown_errors(form: FlaskForm) -> list[str]:
    """Messages of the hand form's fields that the page has no place for (the points-or-count choice,
    the hidden keys): shown at the top instead, so no refusal goes unexplained."""
    # each side's own choices, sent by an older page only
    legacy = [f.mode for f in getattr(form, "side_fields", entry.FRAME) if f.kind == "cards"] + ["went_out"]
    fields = [form.client_key, form.based_on] + [
        getattr(seat.form, name) for seat in form.sides for name in legacy if hasattr(seat.form, name)
    ]
    fields += [getattr(form, name) for name in ("mode", "how", "stock_out") if hasattr(form, name)]
    return [message for field in fields for message in field.errors]
