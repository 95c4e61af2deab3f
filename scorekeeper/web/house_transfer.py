"""A table's own rule set passed to another table (docs/api.md, "A rule set's file"): its file to
download, a QR code of a link that opens the import with it filled in, and the import page (a file or
its pasted text, and a name). Each refusal stands beside its field, what was pasted kept; the import
itself is a POST with the form's token, never a GET."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_wtf import FlaskForm
from segno import DataOverflowError

from scorekeeper.core import rulesets
from scorekeeper.core.messages import N_, Problem
from scorekeeper.core.rulesets import transfer
from scorekeeper.network import addresses
from scorekeeper.services import rule_set_transfer as service
from scorekeeper.services.verdicts import PROBLEMS
from scorekeeper.storage import records
from scorekeeper.storage.db import get_db
from scorekeeper.web import i18n
from scorekeeper.web.games.common import phone_token

# the file's own fields, as the page names them beside the pasted text (a value is named by its label)
FIELD_NAMES = {"base": N_("Built-in rule set"), "layout": N_("Players")}


bp = Blueprint("house_transfer", __name__)


def _house(house_id: int) -> records.HouseRules:
    """The table's own rule set, or a 404 page."""
    house = records.get_house_rules(get_db(), house_id)
    if house is None:
        abort(404)
    return house


def _document(house: records.HouseRules) -> dict[str, Any]:
    return transfer.document(house.name, house.base, house.layout, house.changes)


@bp.get("/house-rules/<int:house_id>/export.json")
def export_house(house_id: int):
    """A table's own rule set as its file, to download."""
    house = _house(house_id)
    response = Response(transfer.pretty(_document(house)), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{transfer.file_name(house.name)}"'
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.app_template_global()
def house_transfer(house: records.HouseRules) -> dict[str, str]:
    """What the rule set's page offers to pass it on (``_house_transfer.html``): the download, the
    link that opens the import with it filled in (at the address other phones use) and its QR code
    ("" when the rule set is too large for one: the file still goes)."""
    link = addresses.reachable_url(
        url_for("house_transfer.import_house", rules=transfer.link_text(_document(house)), _external=True)
    )
    try:
        qr = addresses.qr_svg(link, gettext("QR code"))
    except DataOverflowError:
        qr = ""
    return {"download": url_for("house_transfer.export_house", house_id=house.id), "link": link, "qr": qr}


def _uploaded() -> tuple[str | None, Problem | None]:
    """The text of the file chosen, None when none was, or the problem with it."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return None, None
    raw = upload.stream.read(transfer.MOST_CHARS + 1)
    if len(raw) > transfer.MOST_CHARS:
        return None, transfer.too_large()
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        return None, Problem(None, transfer.DOCUMENT, N_("This is not a rule set's file: it is not JSON."))


def _messages(problems: list[Problem], base: str | None) -> dict[str, list[str]]:
    """The problems by where the page shows them: the name beside its field, every other beside the
    file's text, each saying which of the file's fields it is about (a value by its label)."""
    specs = {spec.name: spec for spec in rulesets.values_of(rulesets.get(base))} if base in rulesets.RULE_SETS else {}
    shown: dict[str, list[str]] = {}
    for problem in problems:
        message = i18n.problem_message(problem)
        if problem.field == "name":
            shown.setdefault("name", []).append(message)
            continue
        if problem.field in specs:
            message = f"{i18n.value_label(specs[problem.field])} ({problem.field}): {message}"
        elif problem.field in FIELD_NAMES:
            message = f"{gettext(FIELD_NAMES[problem.field])} ({problem.field}): {message}"
        elif problem.field != transfer.DOCUMENT:
            message = f"{problem.field}: {message}"
        shown.setdefault(transfer.DOCUMENT, []).append(message)
    return shown


def _page(text: str, name: str, problems: list[Problem], status: int = 200, carried: bool = False):
    """The import page: the file or its text, a name, each problem beside its field, and what the
    file holds when it can be read; for a file a link carried, a download of it too (for a phone
    whose own table runs another installation: it keeps the file and imports it there)."""
    fields = transfer.read_text(text)[0] if text.strip() else {}
    base = fields.get("base")
    if not name and isinstance(fields.get("name"), str):
        name = fields["name"]  # an empty name keeps the file's: shown as it will be kept
    summary = None
    if base in rulesets.RULE_SETS and "values" in fields:
        summary = (rulesets.get(base).name, len(fields["values"]))
    keep = transfer.file_name(fields["name"]) if carried and summary and not problems and "name" in fields else None
    return render_template(
        "games/house_import.html",
        form=FlaskForm(),
        text=text,
        name=name,
        summary=summary,
        errors=_messages(problems, base),
        keep=keep,
    ), status


@bp.route("/house-rules/import", methods=["GET", "POST"])
def import_house():
    """Import a rule set's file: GET shows the form (``?rules=``: the link of a rule set's QR code, its
    file filled in), POST keeps it as a new table's own rule set."""
    if request.method == "GET":
        carried = request.args.get("rules")
        if carried is None:
            return _page("", "", [])
        text = transfer.from_link(carried)
        if text is None:
            return _page("", "", [Problem(None, transfer.DOCUMENT, N_("This link carries no rule set's file."))])
        fields, problems = transfer.read_text(text)
        name = fields.get("name") if isinstance(fields.get("name"), str) else ""
        return _page(transfer.laid_out(text), name, problems, carried=True)
    form = FlaskForm()
    name = (request.form.get("name") or "").strip()
    uploaded, problem = _uploaded()
    text = uploaded if uploaded is not None else (request.form.get("document") or "")
    if problem is not None:
        return _page(text, name, [problem], 422)
    if not form.validate_on_submit():
        return _page(text, name, [Problem(None, "name", N_("The page was open too long: send it again."))], 422)
    verdict = service.import_rule_set(get_db(), text, name or None, phone_token())
    if verdict.status == PROBLEMS:
        return _page(text, name, list(verdict.problems), 422)
    kept = records.get_house_rules(get_db(), verdict.id)
    flash(gettext("Kept: %(name)s.", name=kept.name), "success")
    return redirect(url_for("house_rules.house_list"))
