"""Fair partners tonight: of an evening's players, seatings that make the sides' chances as even as can
be."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext

from scorekeeper.core import numbers
from scorekeeper.storage import leaderboard, records
from scorekeeper.storage.db import get_db
from scorekeeper.web import i18n, partner_requests

bp = Blueprint("partners", __name__)


def _start_link(chosen: partner_requests.TeamRequest, proposal: dict, evening_id: int) -> str:
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
    evening = records.get_evening(db, evening_id)
    if evening is None:
        abort(404)
    args = request.args
    asked = "player" in args or "variant" in args
    if asked:
        picked = [
            pid for pid in map(numbers.whole, args.getlist("player")) if pid is not None and records.valid_id(pid)
        ]
    else:
        picked = [p.id for p in evening.players] if len(evening.players) in (4, 6) else []
    variant = args.get("variant") or None
    chosen, problems, proposals = None, [], []
    if not picked and asked:
        problems = [gettext("Tick 4 or 6 players.")]
    elif picked:
        chosen, found = partner_requests.team_request(db, ",".join(str(pid) for pid in picked), variant)
        problems = [i18n.problem_message(p) for p in found]
    if chosen is not None:
        proposals = [
            {**proposal, "start": _start_link(chosen, proposal, evening.id)}
            for proposal in leaderboard.fair_partners(db, chosen)[:FAIR_SHOWN]
        ]
    return render_template(
        "games/partners.html",
        evening=evening,
        players=evening.players,
        picked=picked,
        variant=variant,
        ratings=leaderboard.current(db),
        rule_sets=partner_requests.partner_rule_sets(),
        chosen=chosen,
        problems=problems,
        proposals=proposals,
    ), (422 if problems else 200)
