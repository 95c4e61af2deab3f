"""Languages: English, German, Italian and Estonian with Flask-Babel and gettext catalogues.

The language is the one chosen on the page (remembered in a cookie), else the browser's, else
English. The core (rule tables, scoring, checks) stays free of Flask: its texts are English message
ids marked with ``N_`` and translated here, at the edge.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import get_decimal_symbol
from flask import g, request
from flask_babel import Babel, get_locale, get_translations, gettext, ngettext
from markupsafe import Markup, escape

from scorekeeper.core.messages import N_, Msg
from scorekeeper.core.numbers import rounded, written

LANGUAGES = {"en": "English", "de": "Deutsch", "it": "Italiano", "et": "Eesti"}
babel = Babel()


def select_locale() -> str:
    """The chosen language, else the browser's best match, else English."""
    chosen = request.cookies.get("lang")
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or "en"


def current_locale() -> str:
    """The language code of this request."""
    locale = get_locale()
    return str(locale.language) if locale else "en"


def problem_message(problem: Any) -> str:
    """A check's message in the request's language, its values filled in (``Msg`` values translated, a
    number below zero with the minus sign the pages write: "from −10000 to 10000")."""

    if not problem.args:
        return gettext(problem.text)
    args = {k: gettext(v) if isinstance(v, Msg) else _figure(v) for k, v in problem.args.items()}
    return gettext(problem.text, **args)


def _figure(value: Any) -> Any:
    """A negative whole number as the pages write it; any other value as it is."""
    return written(value) if isinstance(value, int) and not isinstance(value, bool) and value < 0 else value


def line_label(line: Any) -> str:
    """A breakdown line's label in the request's language (English keeps its own wording)."""
    if current_locale() == "en":
        return line.label
    if not line.name:
        return gettext(line.label)
    name = gettext(line.name)
    label = f"{line.count} × {name}" if line.count else name
    if line.label.startswith("Partnership: "):
        partnership = gettext("Partnership:")  # its own call: found by the extraction (not in an f-string)
        label = f"{partnership} {label}"
    return f"{label} ({gettext(line.note)})" if line.note else label


def value_label(value: Any) -> str:
    """A changeable value's label in the reader's language ("Natural canastas: bonus each")."""
    args = {k: gettext(v) if isinstance(v, str) else v for k, v in value.label_args}
    return gettext(value.label, **args) if args else gettext(value.label)


def field_label(field: Any) -> str:
    """A hand form field's label in the reader's language, with its points where the label names them
    ("Exact cut, this team did not deal (+100)")."""
    if "%(points)s" in field.label:
        return gettext(field.label, points=field.points)
    return gettext(field.label)


def value_text(spec: Any, value: Any) -> str:
    """A changeable value as the pages say it: the option's words, the number, a list as "125, 155, 180"
    ("none" for an empty name or list)."""
    for choice, text in spec.choices:
        if choice == value and type(choice) is type(value):
            return gettext(text)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or gettext("none")
    return str(value) if value != "" else gettext("none")


def row_label(row: Any) -> str:
    """An opening-minimum row's range in the request's language ("negative", "3000 or more"); a table's
    own tier with its name ("Ladder: 4000 or more")."""
    if getattr(row, "name", ""):
        return f"{row.name}: {row_label(replace(row, name=''))}"
    if row.low is None and row.high == -5:
        return gettext("negative")
    if row.low is None:
        return gettext("%(points)s or less", points=row.high)
    if row.high is None:
        return gettext("%(points)s or more", points=row.low)
    return f"{row.low} – {row.high}"


def seats_label(seats: Any) -> str:
    """Seat indexes as people count them: "seats 1 & 3", "seat 2"."""
    numbers = " & ".join(str(seat + 1) for seat in seats)
    return (
        gettext("seats %(numbers)s", numbers=numbers)
        if len(seats) > 1
        else gettext("seat %(numbers)s", numbers=numbers)
    )


def result_sentence(sheet: Any) -> Markup:
    """The sentence announcing a finished game: who won, by how much over each other side, the
    totals of the hand that ended it ("Anna & Carl win by 420 points (5120 : 4700)."), or a draw.
    One player per side says "wins", a partnership "win"; names are escaped."""
    state, result = sheet.state, sheet.state.result
    totals = " : ".join(signed(t, plus=False) for t in state.final_totals)
    names = [escape(name) for name in sheet.side_names]
    if result.winner is None:
        return Markup(gettext("<strong>The game ends drawn</strong> at %(totals)s.", totals=totals))
    many = len(names) > 2
    if many:
        by: dict[str, Any] = {"leads": _leads_over_each(names, result.winner, result.leads)}
    else:
        by = {"points": result.margin}
    sentence = _WIN_SENTENCES[many, sheet.rules.side_size == 1]
    return Markup(gettext(sentence, name=names[result.winner], totals=totals, **by))


def won_by(names: Any, winner: int, margin: int, totals: Any) -> str:
    """How much a finished game was won by, as a list of games says it: the margin; with more than two
    sides the winner's lead over each of the others, as the game's own page says it (docs/rules.md,
    "Classic Canasta (3 players)": the sources give no single margin for three): "1530 points over Bert,
    315 points over Fini", not the lead over the next alone (a review found "won by 315" beside a
    statistics' +1845). ``totals``: the totals the result is about."""
    if len(names) <= 2:
        return str(margin)
    return _leads_over_each(names, winner, [totals[winner] - total for total in totals])


def _leads_over_each(names: Any, winner: int, leads: Any) -> str:
    """The winner's lead over each other side: "1530 points over Bert, 315 points over Fini"."""
    return ", ".join(
        gettext("%(points)s points over %(name)s", points=lead, name=names[side])
        for side, lead in enumerate(leads)
        if side != winner
    )


# the winner's sentence by (more than two sides, one player a side): one player "wins", a
# partnership "win"; with more than two sides, the lead over each of the others
_WIN_SENTENCES = {
    (True, True): N_("<strong>%(name)s wins</strong> by %(leads)s (%(totals)s)."),
    (True, False): N_("<strong>%(name)s win</strong> by %(leads)s (%(totals)s)."),
    (False, True): N_("<strong>%(name)s wins</strong> by %(points)s points (%(totals)s)."),
    (False, False): N_("<strong>%(name)s win</strong> by %(points)s points (%(totals)s)."),
}


def translate(message_id: str) -> str:
    """A message id in the reader's language, as plain text (the page escapes it)."""
    return str(gettext(message_id))


def phone_label(change: Any) -> str:
    """Who made a change: the phone's own name, else "phone 3" in the reader's language."""
    if change.phone_named:
        return change.phone
    if change.phone_id:
        return gettext("phone %(number)s", number=change.phone_id)
    return gettext("a phone")


def decimal_text(text: str) -> str:
    """A figure with decimals as the reader's language writes it: 5.5 in English, 5,5 in German,
    Italian and Estonian (the locale's decimal sign, from Babel's CLDR data)."""
    return text.replace(".", get_decimal_symbol(current_locale()))


def signed(points: int, plus: bool = True) -> str:
    """A score as the sheet and the preview write it: +20, −15 with a real minus sign, 0."""
    return f"+{points}" if plus and points > 0 else written(points)


def red_three_hint(rules: Any) -> str:
    """When red threes count plus or minus under these rules, in a sentence for the hand form."""
    return gettext(rules.red_three_hint, points=rules.red_three_values[1])


TRANSLATIONS = Path(__file__).resolve().parent / "translations"


def compile_catalogues(folder: Path = TRANSLATIONS) -> None:
    """Compile each ``messages.po`` to the ``.mo`` gettext reads, where the .mo is missing or older."""

    for po in folder.glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            with po.open("rb") as src:
                catalog = read_po(src)
            tmp = mo.with_suffix(".mo.tmp")
            with tmp.open("wb") as out:
                write_mo(out, catalog)
            tmp.replace(mo)


def init_app(app) -> None:
    """Set up Flask-Babel (catalogues compiled on start), the template helpers."""
    try:
        compile_catalogues()
    except OSError:
        pass  # a read-only install: the .mo files shipped with it are used
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=select_locale)
    # the templates' _() and ngettext() take the request's catalogue found once (Flask-Babel's own
    # callables find it afresh for each text: seven lookups of the context, about a tenth of a page)
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: _catalogue().ugettext(s),
        ngettext=lambda s, p, n: _catalogue().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: _catalogue().upgettext(c, s),
        npgettext=lambda c, s, p, n: _catalogue().unpgettext(c, s, p, n),
    )

    @app.context_processor
    def language_context() -> dict[str, Any]:
        """The current language and the languages to switch to, on every page."""
        return {
            "current_locale": current_locale(),
            "languages": list(LANGUAGES.items()),
            "line_label": line_label,
            "problem_message": problem_message,
            "row_label": row_label,
            "value_label": value_label,
            "field_label": field_label,
            "value_text": value_text,
            "result_sentence": result_sentence,
            "red_three_hint": red_three_hint,
            "phone_label": phone_label,
            "translate": translate,
        }

    app.jinja_env.globals.setdefault("ngettext", ngettext)
    app.jinja_env.globals["won_by"] = won_by
    app.jinja_env.filters["join_seats"] = seats_label
    app.jinja_env.filters["signed"] = signed
    app.jinja_env.filters["decimal"] = decimal_text
    app.jinja_env.filters["rounded"] = rounded
    app.jinja_env.filters["local_time"] = local_time


_CATALOGUE = "scorekeeper_catalogue"


def _catalogue():
    """This request's translations, as Flask-Babel finds them, kept for the rest of the request (in
    ``g``, where Flask-Babel keeps the request's language)."""
    if not g:
        return get_translations()
    found = g.get(_CATALOGUE)
    if found is None:
        found = get_translations()
        setattr(g, _CATALOGUE, found)
    return found


def local_time(stored: str | None, shape: str = "%Y-%m-%d %H:%M") -> str:
    """A stored moment (ISO 8601, UTC) as the clock on the wall of the server's room reads it: in the
    server's own time zone, as people at the table read the time (06:45 UTC is 11:45 at UTC+5). A
    moment without its zone (an old or edited file) is read as UTC; one that cannot be read is shown
    as it is."""
    if not stored:
        return ""
    try:
        moment = datetime.fromisoformat(stored)
    except ValueError:
        return stored
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    try:
        return moment.astimezone().strftime(shape)
    except (OverflowError, OSError, ValueError):  # beyond what the system's clock can convert
        return stored[:16].replace("T", " ")
