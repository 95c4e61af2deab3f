"""Every change to a game, one function each: the pages and the JSON API call these and render
the plain result they return.

Each function is one ``BEGIN IMMEDIATE`` transaction (``transaction.write``) that loads what it needs
once and decides every conflict inside it: a hand's version is a condition of its update, the
number of hands is read inside the write, a Partie's number is unique in its complete Game. So
two phones saving at the same instant can never both be told "saved" for one hand.
"""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database

from scorekeeper.core import checks, rulesets, scoring, sheet
from scorekeeper.core.messages import N_, Problem
from scorekeeper.core.models import Game, Hand
from scorekeeper.services import confirmations
from scorekeeper.services.tournaments import ROUND_OVER, hand_guard, restore_guard
from scorekeeper.services.verdicts import (
    LOCKED,
    MISSING,
    OVERTAKEN,
    PROBLEMS,
    REFUSED,
    SAVED,
    UNCHANGED,
    WARNINGS,
    Verdict,
)
from scorekeeper.storage import changes, games, records, results, transaction
from scorekeeper.storage.tournament_records import seat_of_game as tournament_seat


def _locked(game: Game, running: sheet.Running | None) -> bool:
    """A finished game is read-only until it is deliberately reopened."""
    return running is not None and running.result.finished and not game.reopened


def _running(db: Database, game: Game) -> sheet.Running:
    """The game's running figures (worked out now if an older archive had none)."""
    running = records.running_of(db, game.id)
    if running is None:
        results.refresh_results(db, game.id)
        running = records.running_of(db, game.id)
    return running


def dealer_problems(game: Game, rules: rulesets.RuleSet, index: int, sides) -> list[Problem]:
    """Checks that need to know who dealt: the exact-cut bonus goes to the team that did not deal
    (docs/rules.md, Canadian Canasta (3 decks), "Going out")."""
    if not rules.exact_cut_bonus or not sides:
        return []
    seat = game.players.index(sheet.dealer(game, index, rules))
    dealing = next(i for i, seats in enumerate(sheet.side_seats(rules)) if seat in seats)
    if sides[dealing].exact_cut:
        return [Problem(dealing, "exact_cut", N_("The exact-cut bonus goes to the team that did not deal."))]
    return []


def _minimums(rules: rulesets.RuleSet, totals, index: int) -> list[int]:
    """Each side's opening minimum at these totals in the hand with this 0-based index."""
    return [scoring.opening_minimum(rules, t, index + 1) for t in totals]


def _check(
    game: Game, rules: rulesets.RuleSet, entry: Any, stock_out: Any, lone: Any, index: int, totals, confirmed: bool
) -> tuple[Verdict | None, tuple[int, ...]]:
    """The problems with a hand entry at this place in the game, or its warnings when not
    confirmed; else (None, each side's score)."""
    sides, problems = checks.read_hand(rules, entry, stock_out, lone)
    if not problems:
        problems = dealer_problems(game, rules, index, sides)
    if problems:
        return Verdict(PROBLEMS, problems=tuple(problems)), ()
    if not confirmed:
        warnings = checks.plausibility_warnings(rules, sides, _minimums(rules, totals, index), lone)
        if warnings:
            return Verdict(WARNINGS, problems=tuple(warnings)), ()
    return None, tuple(score.score for score in scoring.score_hand(rules, sides, lone))


def add_hand(
    db: Database,
    game_id: int,
    entry: Any,
    stock_out: Any = False,
    lone: Any = None,
    *,
    client_key: str | None = None,
    based_on: int | None = None,
    confirmed: bool = True,
    phone: str | None = None,
    entered_by: str | None = None,
) -> Verdict:
    """Add the next hand (``phone``: the token of the phone that sends it, for the change log;
    ``entered_by``: ``records.ORGANISER`` for the organiser's hand from the director's grid, confirmed by the
    organiser at once where the tournament asks the other side to confirm each hand). A
    key stored before answers UNCHANGED with that hand's id (REFUSED, field ``client_key``, when sent with
    other figures than it was saved with); a tournament's game its table's rule
    (REFUSED, ``services.tournaments.hand_guard``); a finished game LOCKED; ``based_on``
    (the number of hands the phone knew of) that is no longer the number of hands OVERTAKEN; then
    the checks (PROBLEMS, or WARNINGS unless ``confirmed``); else SAVED."""
    with transaction.write(db):
        game = records.get_game(db, game_id)
        if game is None:
            return Verdict(MISSING)
        answered = _answered_before_checks(db, game_id, client_key, entered_by == records.ORGANISER)
        if (
            answered is not None
            and answered.problems
            and answered.problems[0].text == ROUND_OVER
            and based_on is not None
        ):
            return _overtaken_at_the_end(db, game_id, based_on) or answered
        if answered is not None and answered.status == UNCHANGED:
            return _sent_again(db, game, answered.id, entry, stock_out, lone)
        if answered is not None:
            return answered
        stored_result, running = _kept_running(db, game)
        if running.result.finished:
            return Verdict(LOCKED)
        rules = sheet.rules_for(game)
        refused, scores = _check(game, rules, entry, stock_out, lone, running.hands, running.totals, confirmed)
        if refused is not None:
            return refused
        if based_on is not None and based_on != running.hands:  # ``fewer``: a hand was deleted meanwhile
            return Verdict(OVERTAKEN, now=running.hands, extra={"fewer": running.hands < based_on})
        stored = checks.stored_entry(entry)
        kept = {"running": running, "stored_result": stored_result}
        hand_id = games.insert_hand(db, game, rules, stored, bool(stock_out), lone, client_key or None, scores, **kept)
        after = {"sides": stored, "stock_out": bool(stock_out), "lone": lone}
        changes.log_change(db, game_id, hand_id, "hand added", None, after, phone, entered_by)
        if entered_by == records.ORGANISER:  # the organiser's word: no side of the table to confirm it
            confirmations.confirm_organisers(db, game_id, hand_id, phone)
        return Verdict(SAVED, id=hand_id)


# a hand's key sent again with other figures than those it was saved with (the form sent again after
# Back, with a figure changed): nothing is stored, and the phone is not told "already saved"
OTHER_FIGURES = N_(
    "Hand %(number)s was saved from this form already, with other figures. These were not saved: "
    "to change hand %(number)s, correct it."
)


def _sent_again(db: Database, game: Game, hand_id: int, entry: Any, stock_out: Any, lone: Any) -> Verdict:
    """A hand whose key is stored: UNCHANGED when it holds the figures it was saved with (the change
    log's "hand added", whatever corrections came since: a queue sending it again after a lost answer,
    as JSON where the form first sent it), else REFUSED saying which hand holds the key (field
    ``client_key``, the hand's id in ``id``)."""
    hand = records.get_hand(db, game.id, hand_id)
    if hand is None:  # deleted since it was saved: no hand to name, nothing stored twice, as before
        return Verdict(UNCHANGED, id=hand_id)
    first = next((c.after for c in records.changes(db, game.id, hand_id) if c.action == "hand added"), None)
    if first is None:  # an archive without the hand's first entry (older than the change log): as it is now
        first = {"sides": hand.sides, "stock_out": bool(hand.stock_out), "lone": hand.lone}
    if _same(sheet.rules_for(game), (entry, stock_out, lone), first):
        return Verdict(UNCHANGED, id=hand_id)
    problem = Problem(None, "client_key", OTHER_FIGURES, {"number": records.hand_number(db, game.id, hand_id)})
    return Verdict(REFUSED, id=hand_id, problems=(problem,))


def _same(rules: rulesets.RuleSet, sent: tuple[Any, Any, Any], saved: dict[str, Any]) -> bool:
    """Whether a hand sent again holds the figures it was saved with: both read by the rules (a form's
    text and a queue's JSON, a field left out and a zero, read alike), who played alone, the stock."""
    entry, stock_out, lone = sent
    sides, problems = checks.read_hand(rules, entry, bool(stock_out), lone)
    kept, _ = checks.read_hand(rules, saved.get("sides"), bool(saved.get("stock_out")), saved.get("lone"))
    return (
        not problems
        and sides == kept
        and bool(stock_out) == bool(saved.get("stock_out"))
        and _alone(lone) == _alone(saved.get("lone"))
    )


def _alone(lone: Any) -> str | None:
    """Who played alone as sent: the form's text or the queue's number."""
    return None if lone in (None, "", "none") else str(lone)


def _overtaken_at_the_end(db: Database, game_id: int, based_on: int) -> Verdict | None:
    """A hand refused at a tournament's table whose round another phone ended meanwhile by saving its
    last hand: REFUSED saying so (the two phones most likely entered the same hand, with figures that
    may differ), instead of the round's end alone. None when no hand was saved since the phone looked."""
    now = records.hand_count(db, game_id)
    if based_on >= now:
        return None
    said = N_(
        "Meanwhile another phone saved hand %(number)s, the last of the round at this table, so this one was "
        "not saved. Look at the score sheet: if its figures are not yours, correct that hand."
    )
    return Verdict(REFUSED, problems=(Problem(None, "based_on", said, {"number": now}),))


def _kept_running(db: Database, game: Game) -> tuple[Any, sheet.Running]:
    """The game's kept result row (the row a save brings up to date) and its running figures; an
    archive without the row (older than it): None and the figures replayed."""
    stored_result, running = records.result_row(db, game.id)
    if running is None:
        return None, _running(db, game)
    return stored_result, running


def _answered_before_checks(
    db: Database, game_id: int, client_key: str | None, organiser: bool = False
) -> Verdict | None:
    """A hand's answer before its checks: its key stored before (UNCHANGED, that hand's id), or its
    tournament's table's rule (REFUSED). The tournament's reason comes before the game's own: a closed
    tournament's game is not reopened on its sheet (nor one of a first round the final table has made
    final), so "reopen it" would be no answer."""
    if client_key:
        existing = records.hand_by_key(db, game_id, client_key)
        if existing is not None:
            return Verdict(UNCHANGED, id=existing)
    return hand_guard(db, game_id, adding=True, organiser=organiser)


def _same_entry(hand: Hand, entry: list[dict[str, Any]], stock_out: bool, lone: int | None) -> bool:
    """Whether a correction holds exactly what is stored already."""
    return (
        json.dumps(hand.sides, sort_keys=True) == json.dumps(entry, sort_keys=True)
        and bool(hand.stock_out) == bool(stock_out)
        and hand.lone == lone
    )


def correct_hand(
    db: Database,
    game_id: int,
    hand_id: int,
    entry: Any,
    stock_out: Any = False,
    lone: Any = None,
    *,
    based_on: int | None = None,
    confirmed: bool = True,
    phone: str | None = None,
    entered_by: str | None = None,
) -> Verdict:
    """Replace a hand's figures (logged with the entry before and after, as "hand corrected", or as "hand
    entered again" while it waits for the other side's confirmation: ``services.confirmations``;
    ``entered_by`` as for ``add_hand``). The same figures again answer UNCHANGED; a locked game LOCKED;
    the checks PROBLEMS or WARNINGS; a hand changed since version ``based_on`` OVERTAKEN (with its version
    now); SAVED with the change log's action in ``extra``. The version is also a condition of the update
    itself."""
    with transaction.write(db):
        game = records.get_game(db, game_id)
        hand = records.get_hand(db, game_id, hand_id) if game else None
        if hand is None:
            return Verdict(MISSING)
        guarded = hand_guard(db, game_id, adding=False)  # before LOCKED, as for a new hand
        if guarded is not None:
            return guarded
        running = _running(db, game)
        if _locked(game, running):
            return Verdict(LOCKED)
        rules = sheet.rules_for(game)
        before = results.totals_before(db, game, rules, hand_id)
        refused, _scores = _check(game, rules, entry, stock_out, lone, before[0], before[1], confirmed)
        if refused is not None:
            return refused
        stored = checks.stored_entry(entry)
        if _same_entry(hand, stored, bool(stock_out), lone):
            return Verdict(UNCHANGED, id=hand_id)  # the same correction sent again (a double tap)
        if based_on is not None and based_on != hand.version:
            return Verdict(OVERTAKEN, id=hand_id, now=hand.version)
        if not games.update_hand(db, game_id, hand_id, stored, bool(stock_out), lone, expect_version=hand.version):
            return Verdict(OVERTAKEN, id=hand_id, now=records.get_hand(db, game_id, hand_id).version)
        after = {"sides": stored, "stock_out": bool(stock_out), "lone": lone}
        action = confirmations.correction_action(db, game_id, hand)  # a hand not confirmed yet: entered again
        changes.log_change(db, game_id, hand_id, action, changes.entry_of(hand), after, phone, entered_by)
        return Verdict(SAVED, id=hand_id, extra={"action": action})


def delete_hand(db: Database, game_id: int, hand_id: int, phone: str | None = None) -> Verdict:
    """Delete a hand (Undo brings it back): MISSING, LOCKED or SAVED."""
    with transaction.write(db):
        game = records.get_game(db, game_id)
        hand = records.get_hand(db, game_id, hand_id) if game else None
        if hand is None:
            return Verdict(MISSING)
        guarded = hand_guard(db, game_id, adding=False)  # before LOCKED, as for a new hand
        if guarded is not None:
            return guarded
        if _locked(game, _running(db, game)):
            return Verdict(LOCKED)
        games.delete_hand(db, game_id, hand_id)
        changes.log_change(db, game_id, hand_id, "hand deleted", changes.entry_of(hand), None, phone)
        return Verdict(SAVED, id=hand_id)


def restore_hand(db: Database, game_id: int, hand_id: int, phone: str | None = None) -> Verdict:
    """Undo the deletion of a hand: MISSING, LOCKED (a finished game is read-only, as for a
    deletion or a correction: bringing a hand back would change its result) or SAVED."""
    if not (records.valid_id(game_id) and records.valid_id(hand_id)):
        return Verdict(MISSING)
    with transaction.write(db):
        game = records.get_game(db, game_id)
        if game is None:
            return Verdict(MISSING)
        guarded = restore_guard(db, game_id, hand_id)
        if guarded is not None:
            return guarded
        if _locked(game, _running(db, game)):
            deleted = records.get_hand(db, game_id, hand_id, deleted=True)  # else nothing to undo: MISSING, as before
            return Verdict(LOCKED if deleted is not None else MISSING)
        if not games.restore_hand(db, game_id, hand_id):
            return Verdict(MISSING)
        hand = records.get_hand(db, game_id, hand_id)
        changes.log_change(db, game_id, hand_id, "hand restored", None, changes.entry_of(hand), phone)
        return Verdict(SAVED, id=hand_id)


def create_game(
    db: Database,
    variant: str,
    players: list[str],
    first_dealer: int = 0,
    *,
    layout: str | None = None,
    settings: dict[str, Any] | None = None,
    target: int | None = None,
    evening_id: int | None = None,
    complete_game: bool = False,
    guests: list[bool] | None = None,
    phone: str | None = None,
    house_rules_id: int | None = None,
) -> Verdict:
    """Start a game (with ``complete_game``, as Partie 1 of a complete Game): SAVED with its id,
    MISSING if its evening is gone. From a table's own rule set (``house_rules_id``) the game keeps
    its values in ``settings``, copied now: a later change of that rule set changes no game."""
    with transaction.write(db):
        if evening_id is not None and records.get_evening(db, evening_id) is None:
            return Verdict(MISSING)
        game_id = games.create_game(
            db,
            variant,
            players,
            first_dealer,
            layout=layout,
            settings=settings,
            target=target,
            evening_id=evening_id,
            guests=guests,
            house_rules_id=house_rules_id,
        )
        if complete_game:
            games.set_match(db, game_id, game_id, 1)
        changes.log_change(
            db, game_id, None, "game created", None, changes.game_record(records.get_game(db, game_id)), phone
        )
        return Verdict(SAVED, id=game_id)


def next_partie(db: Database, match_id: int, phone: str | None = None) -> Verdict:
    """Start the next Partie of a complete Game with the next partnerships (docs/rules.md,
    "Austrian rulebook (Spielregeln, 2–6 players)"): SAVED with its
    id; REFUSED when all are played or the last one is still being played (``extra["game"]``: the
    Partie to show); MISSING. Decided inside the write, and the Partie's number is unique."""
    if not records.valid_id(match_id):
        return Verdict(MISSING)
    with transaction.write(db):
        parties = records.match_games(db, match_id)
        if not parties:
            return Verdict(MISSING)
        last = parties[-1]
        rules = rulesets.get(last.variant)
        if len(parties) >= 1 + len(rules.partie_layouts):
            return Verdict(REFUSED, problems=(Problem(None, "partie", N_("All three Partien have been played.")),))
        if not _running(db, last).result.finished:
            problem = Problem(None, "partie", N_("Partie %(number)s is still being played."), {"number": last.partie})
            return Verdict(REFUSED, problems=(problem,), extra={"game": last.id})
        layout = rules.partie_layouts[len(parties) - 1]
        game_id = games.create_game(
            db,
            last.variant,
            last.players,
            0,
            layout=layout.key,
            settings=last.settings,
            target=last.target,
            house_rules_id=last.house_rules_id,
            match_id=match_id,
            partie=len(parties) + 1,
            evening_id=last.evening_id,
            guests=records.guests_of(db, last.id),
        )
        changes.log_change(
            db, game_id, None, "game created", None, changes.game_record(records.get_game(db, game_id)), phone
        )
        return Verdict(SAVED, id=game_id)


def reopen_game(db: Database, game_id: int, reopened: bool = True, phone: str | None = None) -> Verdict:
    """Open a finished game for corrections (``reopened=False``: lock it again): MISSING or SAVED."""
    with transaction.write(db):
        game = records.get_game(db, game_id)
        if game is None:
            return Verdict(MISSING)
        guarded = hand_guard(db, game_id, adding=False) if reopened else None  # locking changes no result
        if guarded is not None:
            return guarded
        running = _running(db, game)
        if not reopened and running.after_end:
            # the sheet would show a result that the hands after it contradict: they go first
            # one message a number: "1 more hand" and "2 more hands" (each of the four languages has these two forms)
            text = (
                N_(
                    "The game ended with hand %(hand)s, yet 1 more hand came after it: correct or delete it before "
                    "locking the sheet."
                )
                if running.after_end == 1
                else N_(
                    "The game ended with hand %(hand)s, yet %(count)s more hands came after it: correct or delete "
                    "them before locking the sheet."
                )
            )
            problem = Problem(None, "hands", text, {"hand": running.ended_after + 1, "count": running.after_end})
            return Verdict(REFUSED, problems=(problem,))
        games.reopen_game(db, game_id, reopened)
        action = "game reopened" if reopened else "game locked"
        changes.log_change(db, game_id, None, action, {"reopened": game.reopened}, {"reopened": reopened}, phone)
        return Verdict(SAVED, id=game_id)


def delete_game(db: Database, game_id: int, phone: str | None = None) -> Verdict:
    """Delete a game started by mistake (Undo brings it back): MISSING, REFUSED (a Partie) or SAVED."""
    with transaction.write(db):
        game = records.get_game(db, game_id)
        if game is None:
            return Verdict(MISSING)
        if tournament_seat(db, game_id) is not None:
            problem = Problem(None, "game", N_("A tournament's game cannot be deleted: the organiser ends its round."))
            return Verdict(REFUSED, problems=(problem,))
        if not games.delete_game(db, game_id):
            problem = Problem(None, "game", N_("A Partie of a complete Game cannot be deleted on its own."))
            return Verdict(REFUSED, problems=(problem,))
        changes.log_change(db, game_id, None, "game deleted", changes.game_record(game), None, phone)
        return Verdict(SAVED, id=game_id, extra={"evening": game.evening_id})


def restore_game(db: Database, game_id: int, phone: str | None = None) -> Verdict:
    """Undo the deletion of a game: SAVED with its id (a new one if its number was taken), or MISSING."""
    if not records.valid_id(game_id):
        return Verdict(MISSING)
    with transaction.write(db):
        restored = games.undelete_game(db, game_id)
        if restored is None:
            return Verdict(MISSING)
        changes.log_change(
            db, restored, None, "game restored", None, changes.game_record(records.get_game(db, restored)), phone
        )
        return Verdict(SAVED, id=restored)
