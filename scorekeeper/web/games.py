"""Pages: home, new game, scoreboard, hand entry and editing, the opening-meld table."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
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
    session,
    url_for,
)
from flask_babel import gettext

from scorekeeper.core import charts, checks, clock, names, seating, sheet, variants
from scorekeeper.core.messages import N_
from scorekeeper.core.models import Game, Hand
from scorekeeper.network import addresses
from scorekeeper.services import games as service
from scorekeeper.services import phones as phone_service
from scorekeeper.storage import disk, queries, rating_reads, reads
from scorekeeper.storage.db import generation as db_generation
from scorekeeper.storage.db import get_db
from scorekeeper.web import access, answers, api, errors, forms, i18n, pagecache, teams
from scorekeeper.web.redirects import safe_path

bp = Blueprint("games", __name__)


def _load(game_id: int) -> Game:
    """The game or a 404 page."""
    game = reads.get_game(get_db(), game_id)
    if game is None:
        abort(404)
    return game


@bp.get("/")
def index():
    """Home: tonight's evening first, then a new game and the most recent games."""
    db = get_db()
    return render_template(
        "games/index.html",
        tonight=reads.evening_on(db, clock.today()),
        recent=queries.recent_games(db),
        rule_sets=variants.RULE_SETS,
    )


def _evening_arg():
    """The evening a new game belongs to (``?evening=`` or the posted field), or None; 404 if unknown."""
    evening_id = request.values.get("evening", type=int)
    if evening_id is None:
        return None
    evening = reads.get_evening(get_db(), evening_id)
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
    # only a path on this site, by the one rule every next= follows (redirects.safe_path)
    response = redirect(safe_path(request.args.get("next")))
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
    table = None
    if request.method == "GET" and evening is not None:
        table = _tonights_table(form, rules, evening)
    if request.method == "GET":
        _prefill_again(form, rules)
        _prefill_seats(form, rules)
    if form.validate_on_submit():
        layout = rules.layout(form.layout.data)
        complete = getattr(form, "complete_game", None)
        wants_match = complete is not None and bool(complete.data)
        if wants_match and (layout.key == rules.partie_layouts[0].key or layout.players != 4):
            complete.errors = [gettext("A complete Game is for 4 players.")]  # checked before anything is stored
        typed = [(f, n) for f, n in zip(form.players, form.player_names(layout.players)) if (f.data or "").strip()]
        if (
            form.validate_for(layout.players)
            and not (complete is not None and complete.errors)
            and forms.look_alikes(form, typed, reads.all_player_names(get_db()))
        ):
            outcome = service.create_game(
                get_db(), rules.id, form.player_names(layout.players), int(form.first_dealer.data),
                layout=layout.key, settings=form.settings(), target=form.target.data,
                evening_id=evening.id if evening else None, complete_game=wants_match,
                guests=[not (field.data or "").strip() for field in form.players[: layout.players]], phone=_phone(),
            )  # fmt: skip
            if outcome.status == service.MISSING:
                abort(404)  # the evening was deleted meanwhile
            return redirect(url_for("games.scoreboard", game_id=outcome.id))
    known = [p.name for p in reads.list_players(get_db())]
    return render_template("games/new.html", form=form, rules=rules, evening=evening, known=known, table=table), (
        422 if form.is_submitted() else 200
    )


def _tonights_table(form, rules: variants.RuleSet, evening) -> dict:
    """Tonight's table in taps: the evening's players as chips (``?play=<id>``, the ones due to play
    ticked: everyone sits out in turn), and with ``?draw=1`` the ticked players seated at random
    (partners opposite). Fills the seats; what the chips show."""
    ids = [p.id for p in evening.players]
    names = {p.id: p.name for p in evening.players}
    asked = [int(v) for v in request.args.getlist("play") if v.isdigit() and int(v) in names]
    seats = rules.layouts[0].players
    if asked:
        chosen = [pid for pid in ids if pid in asked]
    else:
        played, last = reads.evening_seats(get_db(), evening.id)
        chosen = seating.who_plays(ids, played, last, seats)[0]
    fitting = next((layout for layout in rules.layouts if layout.players == len(chosen)), None)
    seated = [names[pid] for pid in chosen]
    drawn = bool(request.args.get("draw")) and fitting is not None
    if drawn:
        seated = seating.draw_seats(seated)
    if fitting is not None:
        form.layout.data = fitting.key
        for field, name in zip(form.players, seated + [""] * len(form.players)):
            field.data = name
    return {
        "players": evening.players, "chosen": chosen, "drawn": drawn,
        "out": [names[pid] for pid in ids if pid not in chosen],
        "fits": fitting is not None, "sizes": sorted({layout.players for layout in rules.layouts}),
    }  # fmt: skip


def _prefill_again(form, rules: variants.RuleSet) -> None:
    """ "Play again" (``?again=<game id>``): the same seats, seating, house rules and target as that
    game of the same rules, the deal passing on to whoever would have dealt its next hand."""
    game_id = request.args.get("again", type=int)
    game = reads.get_game(get_db(), game_id) if game_id is not None and reads.valid_id(game_id) else None
    if game is None or game.variant != rules.id:
        return
    guests = reads.guests_of(get_db(), game.id)
    for seat, (field, name) in enumerate(zip(form.players, game.players)):
        field.data = "" if seat < len(guests) and guests[seat] else name  # a guest's seat stays a guest
    if game.layout and any(layout.key == game.layout for layout in rules.layouts):
        form.layout.data = game.layout
    for setting in rules.settings:
        if setting.key in game.settings:
            getattr(form, f"setting_{setting.key}").data = str(game.settings[setting.key])
    form.target.data = game.target
    played = len(reads.hands(get_db(), game.id))
    form.first_dealer.data = str(_dealer_seat(game, played))


def _dealer_seat(game: Game, index: int) -> int:
    """The seat of the dealer of the hand with this 0-based index (sheet.dealer: the deal passes to
    the left, past anyone sitting out): the first seat from the deal's turn with the dealer's name."""
    name = sheet.dealer(game, index, sheet.rules_for(game))
    count = len(game.players)
    start = (game.first_dealer + index) % count
    return next(seat for seat in ((start + k) % count for k in range(count)) if game.players[seat] == name)


def _prefill_seats(form, rules: variants.RuleSet) -> None:
    """Fair partners' "Start this game" (``?seats=Anna,Bert,Carl,Dora``, or ``seats`` given once per
    seat when a name holds a comma): these players in these seats, in ``?layout=`` if the rules have it."""
    given = request.args.getlist("seats")
    names = given if len(given) > 1 else given[0].split(",") if given else []
    if not any(name.strip() for name in names):
        return
    layout = request.args.get("layout")
    if layout and any(choice.key == layout for choice in rules.layouts):
        form.layout.data = layout
    for field, name in zip(form.players, names + [""] * len(form.players)):
        field.data = " ".join(name.split())


def _start_link(chosen: teams.TeamRequest, proposal: dict, evening_id: int) -> str:
    """The new game of the evening with this seating filled in (its players ticked as tonight's table)."""
    names = [seat["name"] for seat in proposal["seats"]]
    return url_for(
        "games.new_game",
        variant=chosen.rules.id,
        evening=evening_id,
        play=[p.id for p in chosen.players],
        layout=chosen.layout.key,
        seats=names if any("," in name for name in names) else ",".join(names),
    )


FAIR_SHOWN = 5  # proposals on the page (the API gives them all)


@bp.get("/evenings/<int:evening_id>/partners")
def fair_partners(evening_id: int):
    """Fair partners tonight: of the evening's players, the 4 or 6 ticked (all of them, when that
    is how many came), seated so that the sides' predicted chances are as even as can be; each
    proposal starts its game with one tap. The same as JSON: ``GET /api/teams``."""
    db = get_db()
    evening = reads.get_evening(db, evening_id)
    if evening is None:
        abort(404)
    args = request.args
    asked = "player" in args or "variant" in args
    if asked:
        picked = [pid for pid in args.getlist("player", type=int) if reads.valid_id(pid)]
    else:
        picked = [p.id for p in evening.players] if len(evening.players) in (4, 6) else []
    variant = args.get("variant") or None
    chosen, problems, proposals = None, [], []
    if not picked and asked:
        problems = [gettext("Tick 4 or 6 players.")]
    elif picked:
        chosen, found = teams.team_request(db, ",".join(str(pid) for pid in picked), variant)
        problems = [i18n.problem_message(p) for p in found]
    if chosen is not None:
        proposals = [
            {**proposal, "start": _start_link(chosen, proposal, evening.id)}
            for proposal in rating_reads.fair_partners(db, chosen)[:FAIR_SHOWN]
        ]
    return render_template(
        "games/partners.html",
        evening=evening,
        players=evening.players,
        picked=picked,
        variant=variant,
        ratings=rating_reads.current(db),
        rule_sets=teams.partner_rule_sets(),
        chosen=chosen,
        problems=problems,
        proposals=proposals,
    ), (422 if problems else 200)


@bp.post("/matches/<int:match_id>/next")
def next_partie(match_id: int):
    """Start the next Partie of a complete Game with the next partnerships (§10.6)."""
    outcome = service.next_partie(get_db(), match_id, phone=_phone())
    if outcome.status == service.MISSING:
        abort(404)
    if outcome.status == service.REFUSED:
        flash(i18n.problem_message(outcome.problems[0]))
        if "game" in outcome.extra:
            return redirect(url_for("games.scoreboard", game_id=outcome.extra["game"]))
        return redirect(url_for("games.match", match_id=match_id))
    return redirect(url_for("games.scoreboard", game_id=outcome.id))


@bp.get("/matches/<int:match_id>")
def match(match_id: int):
    """A complete Game: its Partien and each player's net balance (§10.6)."""
    db = get_db()
    games = reads.match_games(db, match_id)
    if not games:
        abort(404)
    sheets = [sheet.build(game, reads.hands(db, game.id)) for game in games]
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
    the_sheet = sheet.build(game, reads.hands(get_db(), game_id))
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
    evening = None if readonly or not game.evening_id else reads.get_evening(get_db(), game.evening_id)
    view_url = url_for("access.view", token=token or access.view_token(game_id), _external=True)
    share_url = (
        view_url if readonly else addresses.reachable_url(url_for("games.scoreboard", game_id=game_id, _external=True))
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
        share_qr=addresses.qr_svg(share_url),
        view_url=addresses.reachable_url(view_url),
        csrf_token=csrf_token,
        corrections={} if readonly else reads.corrections(get_db(), game_id),
    )


def _locked(the_sheet: sheet.Sheet) -> bool:
    """A finished game is kept read-only until it is deliberately reopened."""
    return the_sheet.state.result.finished and not the_sheet.game.reopened


@bp.post("/games/<int:game_id>/reopen")
def reopen(game_id: int):
    """Open a finished game again to correct its hands."""
    if service.reopen_game(get_db(), game_id, phone=_phone()).status == service.MISSING:
        abort(404)
    flash(gettext("The game is open for corrections."))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.post("/games/<int:game_id>/lock")
def lock(game_id: int):
    """Corrections done: the finished game's sheet is read-only again."""
    outcome = service.reopen_game(get_db(), game_id, reopened=False, phone=_phone())
    if outcome.status == service.MISSING:
        abort(404)
    if outcome.status == service.REFUSED:
        flash(i18n.problem_message(outcome.problems[0]))
        return redirect(url_for("games.scoreboard", game_id=game_id))
    flash(gettext("The sheet is locked again."))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.get("/games/<int:game_id>/minimums")
def minimums(game_id: int):
    """The variant's opening-meld table with each side's current row highlighted."""
    game = _load(game_id)
    return render_template(
        "games/minimums.html", sheet=sheet.build(game, reads.hands(get_db(), game_id)), live_game=game
    )


def _position(game: Game, hand: Hand | None) -> tuple[sheet.Sheet, int, tuple[int, ...], tuple[int, ...]]:
    """The sheet, and the hand's number, the totals before it and the opening minimums during it."""
    hands = reads.hands(get_db(), game.id)
    the_sheet = sheet.build(game, hands)
    if hand is None:
        return the_sheet, len(hands) + 1, the_sheet.state.totals, the_sheet.state.opening_minimums
    row = next(r for r in the_sheet.rows if r.hand.id == hand.id)
    totals = tuple(t - s.score for t, s in zip(row.outcome.totals, row.outcome.scores))
    return the_sheet, row.number, totals, row.opening_minimums


def _hand_page(
    game: Game,
    form,
    hand: Hand | None,
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


def _phone() -> str:
    """This phone's token for the change log: made on its first change and kept in its session."""
    if "phone" not in session:
        # Made from the session's form token when there is one, so that two requests sent at once by
        # a new phone (a double tap) name the same phone: its row is then made once, inside the write.
        seed = session.get("csrf_token")
        session["phone"] = (
            hmac.new(current_app.secret_key.encode(), f"phone:{seed}".encode(), hashlib.sha256).hexdigest()[:16]
            if isinstance(seed, str) and seed
            else secrets.token_urlsafe(12)
        )
    return session["phone"]


def _based_on(game: Game, hand: Hand | None) -> str:
    """What a phone's form is based on: the number of hands for a new hand, the hand's version for a correction."""
    return str(hand.version) if hand else str(reads.hand_count(get_db(), game.id))


def _overtaken_message(count: int) -> str:
    """Why a new hand was not saved: another phone saved hand ``count`` since this one was opened."""
    return gettext(
        "Meanwhile another phone saved hand %(number)s. Look at the score sheet: if it is the same hand, "
        "do not save this one. If it is another hand, press Save again to store it as hand %(next)s.",
        number=count,
        next=count + 1,
    )


TRANSLATE_LATER = "msgid"  # a flash category: the message is a message id, translated on the page
LOCKED_MESSAGE = N_("This game is finished and read-only. Tap “Reopen for corrections” to change it.")
OVER_MESSAGE = N_("This game is over. Reopen it to correct a hand.")


def _store_hand(game: Game, hand: Hand | None, posted: forms.QuickHand) -> service.Verdict:
    """Add or correct the hand through the service, as the phone sent it."""
    if hand is None:
        return service.add_hand(
            get_db(), game.id, posted.entry, posted.stock_out, posted.lone, client_key=posted.client_key,
            based_on=posted.based_on, confirmed=posted.confirmed, phone=_phone(),
        )  # fmt: skip
    return service.correct_hand(
        get_db(), game.id, hand.id, posted.entry, posted.stock_out, posted.lone, based_on=posted.based_on,
        confirmed=posted.confirmed, phone=_phone(),
    )  # fmt: skip


def _saved(game: Game, hand: Hand | None, outcome: service.Verdict):
    """The answer to a stored hand: back to the sheet with what happened. The message is kept as
    its message id and translated where it is shown (a save needs no language of its own)."""
    if hand is not None:
        message = N_("Hand corrected; every later total follows.")
    elif outcome.status == service.SAVED:
        message = N_("Hand saved.")
    else:
        message = N_("This hand was already saved (sent twice); it is stored once.")
    flash(message, saved_category(hand.id if hand is not None else outcome.id))
    # the top of the scoreboard: the totals, the next hand and this hand's line, with no scrolling
    scoreboard = url_for("games.scoreboard", game_id=game.id)
    if request.headers.get(PAD_HEADER) == "1":
        # the hand form's script: the scoreboard in this answer (one request fewer than the redirect
        # would take), which it shows in place of the form; the header says it was stored
        page = scoreboard_page(game.id)
        page.headers[SAVED_HEADER] = scoreboard
        return page
    return redirect(scoreboard)


PAD_HEADER = "X-Canasta-Pad"  # sent by the hand form's script with a save
SAVED_HEADER = "X-Canasta-Saved"  # the answer's: the hand is stored; the scoreboard's address


def saved_category(hand_id: int | None) -> str:
    """The flash category of a message about a hand that was stored: its message id is translated
    where it is shown, and the scoreboard shows the hand's line beside it."""
    return TRANSLATE_LATER if hand_id is None else f"{TRANSLATE_LATER}:hand:{hand_id}"


def _posted(form, rules: variants.RuleSet) -> forms.QuickHand:
    """The hand as the (validated) hand form reads it."""
    based_on = form.based_on.data or ""
    return forms.QuickHand(
        forms.hand_entry(form, rules), form.ending()[1], form.lone_player(), bool(form.confirm.data),
        form.client_key.data or None, int(based_on) if based_on.isdigit() else None,
    )  # fmt: skip


def _save(game: Game, hand: Hand | None):
    """Store the posted hand through the service, or show the form again with every message and
    value (what another phone changed meanwhile too).

    The posted figures are read straight from the form data first: a hand that is stored needs
    no form object (building it is most of a save's time). Only a hand that comes back to the
    phone, or one the form would say something about, builds the form."""
    rules = sheet.rules_for(game)
    form = None
    try:
        posted = forms.quick_hand(rules, request.form)
        outcome = None if posted is None else _store_hand(game, hand, posted)
        if outcome is not None and outcome.status in (service.SAVED, service.UNCHANGED):
            return _saved(game, hand, outcome)
        form = forms.hand_form_class(rules, game.players)()
        if not form.validate_on_submit():
            return _hand_page(game, form, hand, [], 422)
        if outcome is None:  # the quick reading found something the form did not: store what the form reads
            outcome = _store_hand(game, hand, _posted(form, rules))
    except disk.Unavailable as trouble:  # nothing was written: the form comes back as typed, to send again
        if form is None:
            form = forms.hand_form_class(rules, game.players)()
            form.validate_on_submit()
        page, status = _hand_page(game, form, hand, [errors.disk_message(trouble)], 503)
        return page, status, {"Retry-After": str(errors.RETRY_AFTER)}
    status = outcome.status
    if status == service.MISSING:
        abort(404)
    if status in (service.SAVED, service.UNCHANGED):
        return _saved(game, hand, outcome)
    if status == service.PROBLEMS:
        loose = forms.attach_problems(form, list(outcome.problems))
        return _hand_page(game, form, hand, loose, 422, problems=True)
    if status == service.WARNINGS:
        forms.attach_problems(form, list(outcome.problems))
        return _hand_page(game, form, hand, [], 422, warned=True)
    if status == service.OVERTAKEN:
        # the form now carries the current state, so saving again is a deliberate choice
        form.based_on.data = str(outcome.now)
        if hand is None:
            return _hand_page(game, form, hand, [_overtaken_message(outcome.now)], 409)
        message = gettext(
            "Meanwhile another phone changed or corrected this hand. Your values are still here: press Save again "
            "to replace the other phone's, or go back to the score sheet to see them."
        )
        return _hand_page(game, form, hand, [message], 409)
    # LOCKED: finished by another phone meanwhile: keep what was typed on the screen, with the reason
    if hand is None:
        return _hand_page(game, form, hand, [gettext(OVER_MESSAGE)], 409)
    flash(gettext(LOCKED_MESSAGE))
    return redirect(url_for("games.scoreboard", game_id=game.id))


def _finished(game: Game) -> bool:
    """Whether the game has been decided (from its kept figures)."""
    kept = reads.kept_of(get_db(), game.id)
    return kept is not None and kept.result.finished


@bp.route("/games/<int:game_id>/hands/new", methods=["GET", "POST"])
def new_hand(game_id: int):
    """Enter the next hand."""
    game = _load(game_id)
    if request.method == "POST":
        return _save(game, None)
    form = forms.hand_form_class(sheet.rules_for(game), game.players)()
    if _finished(game):
        flash(gettext(OVER_MESSAGE))
        return redirect(url_for("games.scoreboard", game_id=game_id))
    form.client_key.data = uuid.uuid4().hex
    form.based_on.data = _based_on(game, None)
    previous = reads.last_hand(get_db(), game_id)
    if previous and any(f"{part}_cards" in last for last in previous.sides for part in ("melded", "hand")):
        form.mode.data = "counts"  # a table that counted its cards last hand starts on the count pad again
    return _hand_page(game, form, None, [])


@bp.post("/games/<int:game_id>/hands.json")
def add_hand_json(game_id: int):
    """Store a hand sent by a phone's queue (entered while the server could not be reached).

    CSRF-protected like the forms (the page's token in the X-CSRFToken header); ``client_key`` is
    required, so a hand sent again is stored once. ``based_on`` (optional): the number of hands the
    phone knew of, its queued hands before this one included; if another phone has saved a hand
    since, this one is refused (409), as the form does, since it is most likely the same hand
    entered twice. Answers 201 with the hand's id, 200 when it was already stored, 422 with the problems."""
    unreadable = gettext("This entry could not be read. Enter the hand again.")
    body = api.json_body()
    if not isinstance(body, dict):
        return answers.json_error("body", unreadable, 400)
    key = body.get("client_key")
    if not isinstance(key, str) or not 8 <= len(key) <= 64:
        return answers.json_error("client_key", unreadable, 422)
    based_on = body.get("based_on")
    if isinstance(based_on, bool) or not isinstance(based_on, int):
        based_on = None  # the phone did not say what it knew of
    # the phone always says whether the stock ran out; left out it is "no", so the check that one
    # side went out or the stock ran out is never skipped
    stock_out = body.get("stock_out") if body.get("stock_out") is not None else False
    outcome = service.add_hand(
        get_db(), game_id, body.get("sides"), stock_out, body.get("lone"), client_key=key, based_on=based_on,
        phone=_phone(),
    )  # fmt: skip
    status = outcome.status
    if status in (service.SAVED, service.UNCHANGED):
        new = status == service.SAVED
        if new:  # the scoreboard the phone shows next says so, with the line of the last hand sent
            waiting = N_("Hand saved: it was waiting on this phone.")
            session["_flashes"] = [f for f in session.get("_flashes", []) if f[1] != waiting]
            flash(waiting, saved_category(outcome.id))
        return jsonify({"id": outcome.id, "duplicate": not new}), 201 if new else 200
    if status == service.MISSING:
        return answers.json_error(
            "game", gettext("There is nothing here. The game or hand may have been deleted."), 404
        )
    if status == service.LOCKED:
        return answers.json_error("game", gettext(OVER_MESSAGE), 409)
    if status == service.OVERTAKEN:
        message = gettext(
            "Meanwhile another phone saved hand %(number)s. Look at the score sheet: if it is another "
            "hand, enter it again.",
            number=outcome.now,
        )
        return answers.json_error("based_on", message, 409)
    return answers.json_problems(outcome.problems, 422)


@bp.route("/games/<int:game_id>/hands/<int:hand_id>/edit", methods=["GET", "POST"])
def edit_hand(game_id: int, hand_id: int):
    """Correct an earlier hand; every later total, minimum and the result follow."""
    game = _load(game_id)
    hand = reads.get_hand(get_db(), game_id, hand_id)
    if hand is None:
        abort(404)
    form_class = forms.hand_form_class(sheet.rules_for(game), game.players)
    if request.method == "POST":
        return _save(game, hand)
    if _finished(game) and not game.reopened:
        flash(gettext(LOCKED_MESSAGE))
        return redirect(url_for("games.scoreboard", game_id=game.id))
    form = form_class(data=forms.form_data(hand.sides, hand.stock_out, hand.lone, sheet.rules_for(game)))
    form.based_on.data = _based_on(game, hand)
    return _hand_page(game, form, hand, [])


@bp.post("/games/<int:game_id>/hands/<int:hand_id>/delete")
def delete_hand(game_id: int, hand_id: int):
    """Delete a hand (it can be brought back with Undo)."""
    outcome = service.delete_hand(get_db(), game_id, hand_id, phone=_phone())
    if outcome.status == service.MISSING:
        abort(404)
    if outcome.status == service.LOCKED:
        flash(gettext(LOCKED_MESSAGE))
    else:
        flash(gettext("Hand deleted."), "undo:" + str(hand_id))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.post("/games/<int:game_id>/delete")
def delete_game(game_id: int):
    """Delete a game started by mistake (it can be brought back with Undo)."""
    outcome = service.delete_game(get_db(), game_id, phone=_phone())
    if outcome.status == service.MISSING:
        abort(404)
    if outcome.status == service.REFUSED:
        flash(i18n.problem_message(outcome.problems[0]))
        return redirect(url_for("games.scoreboard", game_id=game_id))
    flash(gettext("Game deleted."), "undo-game:" + str(game_id))
    if outcome.extra["evening"] is not None:
        return redirect(url_for("archive.evening", evening_id=outcome.extra["evening"]))
    return redirect(url_for("games.index"))


@bp.post("/games/<int:game_id>/restore")
def restore_game(game_id: int):
    """Undo the deletion of a game."""
    outcome = service.restore_game(get_db(), game_id, phone=_phone())
    if outcome.status == service.MISSING:
        abort(404)
    flash(gettext("Game restored."))
    return redirect(url_for("games.scoreboard", game_id=outcome.id))


@bp.post("/games/<int:game_id>/hands/<int:hand_id>/restore")
def restore_hand(game_id: int, hand_id: int):
    """Undo a deletion (refused on a finished, read-only game: the deleted hand would change its result)."""
    outcome = service.restore_hand(get_db(), game_id, hand_id, phone=_phone())
    if outcome.status == service.MISSING:
        abort(404)
    if outcome.status == service.LOCKED:
        flash(gettext(LOCKED_MESSAGE))
    else:
        flash(N_("Hand restored."), saved_category(hand_id))
    return redirect(url_for("games.scoreboard", game_id=game_id))


# --- every change on record ---------------------------------------------------------------------


def _versions(game: Game, hand_id: int) -> list[dict]:
    """Every version of a hand, oldest first: its entry, each side's score, what it changed in each
    side's score against the version before, who made it and when (from the change log)."""
    rules = sheet.rules_for(game)
    versions: list[dict] = []
    for change in reads.changes(get_db(), game.id, hand_id):
        if change.action not in ("hand added", "hand corrected") or change.after is None:
            continue
        after = change.after
        hand = Hand(hand_id, game.id, after["sides"], change.at, change.at, after.get("stock_out"), after.get("lone"))
        scores = sheet.hand_scores(rules, hand)
        previous = versions[-1]["scores"] if versions else None
        versions.append(
            {
                "change": change, "number": len(versions) + 1, "entry": after, "scores": scores,
                "delta": [s - p for s, p in zip(scores, previous)] if previous else None,
            }
        )  # fmt: skip
    return versions


@bp.get("/games/<int:game_id>/hands/<int:hand_id>/history")
def hand_history(game_id: int, hand_id: int):
    """A hand's versions, as a crossed-out figure on a paper pad stays readable: each version's
    figures, what it changed in each side's score, who and when; any earlier one can be restored."""
    game = _load(game_id)
    hand = reads.get_hand(get_db(), game_id, hand_id)
    if hand is None:
        abort(404)
    the_sheet = sheet.build(game, reads.hands(get_db(), game_id))
    number = next((row.number for row in the_sheet.rows if row.hand.id == hand_id), None)
    current = {"sides": hand.sides, "stock_out": bool(hand.stock_out), "lone": hand.lone}
    return render_template(
        "games/history.html", sheet=the_sheet, hand=hand, number=number, versions=_versions(game, hand_id),
        current=json.dumps(current, sort_keys=True), locked=_locked(the_sheet), json=json,
    )  # fmt: skip


@bp.post("/games/<int:game_id>/hands/<int:hand_id>/history/<int:change_id>")
def restore_version(game_id: int, hand_id: int, change_id: int):
    """Go back to an earlier version of a hand: itself a new, logged correction."""
    game = _load(game_id)
    version = next((v for v in _versions(game, hand_id) if v["change"].id == change_id), None)
    if version is None:
        abort(404)
    entry = version["entry"]
    outcome = service.correct_hand(
        get_db(), game_id, hand_id, entry["sides"], entry.get("stock_out"), entry.get("lone"), phone=_phone()
    )
    if outcome.status == service.MISSING:
        abort(404)
    if outcome.status == service.LOCKED:
        flash(gettext(LOCKED_MESSAGE))
    elif outcome.status in (service.SAVED, service.UNCHANGED):
        flash(
            gettext(
                "Hand %(number)s is back to version %(version)s.",
                number=_hand_number(game, hand_id),
                version=version["number"],
            )
        )
    else:
        flash(" ".join(i18n.problem_message(p) for p in outcome.problems))
    return redirect(url_for("games.hand_history", game_id=game_id, hand_id=hand_id))


def _hand_number(game: Game, hand_id: int) -> int:
    """A hand's number in its game (deleted hands left out)."""
    ids = [h.id for h in reads.hands(get_db(), game.id)]
    return ids.index(hand_id) + 1 if hand_id in ids else 0


# What the change log records (storage.reads.ACTIONS), in the players' words (message ids: the page translates them).
ACTION_NAMES = {
    "hand added": N_("hand added"),
    "hand corrected": N_("hand corrected"),
    "hand deleted": N_("hand deleted"),
    "hand restored": N_("hand restored"),
    "game created": N_("game created"),
    "game reopened": N_("game reopened"),
    "game locked": N_("game locked"),
    "game deleted": N_("game deleted"),
    "game restored": N_("game restored"),
    "archive imported": N_("archive imported"),
}


@bp.get("/games/<int:game_id>/changes")
def changes(game_id: int):
    """A game's whole change log, newest first; nothing here edits or deletes it."""
    game = _load(game_id)
    numbers = {h.id: i + 1 for i, h in enumerate(reads.hands(get_db(), game_id))}
    return render_template(
        "games/changes.html", game=game, changes=list(reversed(reads.changes(get_db(), game_id))), numbers=numbers,
        phone_name=reads.phone_name(get_db(), session.get("phone")), actions=ACTION_NAMES,
        side_names=sheet.side_names(game, sheet.rules_for(game)),
    )  # fmt: skip


@bp.post("/phone/name")
def name_phone():
    """This phone names itself once ("Anna's phone"); the change log shows the name."""
    name = names.normal(request.form.get("name", ""))[:40]
    back = safe_path(request.form.get("next"), url_for("games.index"))
    if not name or any(ord(c) < 32 for c in name):
        flash(gettext("Give the phone a name of up to 40 characters."))
    elif names.invisible(name):
        flash(gettext(names.INVISIBLE))
    else:
        verdict = phone_service.name_phone(get_db(), _phone(), name)
        if verdict.ok:
            flash(gettext("This phone is now called %(name)s.", name=name))
        else:
            flash(i18n.problem_message(verdict.problems[0]))
    return redirect(back)
