"""Pages: home, new game, scoreboard, hand entry and editing, the opening-meld table."""

from __future__ import annotations

import json
import re
import uuid

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask_babel import gettext
from werkzeug.urls import iri_to_uri

from . import access, api, charts, checks, forms, i18n, pagecache, share, sheet, stats, store, variants
from .db import generation as db_generation
from .db import get_db
from .variants import N_

bp = Blueprint("games", __name__)


def _load(game_id: int) -> store.Game:
    """The game or a 404 page."""
    game = store.get_game(get_db(), game_id)
    if game is None:
        abort(404)
    return game


@bp.get("/")
def index():
    """Home: tonight's evening first, then a new game and the most recent games."""
    db = get_db()
    from .archive import _today

    return render_template(
        "games/index.html",
        tonight=store.evening_on(db, _today()),
        recent=stats.recent_games(db),
        rule_sets=variants.RULE_SETS,
    )


def _evening_arg():
    """The evening a new game belongs to (``?evening=`` or the posted field), or None; 404 if unknown."""
    evening_id = request.values.get("evening", type=int)
    if evening_id is None:
        return None
    evening = store.get_evening(get_db(), evening_id)
    if evening is None:
        abort(404)
    return evening


@bp.get("/sw.js")
def service_worker():
    """The service worker, served from the root so it may look after every page."""
    response = send_from_directory(current_app.static_folder, "sw.js", mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest (name, icons, colours) that makes the app installable."""
    return send_from_directory(current_app.static_folder, "manifest.webmanifest", mimetype="application/manifest+json")


@bp.get("/prefs")
def prefs():
    """Remember a display choice (large type, language) in a cookie and go back to the page."""
    back = request.args.get("next", "/")
    # only a path on this site: no other site (//host, /\host), no control character that would
    # break or smuggle a header, other characters sent percent-encoded
    if not back.startswith("/") or back.startswith("//") or re.search(r"[\x00-\x1f\x7f\\]", back):
        back = "/"
    response = redirect(iri_to_uri(back))
    large = request.args.get("large")
    if large in ("1", "0"):
        response.set_cookie("large", large, max_age=365 * 24 * 3600, samesite="Lax")
    lang = request.args.get("lang")
    if lang in i18n.LANGUAGES:
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response


@bp.get("/offline")
def offline():
    """Shown by the service worker for a page it never saw, while the server cannot be reached."""
    return render_template("offline.html")


@bp.get("/games/new")
def choose_rules():
    """Step 1 of a new game: pick the rule set the table plays."""
    return render_template("games/choose.html", rule_sets=variants.RULE_SETS.values(), evening=_evening_arg())


@bp.route("/games/new/<variant>", methods=["GET", "POST"])
def new_game(variant: str):
    """Step 2: seating, players, first dealer, house rules and target; then the empty scoreboard."""
    rules = variants.RULE_SETS.get(variant)
    if rules is None:
        abort(404)
    evening = _evening_arg()
    form = forms.new_game_form_class(rules)()
    if request.method == "GET" and evening is not None:
        for field, player in zip(form.players, evening.players):
            field.data = player.name  # the evening's players, in the order they were entered
    if request.method == "GET":
        _prefill_again(form, rules)
    if form.validate_on_submit():
        layout = rules.layout(form.layout.data)
        complete = getattr(form, "complete_game", None)
        wants_match = complete is not None and bool(complete.data)
        if wants_match and (layout.key == rules.partie_layouts[0].key or layout.players != 4):
            complete.errors = [gettext("A complete Game is for 4 players.")]  # checked before anything is stored
        if form.validate_for(layout.players) and not (complete is not None and complete.errors):
            db = get_db()
            with store.write(db):  # the game and its place in a complete Game, or nothing
                game_id = store.create_game(
                    db,
                    rules.id,
                    form.player_names(layout.players),
                    int(form.first_dealer.data),
                    layout=layout.key,
                    settings=form.settings(),
                    target=form.target.data,
                    evening_id=evening.id if evening else None,
                )
                if wants_match:
                    store.set_match(db, game_id, game_id, 1)
            return redirect(url_for("games.scoreboard", game_id=game_id))
    known = [p.name for p in store.list_players(get_db())]
    return render_template("games/new.html", form=form, rules=rules, evening=evening, known=known), (
        422 if form.is_submitted() else 200
    )


def _prefill_again(form, rules: variants.RuleSet) -> None:
    """ "Play again" (``?again=<game id>``): the same seats, seating, house rules and target as that
    game of the same rules, the deal passing on to whoever would have dealt its next hand."""
    game_id = request.args.get("again", type=int)
    game = store.get_game(get_db(), game_id) if game_id is not None and store.valid_id(game_id) else None
    if game is None or game.variant != rules.id:
        return
    for field, name in zip(form.players, game.players):
        field.data = name
    if game.layout and any(layout.key == game.layout for layout in rules.layouts):
        form.layout.data = game.layout
    for setting in rules.settings:
        if setting.key in game.settings:
            getattr(form, f"setting_{setting.key}").data = str(game.settings[setting.key])
    form.target.data = game.target
    played = len(store.hands(get_db(), game.id))
    form.first_dealer.data = str((game.first_dealer + played) % len(game.players))


@bp.post("/matches/<int:match_id>/next")
def next_partie(match_id: int):
    """Start the next Partie of a complete Game with the next partnerships (§10.6)."""
    db = get_db()
    games = store.match_games(db, match_id)
    if not games:
        abort(404)
    last = games[-1]
    rules = variants.get(last.variant)
    if len(games) >= 1 + len(rules.partie_layouts):
        flash(gettext("All three Partien have been played."))
        return redirect(url_for("games.match", match_id=match_id))
    if not sheet.build(last, store.hands(db, last.id)).state.result.finished:
        flash(gettext("Partie %(number)s is still being played.", number=last.partie))
        return redirect(url_for("games.scoreboard", game_id=last.id))
    layout = rules.partie_layouts[len(games) - 1]
    game_id = store.create_game(
        db,
        last.variant,
        last.players,
        0,
        layout=layout.key,
        settings=last.settings,
        target=last.target,
        match_id=match_id,
        partie=len(games) + 1,
        evening_id=last.evening_id,
    )
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.get("/matches/<int:match_id>")
def match(match_id: int):
    """A complete Game: its Partien and each player's net balance (§10.6)."""
    db = get_db()
    games = store.match_games(db, match_id)
    if not games:
        abort(404)
    sheets = [sheet.build(game, store.hands(db, game.id)) for game in games]
    return render_template("games/match.html", sheets=sheets, balance=sheet.match_balance(sheets), match_id=match_id)


@bp.get("/rules/<variant>")
def reference(variant: str):
    """A rule set's reference page, generated from the tables the scoring uses."""
    rules = variants.RULE_SETS.get(variant)
    if rules is None:
        abort(404)
    return render_template(
        "games/reference.html", rules=variants.configure(rules), base=rules, card_groups=variants.CARD_GROUPS
    )


@bp.get("/games/<int:game_id>")
def scoreboard(game_id: int):
    """The score sheet: totals, next minimums, next dealer, every hand's breakdown, the result."""
    return scoreboard_page(game_id)


def scoreboard_page(game_id: int, readonly: bool = False, token: str | None = None):
    """The score sheet page; ``readonly`` for a read-only link (``token``): nothing there changes the game.
    Rendered once per change of the archive (see pagecache)."""
    key = (
        "scoreboard",
        db_generation(get_db()),
        game_id,
        readonly,
        str(i18n.get_locale()),
        access.unlocked(),
        access.password_set(),
    )
    return pagecache.cached_page(key, lambda csrf: _render_scoreboard(game_id, readonly, token, csrf))


def _render_scoreboard(game_id: int, readonly: bool, token: str | None, csrf_token) -> str:
    """Render the score sheet with this CSRF token function."""
    game = _load(game_id)
    base = variants.get(game.variant)
    house_rules = []
    for setting in base.settings:
        value = game.settings.get(setting.key, setting.default)
        house_rules.append((setting.label, dict(setting.choices).get(value, str(value))))
    the_sheet = sheet.build(game, store.hands(get_db(), game_id))
    chart = ""
    if the_sheet.rows:
        series = [
            (name, [row.outcome.totals[i] for row in the_sheet.rows]) for i, name in enumerate(the_sheet.side_names)
        ]
        chart = charts.line_chart(
            series,
            target=the_sheet.rules.target,
            title=gettext("Running totals"),
            x_label=gettext("hand"),
            target_label=gettext("target %(target)s", target="{target}"),
        )
    evening = None if readonly or not game.evening_id else store.get_evening(get_db(), game.evening_id)
    view_url = url_for("access.view", token=token or access.view_token(game_id), _external=True)
    share_url = (
        view_url if readonly else share.reachable_url(url_for("games.scoreboard", game_id=game_id, _external=True))
    )
    return render_template(
        "games/scoreboard.html",
        sheet=the_sheet,
        house_rules=house_rules,
        variant_layouts=len(base.layouts),
        chart=chart,
        evening=evening,
        locked=readonly or _locked(the_sheet),
        readonly=readonly,
        live_game=game,
        live_url=url_for("access.view_version", token=token) if readonly else None,
        share_url=share_url,
        share_qr=share.qr_svg(share_url),
        view_url=share.reachable_url(view_url),
        csrf_token=csrf_token,
    )


def _locked(the_sheet: sheet.Sheet) -> bool:
    """A finished game is kept read-only until it is deliberately reopened."""
    return the_sheet.state.result.finished and not the_sheet.game.reopened


@bp.post("/games/<int:game_id>/reopen")
def reopen(game_id: int):
    """Open a finished game again to correct its hands."""
    _load(game_id)
    store.reopen_game(get_db(), game_id)
    flash(gettext("The game is open for corrections."))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.post("/games/<int:game_id>/lock")
def lock(game_id: int):
    """Corrections done: the finished game's sheet is read-only again."""
    _load(game_id)
    store.reopen_game(get_db(), game_id, reopened=False)
    flash(gettext("The sheet is locked again."))
    return redirect(url_for("games.scoreboard", game_id=game_id))


def _refuse_if_locked(game: store.Game):
    """A redirect with a message when the game is finished and not reopened, else None."""
    if _locked(sheet.build(game, store.hands(get_db(), game.id))):
        flash(gettext("This game is finished and read-only. Tap “Reopen for corrections” to change it."))
        return redirect(url_for("games.scoreboard", game_id=game.id))
    return None


@bp.get("/games/<int:game_id>/minimums")
def minimums(game_id: int):
    """The variant's opening-meld table with each side's current row highlighted."""
    game = _load(game_id)
    return render_template(
        "games/minimums.html", sheet=sheet.build(game, store.hands(get_db(), game_id)), live_game=game
    )


def _position(game: store.Game, hand: store.Hand | None) -> tuple[sheet.Sheet, int, tuple[int, ...], tuple[int, ...]]:
    """The sheet, and the hand's number, the totals before it and the opening minimums during it."""
    hands = store.hands(get_db(), game.id)
    the_sheet = sheet.build(game, hands)
    if hand is None:
        return the_sheet, len(hands) + 1, the_sheet.state.totals, the_sheet.state.opening_minimums
    row = next(r for r in the_sheet.rows if r.hand.id == hand.id)
    totals = tuple(t - s.score for t, s in zip(row.outcome.totals, row.outcome.scores))
    return the_sheet, row.number, totals, row.opening_minimums


def _hand_page(
    game: store.Game,
    form,
    hand: store.Hand | None,
    loose: list[str],
    status: int = 200,
    warned: bool = False,
    problems: bool = False,
):
    """Render the hand form for a new or an edited hand."""
    the_sheet, number, totals, minimums = _position(game, hand)
    index = number - 1
    loose = loose + [m for m in forms.unshown_errors(form) if m not in loose]
    return render_template(
        "games/hand.html",
        sheet=the_sheet,
        form=form,
        hand=hand,
        hand_number=number,
        minimums=minimums,
        totals_before=totals,
        loose=loose,
        card_groups=variants.CARD_GROUPS,
        warned=warned,
        problems=problems or bool(form.errors),
        fields=checks.count_fields(the_sheet.rules),
        dealer=sheet.dealer(game, index, the_sheet.rules),
        live_game=game,
        sitting_out=[game.players[s] for s in sheet.sitting_out(the_sheet.rules, index)],
    ), status


def _dealer_checks(game: store.Game, rules: variants.RuleSet, hand: store.Hand | None, sides) -> list[checks.Problem]:
    """Checks that need to know who dealt: the exact-cut bonus goes to the team that did not deal (§9)."""
    if not rules.exact_cut_bonus:
        return []
    _sheet, number, _totals, _minimums = _position(game, hand)
    seat = game.players.index(sheet.dealer(game, number - 1, rules))
    dealing = next(i for i, seats in enumerate(sheet.side_seats(rules)) if seat in seats)
    if sides and sides[dealing].exact_cut:
        return [checks.Problem(dealing, "exact_cut", N_("The exact-cut bonus goes to the team that did not deal."))]
    return []


def _based_on(game: store.Game, hand: store.Hand | None) -> str:
    """What a phone's form is based on: the number of hands for a new hand, the hand's version for a correction."""
    return str(hand.version) if hand else str(len(store.hands(get_db(), game.id)))


def _stale(game: store.Game, form, hand: store.Hand | None) -> str | None:
    """The message for a save based on what another phone has changed since this form was opened,
    or None. The form then carries the current state, so saving again is a deliberate choice."""
    sent, now = form.based_on.data, _based_on(game, hand)
    form.based_on.data = now
    if not sent or sent == now or (hand is None and store.hand_by_key(get_db(), game.id, form.client_key.data or "")):
        return None
    if hand is None:
        return _overtaken_message(int(now))
    return gettext(
        "Meanwhile another phone changed or corrected this hand. Your values are still here: press Save again "
        "to replace the other phone's, or go back to the score sheet to see them."
    )


def _overtaken_message(count: int) -> str:
    """Why a new hand was not saved: another phone saved hand ``count`` since this one was opened."""
    return gettext(
        "Meanwhile another phone saved hand %(number)s. Look at the score sheet: if it is the same hand, "
        "do not save this one. If it is another hand, press Save again to store it as hand %(next)s.",
        number=count,
        next=count + 1,
    )


def _same_entry(hand: store.Hand, entry, stock_out: bool, lone: int | None) -> bool:
    """Whether a correction holds exactly what is stored already."""
    return (
        json.dumps(hand.sides, sort_keys=True) == json.dumps(entry, sort_keys=True)
        and bool(hand.stock_out) == bool(stock_out)
        and hand.lone == lone
    )


def _save(game: store.Game, form, hand: store.Hand | None):
    """Validate the posted hand and store it, or show the form again with every message and value."""
    rules = sheet.rules_for(game)
    if form.validate_on_submit():
        entry = forms.hand_entry(form, rules)
        stock_out = bool(form.stock_out.data)
        lone = form.lone_player()
        sides, problems = checks.read_hand(rules, entry, stock_out, lone)
        problems += _dealer_checks(game, rules, hand, sides)
        if not problems and not form.confirm.data:
            warnings = checks.plausibility_warnings(rules, sides, _position(game, hand)[3], lone)
            if warnings:
                forms.attach_problems(form, warnings)
                return _hand_page(game, form, hand, [], 422, warned=True)
        if not problems:
            db = get_db()
            if hand is not None and _same_entry(hand, entry, stock_out, lone):
                # the same correction sent again (a double tap): it is saved already, nothing to refuse
                flash(gettext("Hand corrected; every later total follows."))
                return redirect(url_for("games.scoreboard", game_id=game.id) + "#sheet")
            claimed = bool(form.based_on.data)  # the phone said what it was based on (every page's form does)
            stale = _stale(game, form, hand)
            if stale:
                return _hand_page(game, form, hand, [stale], 409)
            if hand is None:
                try:
                    _, new = store.add_hand_once(
                        db,
                        game.id,
                        entry,
                        stock_out,
                        lone,
                        client_key=form.client_key.data or None,
                        expect_hands=int(form.based_on.data) if claimed else None,
                    )
                except store.Overtaken as overtaken:  # another phone saved in the same instant
                    form.based_on.data = str(overtaken.count)
                    return _hand_page(game, form, hand, [_overtaken_message(overtaken.count)], 409)
                flash(
                    gettext("Hand saved.")
                    if new
                    else gettext("This hand was already saved (sent twice); it is stored once.")
                )
            else:
                store.update_hand(db, game.id, hand.id, entry, stock_out, lone)
                flash(gettext("Hand corrected; every later total follows."))
            return redirect(url_for("games.scoreboard", game_id=game.id) + "#sheet")
        loose = forms.attach_problems(form, problems)
        return _hand_page(game, form, hand, loose, 422, problems=True)
    return _hand_page(game, form, hand, [], 422)


@bp.route("/games/<int:game_id>/hands/new", methods=["GET", "POST"])
def new_hand(game_id: int):
    """Enter the next hand."""
    game = _load(game_id)
    form = forms.hand_form_class(sheet.rules_for(game), game.players)()
    if sheet.build(game, store.hands(get_db(), game_id)).state.result.finished:
        message = gettext("This game is over. Reopen it to correct a hand.")
        if request.method == "POST" and not (
            form.client_key.data and store.hand_by_key(get_db(), game_id, form.client_key.data)
        ):
            # finished by another phone meanwhile: keep what was typed on the screen, with the reason
            return _hand_page(game, form, None, [message], 409)
        flash(message)
        return redirect(url_for("games.scoreboard", game_id=game_id))
    if request.method == "POST":
        return _save(game, form, None)
    form.client_key.data = uuid.uuid4().hex
    form.based_on.data = _based_on(game, None)
    previous = store.hands(get_db(), game_id)
    if previous:  # a side that counted its cards last hand starts on the card-count pad again
        for entry, last in zip(form.sides, previous[-1].sides):
            for part in ("melded", "hand"):
                if f"{part}_cards" in last:
                    getattr(entry.form, f"{part}_mode").data = "counts"
    return _hand_page(game, form, None, [])


@bp.post("/games/<int:game_id>/hands.json")
def add_hand_json(game_id: int):
    """Store a hand sent by a phone's queue (entered while the server could not be reached).

    CSRF-protected like the forms (the page's token in the X-CSRFToken header); ``client_key`` is
    required, so a hand sent again is stored once. ``based_on`` (optional): the number of hands the
    phone knew of, its queued hands before this one included; if another phone has saved a hand
    since, this one is refused (409), as the form does, since it is most likely the same hand
    entered twice. Answers 201 with the hand's id, 200 when it was already stored, 422 with the problems."""

    def refused(field: str, message: str, status: int):
        return jsonify({"errors": [{"side": None, "field": field, "message": message}]}), status

    game = store.get_game(get_db(), game_id)
    if game is None:
        return refused("game", gettext("There is nothing here. The game or hand may have been deleted."), 404)
    body = api.json_body()
    if not isinstance(body, dict):
        return refused("body", gettext("This entry could not be read. Enter the hand again."), 400)
    key = body.get("client_key")
    if not isinstance(key, str) or not 8 <= len(key) <= 64:
        return refused("client_key", gettext("This entry could not be read. Enter the hand again."), 422)
    db = get_db()
    existing = store.hand_by_key(db, game_id, key)
    if existing is not None:
        return jsonify({"id": existing, "duplicate": True}), 200
    played = store.hands(db, game_id)
    if _locked(sheet.build(game, played)):
        return refused("game", gettext("This game is over. Reopen it to correct a hand."), 409)
    based_on = body.get("based_on")
    claimed = isinstance(based_on, int) and not isinstance(based_on, bool)  # what the phone said it knew of

    def overtaken(count: int):
        return refused(
            "based_on",
            gettext(
                "Meanwhile another phone saved hand %(number)s. Look at the score sheet: if it is another "
                "hand, enter it again.",
                number=count,
            ),
            409,
        )

    if claimed and based_on != len(played):
        return overtaken(len(played))
    rules = sheet.rules_for(game)
    # the phone always says whether the stock ran out; left out it is "no", so the check that one
    # side went out or the stock ran out is never skipped
    stock_out = body.get("stock_out") if body.get("stock_out") is not None else False
    sides, problems = checks.read_hand(rules, body.get("sides"), stock_out, body.get("lone"))
    if not problems:
        problems = _dealer_checks(game, rules, None, sides)
    if problems:
        return jsonify({"errors": [{**p.as_dict(), "message": i18n.problem_message(p)} for p in problems]}), 422
    try:
        hand_id, new = store.add_hand_once(
            db,
            game_id,
            checks.stored_entry(body["sides"]),
            stock_out,
            body.get("lone"),
            client_key=key,
            expect_hands=len(played) if claimed else None,
        )
    except store.Overtaken as error:  # another phone saved in the same instant
        return overtaken(error.count)
    return jsonify({"id": hand_id, "duplicate": not new}), 201 if new else 200


@bp.route("/games/<int:game_id>/hands/<int:hand_id>/edit", methods=["GET", "POST"])
def edit_hand(game_id: int, hand_id: int):
    """Correct an earlier hand; every later total, minimum and the result follow."""
    game = _load(game_id)
    hand = store.get_hand(get_db(), game_id, hand_id)
    if hand is None:
        abort(404)
    refused = _refuse_if_locked(game)
    if refused:
        return refused
    form_class = forms.hand_form_class(sheet.rules_for(game), game.players)
    if request.method == "POST":
        return _save(game, form_class(), hand)
    form = form_class(data=forms.form_data(hand.sides, hand.stock_out, hand.lone))
    form.based_on.data = _based_on(game, hand)
    return _hand_page(game, form, hand, [])


@bp.post("/games/<int:game_id>/hands/<int:hand_id>/delete")
def delete_hand(game_id: int, hand_id: int):
    """Delete a hand (it can be brought back with Undo)."""
    game = _load(game_id)
    if store.get_hand(get_db(), game_id, hand_id) is None:
        abort(404)
    refused = _refuse_if_locked(game)
    if refused:
        return refused
    store.delete_hand(get_db(), game_id, hand_id)
    flash(gettext("Hand deleted."), "undo:" + str(hand_id))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.post("/games/<int:game_id>/delete")
def delete_game(game_id: int):
    """Delete a game started by mistake (it can be brought back with Undo)."""
    game = _load(game_id)
    if not store.delete_game(get_db(), game_id):
        flash(gettext("A Partie of a complete Game cannot be deleted on its own."))
        return redirect(url_for("games.scoreboard", game_id=game_id))
    flash(gettext("Game deleted."), "undo-game:" + str(game_id))
    if game.evening_id is not None:
        return redirect(url_for("archive.evening", evening_id=game.evening_id))
    return redirect(url_for("games.index"))


@bp.post("/games/<int:game_id>/restore")
def restore_game(game_id: int):
    """Undo the deletion of a game."""
    restored = store.undelete_game(get_db(), game_id)
    if restored is None:
        abort(404)
    flash(gettext("Game restored."))
    return redirect(url_for("games.scoreboard", game_id=restored))


@bp.post("/games/<int:game_id>/hands/<int:hand_id>/restore")
def restore_hand(game_id: int, hand_id: int):
    """Undo a deletion."""
    _load(game_id)
    if store.get_hand(get_db(), game_id, hand_id, deleted=True) is None:
        abort(404)
    store.restore_hand(get_db(), game_id, hand_id)
    flash(gettext("Hand restored."))
    return redirect(url_for("games.scoreboard", game_id=game_id))
