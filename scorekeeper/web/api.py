"""JSON API: the rule sets, stateless scoring of one hand, a stored game's sheet, the players, fair
partners and the tournaments (their answers are built in ``api_tournaments``).

Nothing here changes stored data, which is why the blueprint is exempt from CSRF; any future
endpoint that writes must not live here without a token (see docs/api.md). The requests and
answers are the types of ``api_models`` and ``api_tournament_models``; ``GET /api/openapi.json`` is
generated from them.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from flask import Blueprint, abort, jsonify, request, url_for

from scorekeeper.core import checks, rulesets, scoring, sheet
from scorekeeper.core.messages import N_, Problem
from scorekeeper.storage import leaderboard, records, tournament_records
from scorekeeper.storage.db import get_db
from scorekeeper.web import access, api_tournaments, i18n, json_errors, openapi
from scorekeeper.web import api_match_models as mm
from scorekeeper.web import api_models as m
from scorekeeper.web.partner_requests import team_request

bp = Blueprint("api", __name__, url_prefix="/api")


def _deductions(items) -> list[m.Deduction]:
    """Penalty-like table rows."""
    return [m.Deduction(key=d.key, label=d.label, points=d.points, max_count=d.max_count, spec=d.spec) for d in items]


def _tables(rules: rulesets.RuleSet) -> dict[str, Any]:
    """The rule set's tables of seatings, cards, canastas, going out and opening minimums."""
    return {
        "layouts": [
            m.Layout(
                key=lay.key,
                label=lay.label,
                players=lay.players,
                sides=[list(s) for s in lay.sides],
                playing=lay.playing or None,
            )
            for lay in rules.layouts
        ],
        "card_values": m.CardValues(rules.card_values),
        "cards_in_deck": m.CardValues(rules.cards_in_deck),
        "canastas": [
            m.Canasta(field=f"{k.key}_canastas", label=k.label, bonus=k.bonus, natural=k.natural, wild=k.wild)
            for k in rules.canasta_kinds
        ],
        "going_out": [
            m.GoingOut(value=g.key, label=g.label, bonus=g.bonus, special=g.special, waives_minimum=g.waives_minimum)
            for g in rules.going_out
        ],
        "opening_minimums": [
            m.OpeningMinimum({"from": row.low, "to": row.high, "label": row.label, "minimum": row.minimum})
            for row in rules.opening_minimums
        ],
    }


def _variant(rules: rulesets.RuleSet) -> m.Variant:
    """A rule set as the API lists it: every table the scoring uses."""
    return m.Variant(
        id=rules.id,
        name=rules.name,
        spec=rules.spec,
        summary=rules.summary,
        players=rules.players,
        sides=rules.sides,
        target=rules.target,
        **_tables(rules),
        canastas_to_go_out=rules.canastas_to_go_out,
        natural_canastas_to_go_out=rules.natural_canastas_to_go_out,
        wild_canastas_to_go_out=rules.wild_canastas_to_go_out,
        red_three_values=list(rules.red_three_values),
        red_three_sign=rules.red_three_sign,
        black_three_values=list(rules.black_three_values) or None,
        black_three_in_hand=rules.black_three_in_hand or None,
        exact_cut_bonus=rules.exact_cut_bonus or None,
        incomplete_melds=_deductions(rules.incomplete_melds),
        holding_penalties=_deductions(rules.holding_penalties),
        penalty_catalogue=_deductions(rules.penalty_catalogue),
        side_fields=sorted(checks.known_fields(rules)),
        count_fields=checks.count_fields(rules),
        settings=[
            m.Setting(key=s.key, label=s.label, default=s.default, choices=[v for v, _ in s.choices], spec=s.spec)
            for s in rules.settings
        ],
        values=[_changeable(v) for v in rulesets.values_of(rules)] + _brought_by_settings(rules),
    )


def _brought_by_settings(rules: rulesets.RuleSet) -> list[m.ChangeableValue]:
    """The values a setting brings into the list when chosen (wild-card melds: the wild canasta's
    bonus), each with the setting that brings it (docs/rules.md, "House rules")."""
    listed = {v.name for v in rulesets.values_of(rules)}
    found: list[m.ChangeableValue] = []
    for setting in rules.settings:
        for choice, _label in setting.choices:
            if choice == setting.default:
                continue
            for value in rulesets.values_of(rulesets.with_settings(rules, {setting.key: choice})):
                if value.name not in listed:
                    listed.add(value.name)
                    found.append(_changeable(value, {setting.key: choice}))
    return found


def _changeable(value: rulesets.Value, requires: dict | None = None) -> m.ChangeableValue:
    """One changeable value as the API lists it (its label in the reader's language; ``requires``: the
    setting that brings it into the list)."""
    return m.ChangeableValue(
        requires=requires,
        name=value.name,
        label=i18n.value_label(value),
        explanation=i18n.gettext(value.explanation),
        kind=value.kind,
        default=value.default,
        low=value.low,
        high=value.high,
        choices=[c for c, _ in value.choices] or None,
        group=value.group,
    )


def _house(row: records.HouseRules) -> m.HouseRuleSet:
    """A table's own rule set as the API lists it."""
    return m.HouseRuleSet(
        id=row.id, name=row.name, base=row.base, layout=row.layout, changes=dict(row.changes), version=row.version
    )


def _errors(problems: list[Problem], status: int = 422):
    """The 422 answer listing every problem."""
    return json_errors.json_problems(problems, status)


def json_body() -> Any:
    """The request's JSON; None when it is not JSON or nests too deep to read (``[[[[…``)."""
    try:
        return request.get_json(silent=True)
    except RecursionError:
        return None


@bp.get("/variants")
def list_variants():
    """Every rule set with its target and opening-minimum table; the table's own rule sets (names and
    values people typed) only for a phone that may read the archive (with a password: unlocked)."""
    own = records.all_house_rules(get_db()) if access.unlocked() else []
    built_in = list(_built_in_variants(i18n.current_locale()))
    return jsonify(m.Variants(variants=built_in, house_rules=[_house(row) for row in own]))


@functools.lru_cache(maxsize=len(i18n.LANGUAGES))
def _built_in_variants(language: str) -> tuple[m.Variant, ...]:
    """The twelve rule sets as the API lists them in ``language`` (the request's; the argument keys the
    cache): they never change while the app runs, and listing them is about 25 ms of CPU. Shared by
    every request: read them, never change them."""
    return tuple(_variant(rulesets.configure(r)) for r in rulesets.RULE_SETS.values())


def _setting_problems(base: rulesets.RuleSet, settings: dict[str, Any]) -> list[Problem]:
    """The request's settings the rule set does not have, or not with that value (the keys and values
    the request's type refuses are refused here too)."""
    problems = []
    known = {s.key: s for s in base.settings}
    for key, value in settings.items():
        setting = known.get(key)
        if setting is None:
            problems.append(Problem(None, f"settings.{key}", N_("Unknown setting for %(rules)s."), {"rules": base.id}))
        elif value not in [v for v, _ in setting.choices] or type(value) is not type(setting.default):
            choices = ", ".join(json.dumps(v) for v, _ in setting.choices)
            problems.append(Problem(None, f"settings.{key}", N_("Use one of: %(choices)s."), {"choices": choices}))
    return problems


def _configure(
    base: rulesets.RuleSet, body: dict[str, Any], refused: dict[str, Any]
) -> tuple[rulesets.RuleSet, list[Problem]]:
    """The rule set with the request's layout, settings and target, or the problems with them
    (``refused``: what the request's type refused)."""
    problems = []
    keys = [lay.key for lay in base.layouts]
    layout = body.get("layout")
    if "layout" in refused or (layout is not None and layout not in keys):
        problems.append(
            Problem(
                None,
                "layout",
                N_("Unknown layout; %(rules)s has: %(keys)s."),
                {"rules": base.id, "keys": ", ".join(keys)},
            )
        )
    settings = body.get("settings") or {}
    if () in refused.get("settings", ()):
        problems.append(Problem(None, "settings", N_("settings must be an object.")))
        settings = {}
    problems += _setting_problems(base, settings)
    values = body.get("values") or {}
    if () in refused.get("values", ()):
        problems.append(Problem(None, "values", N_("values must be an object.")))
        values = {}
    for name, (message, args) in rulesets.problems(
        base, values, settings
    ).items():  # docs/rules.md, "A table's own rules"
        problems.append(Problem(None, f"values.{name}", message, args))
    if "target" in refused:
        problems.append(
            Problem(None, "target", N_("target must be a multiple of 5 up to 100000 (0 or null: the rule set's)."))
        )
    if problems:
        return base, problems
    return rulesets.configure(base, {**settings, **values}, layout, body.get("target") or None), []


def _side_score(score: scoring.SideScore, total: int, minimum: int) -> m.SideScore:
    """One side's score, breakdown, total and opening minimum."""
    return m.SideScore(
        score=score.score,
        breakdown=sheet.breakdown_dicts(score, i18n.line_label),
        total=total,
        opening_minimum=minimum,
    )


def _score_answer(rules: rulesets.RuleSet, sides, totals: list[int], lone: Any, hand: int) -> m.ScoreAnswer:
    """The scored hand: each side's score and new total, the result and the warnings (``hand``: the
    hand's number, 0 when not given: the game ends after it when it is the rule set's ``hands_limit``)."""
    scores = scoring.score_hand(rules, sides, lone)
    new_totals = [t + s.score for t, s in zip(totals, scores)]
    minimums = [scoring.opening_minimum(rules, t, hand or None) for t in totals]
    warnings = checks.plausibility_warnings(rules, sides, minimums, lone if isinstance(lone, int) else None)
    following = hand + 1 if hand else None
    return m.ScoreAnswer(
        variant=rules.id,
        sides=[_side_score(s, t, scoring.opening_minimum(rules, t, following)) for s, t in zip(scores, new_totals)],
        **sheet.result_dict(scoring.game_result(rules, new_totals, hand, scoring.went_out_side(sides))),
        warnings=[json_errors.error(w) for w in warnings],
    )


@bp.post("/score")
def score():
    """Score one hand from the totals before it; nothing is stored. The problems are told a step at a
    time: the rule set, then its layout, settings and target, then the hand (the later messages need
    what the earlier steps establish)."""
    if not request.is_json:
        return _errors([Problem(None, "body", N_("Send JSON with Content-Type: application/json."))], 415)
    body = json_body()
    if not isinstance(body, dict):
        return _errors([Problem(None, "body", N_("The body must be a JSON object."))], 400)
    refused = m.refusals(m.ScoreRequest, body)
    unknown = sorted(key for key in refused if key not in m.ScoreRequest.model_fields)
    if unknown:  # an unknown top-level key is refused, not ignored
        return _errors([Problem(None, key, N_("Unknown field; see GET /api/openapi.json.")) for key in unknown])
    if "variant" in refused:
        known = ", ".join(rulesets.RULE_SETS)
        return _errors([Problem(None, "variant", N_("Unknown variant; use one of: %(known)s."), {"known": known})])
    rules, problems = _configure(rulesets.RULE_SETS[body["variant"]], body, refused)
    if problems:
        return _errors(problems)
    totals = body.get("totals_before", [0] * rules.sides)
    if "totals_before" in refused or len(totals) != rules.sides:
        problems.append(
            Problem(
                None,
                "totals_before",
                N_("Give %(count)s whole-number totals, each a multiple of 5."),
                {"count": rules.sides},
            )
        )
    if "hand" in refused:
        problems.append(
            Problem(None, "hand", N_("The hand's number: a whole number from 1 to %(most)s."), {"most": m.MOST_HANDS})
        )
    sides, side_problems = checks.read_hand(rules, body.get("sides"), body.get("stock_out"), body.get("lone"))
    problems.extend(m.hand_problems(m.ScoreRequest, body, side_problems))
    if problems:
        return _errors(problems)
    return jsonify(_score_answer(rules, sides, totals, body.get("lone"), body.get("hand") or 0))


def _hand(row: sheet.SheetHand) -> m.Hand:
    """One hand of a game's sheet: the entry as typed and each side's score."""
    outcome = row.outcome
    return m.Hand(
        id=row.hand.id,
        number=row.number,
        dealer=row.dealer,
        sitting_out=row.sitting_out,
        stock_out=row.hand.stock_out,
        lone=row.hand.lone,
        entry=row.hand.sides,
        sides=[_side_score(*each) for each in zip(outcome.scores, outcome.totals, outcome.opening_minimums)],
        after_end=row.after_end,
        confirmed_by=row.hand.confirmed_by,
    )


@bp.get("/games/<int:game_id>")
def game(game_id: int):
    """A stored game: sides, every hand's entry and breakdown, totals, minimums and the result."""
    found = records.get_game(get_db(), game_id)
    if found is None:
        abort(404)
    s = sheet.build(found, records.hands(get_db(), game_id))
    defaults = rulesets.get(found.variant).settings
    return jsonify(
        m.Game(
            id=found.id,
            match=found.match_id,
            partie=found.partie,
            variant=found.variant,
            layout=s.rules.layouts[0].key,
            settings={setting.key: found.settings.get(setting.key, setting.default) for setting in defaults},
            values={k: v for k, v in found.settings.items() if k not in {d.key for d in defaults}},
            house_rules=found.house_rules_id,
            target=s.rules.target,
            players=found.players,
            sides=[
                m.GameSide(name=name, players=[found.players[i] for i in seats])
                for name, seats in zip(s.side_names, sheet.side_seats(s.rules))
            ],
            hands=[_hand(row) for row in s.rows],
            totals=list(s.state.totals),
            opening_minimums=list(s.state.opening_minimums),
            next_dealer=s.next_dealer,
            **sheet.result_dict(s.state.result),
        )
    )


def _partie(s: sheet.Sheet) -> mm.Partie:
    """One Partie of a complete Game as the API gives it."""
    return mm.Partie(
        number=s.game.partie or 1,
        game=s.game.id,
        layout=s.rules.layouts[0].key,
        sides=[
            m.GameSide(name=name, players=[s.game.players[i] for i in seats])
            for name, seats in zip(s.side_names, sheet.side_seats(s.rules))
        ],
        hands=len(s.rows),
        totals=list(s.state.totals),
        **sheet.result_dict(s.state.result),
    )


@bp.get("/matches/<int:match_id>")
def match(match_id: int):
    """A complete Game of three Partien (docs/rules.md, "Austrian rulebook (Spielregeln, 2–6 players)"):
    its Partien as they stand and each player's net balance, as its page ``/matches/<id>`` shows them."""
    db = get_db()
    games = records.match_games(db, match_id)
    if not games:
        abort(404)
    sheets = [sheet.build(game, records.hands(db, game.id)) for game in games]
    balance = sheet.match_balance(sheets)
    return jsonify(
        mm.Match(
            id=match_id,
            variant=games[0].variant,
            target=sheets[0].rules.target,
            players=list(games[0].players),
            partien=[_partie(s) for s in sheets],
            balance=[mm.Balance(name=name, points=points) for name, points in balance.items()],
            complete=len(sheets) == 3
            and all(s.state.result.finished and s.state.result.winner is not None for s in sheets),
        )
    )


@bp.get("/games/<int:game_id>/changes")
def game_changes(game_id: int):
    """A game's change log, oldest first: when, what, which hand, which phone, the entry before and after."""
    if records.get_game(get_db(), game_id) is None:
        abort(404)
    log: list[m.Change] = [
        m.Change(at=c.at, action=c.action, hand=c.hand_id, phone=c.phone or None, before=c.before, after=c.after)
        for c in records.changes(get_db(), game_id)
    ]
    return jsonify(log)


@bp.get("/games/<int:game_id>/version")
def game_version(game_id: int):
    """The game's version, for the phones that follow it live (they poll this, it is cheap)."""
    version = records.game_version(get_db(), game_id)
    if version is None:
        abort(404)
    response = jsonify(m.Version(version=version))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/players")
def players():
    """Every player with his rating (docs/ratings.md): null before his first rated game."""
    rated: list[m.RatedPlayer] = leaderboard.players(get_db())
    return jsonify(rated)


@bp.get("/tournaments")
def tournaments():
    """Every tournament, the newest first: what it is and how far it has come."""
    return jsonify(api_tournaments.listed(get_db()))


@bp.get("/tournaments/<int:tournament_id>")
def tournament(tournament_id: int):
    """A tournament: its settings and entrants, its draw and every round's seats known so far, every
    round started with its tables as they stand, and the standings by the format's rule."""
    db = get_db()
    t = tournament_records.get(db, tournament_id)
    if t is None:
        abort(404)
    return jsonify(api_tournaments.answer(db, t))


def _seats_arg(names: list[str]) -> str | list[str]:
    """``?seats=`` of the new-game form: the names joined by commas (given once each if one holds a comma)."""
    return names if any("," in name for name in names) else ",".join(names)


@bp.get("/teams")
def teams():
    """Fair partners: every seating of 4 or 6 players (``?players=1,2,3,4``, by rules ``?variant=``
    and ``?layout=``), the most even predicted chances first; 422 for anything else."""
    args = request.args
    chosen, problems = team_request(get_db(), args.get("players"), args.get("variant"), args.get("layout"))
    if chosen is None:
        return _errors(problems)
    return jsonify(
        m.Teams(
            variant=chosen.rules.id,
            layout=chosen.layout.key,
            seatings=[
                m.Seating(
                    **proposal,
                    start=url_for(
                        "games.new_game",
                        variant=chosen.rules.id,
                        layout=chosen.layout.key,
                        seats=_seats_arg([seat["name"] for seat in proposal["seats"]]),
                    ),
                )
                for proposal in leaderboard.fair_partners(get_db(), chosen)
            ],
        )
    )


@bp.get("/openapi.json")
def openapi_document():
    """The OpenAPI 3.1 description of the JSON API, generated from the types of ``api_models``."""
    return jsonify(openapi.document())


@bp.errorhandler(404)
def api_not_found(error):
    """404 as JSON inside the API."""
    return json_errors.json_error("id", "Not found.", 404)
