"""Home and a new game: the rules, the seats (tonight's table, play again, fair partners' seating), the
next Partie of a complete Game, a complete Game's page and a rule set's reference page."""

from __future__ import annotations

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from scorekeeper.core import clock, numbers, rulesets, seating, sheet
from scorekeeper.core.models import Game
from scorekeeper.services import games as service
from scorekeeper.services import tournament_state
from scorekeeper.storage import records, totals
from scorekeeper.storage.db import get_db
from scorekeeper.web import access, forms, house_rules, i18n
from scorekeeper.web.games.blueprint import bp
from scorekeeper.web.games.common import phone_token


@bp.get("/")
def index():
    """Home: tonight's evening first, then a new game and the most recent games."""
    db = get_db()
    recent = totals.recent_games(db)
    return render_template(
        "games/index.html",
        tonight=records.evening_on(db, clock.today()),
        recent=recent,
        round_over=tournament_state.round_over(db, [g.game_id for g in recent if not g.finished]),
        rule_sets=rulesets.RULE_SETS,
    )


def _evening_arg():
    """The evening a new game belongs to (``?evening=`` or the posted field), or None; 404 if unknown
    (or no id at all)."""
    typed = request.values.get("evening", "")
    if not typed.strip():
        return None
    evening_id = numbers.whole(typed, digits=18)
    evening = records.get_evening(get_db(), evening_id) if evening_id is not None else None
    if evening is None:
        abort(404)
    return evening


@bp.get("/games/new")
def choose_rules():
    """Step 1 of a new game: pick the rule set the table plays (the table's own beside the built-in ones)."""
    return render_template(
        "games/choose.html",
        rule_sets=rulesets.RULE_SETS.values(),
        house=records.all_house_rules(get_db()),
        rule_names={r.id: r.name for r in rulesets.RULE_SETS.values()},
        evening=_evening_arg(),
    )


def _rules_of(variant: str):
    """The built-in rule set a new game's ``variant`` names (``house-<id>``: the table's own one's base),
    and the table's own rule set or None; 404 for neither."""
    own = house_rules.house_of(variant)
    rules = rulesets.RULE_SETS.get(own.base if own else variant)
    if rules is None:
        abort(404)
    return rules, own


def _prefill_house(form, rules: rulesets.RuleSet, own) -> None:
    """A table's own rule set: its layout and its settings on the form."""
    if own.layout and any(layout.key == own.layout for layout in rules.layouts):
        form.layout.data = own.layout
    for setting in rules.settings:
        if setting.key in own.changes:
            getattr(form, f"setting_{setting.key}").data = str(own.changes[setting.key])


def _settings_of(form, own) -> dict:
    """The game's house rules: each as chosen on the form; one the form did not send (a client that
    is no browser) as the table's own rule set has it, else the rule set's default; with a table's
    own values."""
    chosen = form.settings()
    sent = {key: value for key, value in chosen.items() if f"setting_{key}" in request.form}
    return {**chosen, **(own.changes if own else {}), **sent}


def _start(form, rules, own, evening):
    """The game the valid form asks for, started (a redirect to its scoreboard), or None when the
    form's seats, its complete Game or its names are refused (their messages are on the form)."""
    layout = rules.layout(form.layout.data)
    complete = getattr(form, "complete_game", None)
    wants_match = complete is not None and bool(complete.data)
    if wants_match and (layout.key == rules.partie_layouts[0].key or layout.players != 4):
        complete.errors = [gettext("A complete Game is for 4 players.")]  # checked before anything is stored
    typed = [(f, n) for f, n in zip(form.players, form.player_names(layout.players)) if (f.data or "").strip()]
    if not (
        form.validate_for(layout.players)
        and not (complete is not None and complete.errors)
        and forms.look_alikes(form, typed, records.all_player_names(get_db()))
    ):
        return None
    outcome = service.create_game(
        get_db(),
        rules.id,
        form.player_names(layout.players),
        int(form.first_dealer.data),
        layout=layout.key,
        settings=_settings_of(form, own),
        target=form.target.data,
        house_rules_id=own.id if own else None,
        evening_id=evening.id if evening else None,
        complete_game=wants_match,
        guests=[not (field.data or "").strip() for field in form.players[: layout.players]],
        phone=phone_token(),
    )
    if outcome.status == service.MISSING:
        abort(404)  # the evening was deleted meanwhile
    return redirect(url_for("games.scoreboard", game_id=outcome.id))


@bp.route("/games/new/<variant>", methods=["GET", "POST"])
def new_game(variant: str):
    """Step 2: seating, players, first dealer, house rules and target; then the empty scoreboard. A
    table's own rule set (``house-<id>``) starts the game with its values copied into the game."""
    rules, own = _rules_of(variant)
    evening = _evening_arg()
    form = forms.new_game_form_class(rules)()
    table = None
    if request.method == "GET" and evening is not None:
        table = _tonights_table(form, rules, evening)
    if request.method == "GET":
        if own is not None:
            _prefill_house(form, rules, own)
        if _prefill_again(form, rules) and table is not None and not request.args.getlist("play"):
            table = _chips_as_seated(table, form, rules)
        _prefill_seats(form, rules)
    if form.validate_on_submit():
        started = _start(form, rules, own, evening)
        if started is not None:
            return started
    known = [p.name for p in records.list_players(get_db())]
    target = rulesets.configure(rules, dict(own.changes), own.layout).target if own else rules.target
    return render_template(
        "games/new.html",
        form=form,
        rules=rules,
        target=target,  # a table's own rule set may have its own
        evening=evening,
        known=known,
        table=table,
        own=own,
        variant=variant,
    ), (422 if form.is_submitted() else 200)


def _tonights_table(form, rules: rulesets.RuleSet, evening) -> dict:
    """Tonight's table in taps: the evening's players as chips (``?play=<id>``, the ones due to play
    ticked: everyone sits out in turn), and with ``?draw=1`` the ticked players seated at random
    (partners opposite). Fills the seats; what the chips show."""
    ids = [p.id for p in evening.players]
    names = {p.id: p.name for p in evening.players}
    asked = [pid for pid in map(numbers.whole, request.args.getlist("play")) if pid in names]
    seats = rules.layouts[0].players
    if asked:
        chosen = [pid for pid in ids if pid in asked]
    else:
        played, last = records.evening_seats(get_db(), evening.id)
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
        "players": evening.players,
        "chosen": chosen,
        "drawn": drawn,
        "out": [names[pid] for pid in ids if pid not in chosen],
        "fits": fitting is not None,
        "sizes": sorted({layout.players for layout in rules.layouts}),
    }


def _chips_as_seated(table: dict, form, rules: rulesets.RuleSet) -> dict:
    """Tonight's chips as "Play again" seated the players: those in a seat ticked, the others sitting
    out (the chips had ticked whoever was due to play, which the seats then contradicted)."""
    seats = rules.layout(form.layout.data).players
    seated = {(field.data or "").strip().casefold() for field in form.players[:seats]}
    chosen = [p.id for p in table["players"] if p.name.casefold() in seated]
    return table | {"chosen": chosen, "out": [p.name for p in table["players"] if p.id not in chosen], "fits": True}


def _prefill_again(form, rules: rulesets.RuleSet) -> bool:
    """ "Play again" (``?again=<game id>``): the same seats, seating, house rules and target as that
    game of the same rules, the deal passing on to whoever would have dealt its next hand. Whether it
    did."""
    game_id = numbers.whole(request.args.get("again"), digits=18)
    game = records.get_game(get_db(), game_id) if game_id is not None and records.valid_id(game_id) else None
    if game is None or game.variant != rules.id:
        return False
    guests = records.guests_of(get_db(), game.id)
    for seat, (field, name) in enumerate(zip(form.players, game.players)):
        field.data = "" if seat < len(guests) and guests[seat] else name  # a guest's seat stays a guest
    if game.layout and any(layout.key == game.layout for layout in rules.layouts):
        form.layout.data = game.layout
    for setting in rules.settings:
        if setting.key in game.settings:
            getattr(form, f"setting_{setting.key}").data = str(game.settings[setting.key])
    form.target.data = game.target
    played = len(records.hands(get_db(), game.id))
    form.first_dealer.data = str(_dealer_seat(game, played))
    return True


def _dealer_seat(game: Game, index: int) -> int:
    """The seat of the dealer of the hand with this 0-based index (sheet.dealer: the deal passes to
    the left, past anyone sitting out): the first seat from the deal's turn with the dealer's name."""
    name = sheet.dealer(game, index, sheet.rules_for(game))
    count = len(game.players)
    start = (game.first_dealer + index) % count
    return next(seat for seat in ((start + k) % count for k in range(count)) if game.players[seat] == name)


def _prefill_seats(form, rules: rulesets.RuleSet) -> None:
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


@bp.post("/matches/<int:match_id>/next")
def next_partie(match_id: int):
    """Start the next Partie of a complete Game with the next partnerships (docs/rules.md, "Austrian
    rulebook (Spielregeln, 2–6 players)")."""
    outcome = service.next_partie(get_db(), match_id, phone=phone_token())
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
    """A complete Game: its Partien and each player's net balance (docs/rules.md, "Austrian rulebook
    (Spielregeln, 2–6 players)")."""
    db = get_db()
    games = records.match_games(db, match_id)
    if not games:
        abort(404)
    sheets = [sheet.build(game, records.hands(db, game.id)) for game in games]
    return render_template("games/match.html", sheets=sheets, balance=sheet.match_balance(sheets), match_id=match_id)


@bp.get("/rules/<variant>")
def reference(variant: str):
    """A rule set's reference page, generated from the tables the scoring uses; a table's own rule set
    (``house-<id>``) with its values, the changed ones marked."""
    rules, own = _rules_of(variant)  # an address that names no rule set: 404, locked or not
    if own is not None and not access.unlocked():  # what people typed: behind the password
        return redirect(url_for("access.login", next=request.full_path.rstrip("?")))
    changes = dict(own.changes) if own else {}
    configured = rulesets.configure(rules, changes, own.layout if own else None)
    game, changed_since = _game_of_own(own, rules, request.args.get("game", ""))
    if game is not None:  # the values the game plays with, kept when it began
        names = set(changes) | {spec.name for spec in rulesets.values_of(rules)}
        changes = {name: value for name, value in game.settings.items() if name in names}
        configured = sheet.rules_for(game)
    return render_template(
        "games/reference.html",
        rules=configured,
        base=rules,
        card_groups=rulesets.CARD_GROUPS,
        own=own,
        game=game,
        changed_since=changed_since,
        changed=house_rules.changed_parts(rules, changes),
    )


def _game_of_own(own, rules: rulesets.RuleSet, asked: str) -> tuple[Game | None, bool]:
    """The game a table's own rules page is opened from (``?game=<id>``), when it was started from
    these rules, and whether their values have been changed since it began (the game keeps its own:
    docs/rules.md, "A table's own rules"). (None, False) for any other address."""
    number = numbers.whole(asked, digits=18) if own is not None else None
    game = records.get_game(get_db(), number) if number is not None else None
    if game is None or game.house_rules_id != own.id:
        return None, False
    defaults = {spec.name: spec.default for spec in rulesets.values_of(rules)}
    names = set(defaults) | set(own.changes)
    now = {name: own.changes.get(name, defaults.get(name)) for name in names}
    then = {name: game.settings.get(name, defaults.get(name)) for name in names}
    return game, now != then
