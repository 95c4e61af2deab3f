"""Every form and JSON endpoint fed random and hostile values: huge numbers, negatives, text, empty
and missing fields, unknown fields, wrong JSON types, very long names, markup, NUL and other control
characters, ids no database holds.

What must hold for every input: never a 5xx. A form that refuses its input answers 4xx with a
message the user can see (beside the field, or at the top when the field has no place on the page)
and what was typed still in the fields; a JSON endpoint answers 4xx with ``{"errors": [...]}``, each
naming its field with a message. A refused input changes nothing stored. An input that is accepted
leaves pages that still open, and a hand that was accepted can be opened and saved again unchanged.

CSRF stays on, as in production: the token comes from a page, as a browser gets it.
"""

from __future__ import annotations

import io
import json
import re
import sqlite3
from datetime import date
from html.parser import HTMLParser

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from markupsafe import escape

from scorekeeper.core import checks, entry, rulesets
from scorekeeper.core.rulesets import CARD_GROUP_KEYS
from tests.conftest import csrf_token, make_app
from tests.helpers import post_hand, side_fields, start_game, wipe

pytestmark = pytest.mark.slow  # left out of the quick loop: -m "not slow and not browser"

FUZZ = settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck), database=None)
FEW = settings(FUZZ, max_examples=25)

HUGE = "9" * 5000
LONG = "A" * 10000
ID_HUGE = "999999999999999999999"
# Values a thumb, a paste or an attacker may put in any text field.
HOSTILE = [
    "",
    " ",
    "0",
    "5",
    "50",
    "-5",
    "-0",
    "5.5",
    "1e3",
    " 50 ",
    "50 ",
    str(10**30),
    "-" + str(10**30),
    HUGE,
    "abc",
    "NaN",
    "Infinity",
    "0x10",
    "1_000",
    "1 000",
    "²",
    "①",
    "٥٠",
    "５０",
    "−5",
    "+5",
    "null",
    "true",
    "[]",
    "{}",
    "<script>alert(1)</script>",
    '" onfocus="alert(1)',
    "Nu\x00ll",
    "\x00",
    "\x1b[31m",
    "\x7f",
    LONG,
    "Ünïcødé 🂡",
    "\u202eevil",
    "../../etc/passwd",
    "%00",
    "Robert'); DROP TABLE players;--",
]
form_values = st.one_of(
    st.sampled_from(HOSTILE),
    st.integers(-(10**31), 10**31).map(str),
    st.integers(0, 400).map(str),
    st.text(max_size=40),
)
names = st.one_of(
    st.sampled_from(
        [
            "",
            "Anna",
            "anna",
            " Anna ",
            "Anna  B",
            "Anna\xa0B",
            "<b>Bert</b>",
            "Nu\x00ll",
            LONG,
            "A" * 40,
            "A" * 41,
            "Player 1",
            "😀" * 40,
            "Carl\tC",
            "\x1c",
        ]
    ),
    st.text(max_size=45),
)
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.integers(-5, 500),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["", "5", "normal", HUGE, LONG]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)
ids = st.one_of(
    st.integers(0, 10**30), st.sampled_from([ID_HUGE, "0", "-1", "1.5", "abc", "%00", "1e3", "..%2F..", HUGE])
)

TABLES = ("games", "hands", "players", "evenings", "evening_players", "game_seats")


# --------------------------------------------------------------------------------------------
# The app under fuzz, shared by the examples of a module (a fresh one per test would be slow)


class World:
    """An app with a few games, an evening and players; open games are found or started on demand."""

    def __init__(self, path):
        self.app = make_app({"TESTING": True, "SECRET_KEY": "fuzz", "DATABASE": str(path)})
        self.client = self.app.test_client()
        self.db_path = str(path)
        self.token = csrf_token(self.client, "/games/new/classic")
        self._open: dict[str, int] = {}
        self.game = self.open_game("classic")
        post_hand(self.client, self.game, side_fields(0, melded=90, hand=10), side_fields(1, melded=60))
        self.hand = self.hand_ids(self.game)[0]
        self.evening = int(
            self.post("/evenings/new", {"date": "2024-05-01", "new_players": "Eve, Finn"})
            .headers["Location"]
            .split("/")[-1]
        )
        self.player = self.player_ids()[0]

    def post(self, url, data=None, **kw):
        return self.client.post(url, data={"csrf_token": self.token, **(data or {})}, **kw)

    def open_game(self, variant: str) -> int:
        """A game of this rule set that is still being played."""
        game_id = self._open.get(variant)
        if game_id is None or self.client.get(f"/api/games/{game_id}").get_json()["finished"]:
            players = rulesets.RULE_SETS[variant].layouts[0].players
            game_id = start_game(self.client, variant, names=["Anna", "Bert", "Carl", "Dora", "Emil", "Fred"][:players])
            self._open[variant] = game_id
        return game_id

    def snapshot(self):
        """Everything stored that a refused input must leave alone."""
        with sqlite3.connect(self.db_path) as conn:
            return {t: conn.execute(f"select * from {t} order by rowid").fetchall() for t in TABLES}

    def hand_ids(self, game_id):
        with sqlite3.connect(self.db_path) as conn:
            return [
                r[0]
                for r in conn.execute(
                    "select id from hands where game_id = ? and deleted_at is null order by id", [game_id]
                )
            ]

    def player_ids(self):
        with sqlite3.connect(self.db_path) as conn:
            return [r[0] for r in conn.execute("select id from players order by id")]


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return World(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite")


# --------------------------------------------------------------------------------------------
# What every answer must be


class Inputs(HTMLParser):
    """The fields of the forms on a page as a browser would send them (``only``: the form with this class)."""

    def __init__(self, only: str | None = None):
        super().__init__()
        self.only, self.inside, self.values, self.shown = only, only is None, {}, {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and self.only:
            self.inside = self.only in (a.get("class") or "").split()
        if tag != "input" or not self.inside or not a.get("name"):
            return
        kind = a.get("type", "text")
        self.shown.setdefault(a["name"], a.get("value") or "")
        if kind in ("radio", "checkbox"):
            if "checked" in a:
                self.values[a["name"]] = a.get("value") or "y"
        elif kind not in ("submit", "button", "file"):
            self.values[a["name"]] = a.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form" and self.only:
            self.inside = False


def inputs(html: str, only: str | None = None) -> Inputs:
    parser = Inputs(only)
    parser.feed(html)
    return parser


def no_server_error(response):
    assert response.status_code < 500, response.text[:2000]
    try:
        event(
            f"{response.request.method} {re.sub(r'[0-9]+', 'N', response.request.path)[:40]} → {response.status_code}"
        )
    except Exception:  # outside a Hypothesis example
        pass
    return response


def json_errors(response, status=None):
    """A refused JSON request: 4xx, a JSON body with errors that each name a field and say what is wrong."""
    no_server_error(response)
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:500])
    if status is not None:
        assert response.status_code == status
    body = response.get_json(silent=True)
    assert isinstance(body, dict) and isinstance(body.get("errors"), list) and body["errors"], response.text[:500]
    for error in body["errors"]:
        assert isinstance(error.get("field"), str), error  # may be "" when that is the unknown key sent
        assert isinstance(error.get("message"), str) and error["message"].strip(), error
    return body["errors"]


def shows_a_message(html: str) -> None:
    """A refused form says why, where the user looks: beside a field or in a box at the top. The general
    "check the fields marked in red" box needs at least one field really marked."""
    field_messages = re.findall(r'<p class="error"[^>]*>([^<]+)</p>', html)
    boxed = re.findall(r'<div class="(?:error-box|flash|confirm-box)"[^>]*>\s*(?:<p>|<span>)?([^<]+)', html)
    assert any(m.strip() for m in field_messages + boxed), "no message on the page"
    if "fields marked in red" in html:
        assert any(m.strip() for m in field_messages), "the page asks to check fields marked in red, none is marked"


def echoes(html: str, typed: dict[str, str], names) -> None:
    """What was typed into these fields is still in them."""
    for name in names:
        if name in typed:
            assert f'name="{name}"' in html, name
            assert str(escape(typed[name])) in html, (name, typed[name][:80])


def refused_form(response, world, before, typed=None, echo=()):
    """A refused form post: 4xx, a message, the typed values kept, nothing stored changed."""
    no_server_error(response)
    assert 400 <= response.status_code < 500, response.status_code
    shows_a_message(response.text)
    echoes(response.text, typed or {}, echo)
    assert world.snapshot() == before


def follow(world, response):
    """After an accepted post, the page it leads to opens (and shows the waiting message)."""
    assert response.status_code in (301, 302, 303), response.status_code
    location = response.headers["Location"]
    assert location.startswith("/") and not location.startswith("//")
    no_server_error(world.client.get(location))


# --------------------------------------------------------------------------------------------
# New game


@FUZZ
@given(
    variant=st.sampled_from(sorted(rulesets.RULE_SETS)),
    players=st.lists(names, max_size=6),
    fields=st.dictionaries(
        st.sampled_from(
            [
                "first_dealer",
                "layout",
                "target",
                "complete_game",
                "evening",
                "setting_wild_melds",
                "setting_tie_rule",
                "setting_lone_trigger",
                "unknown",
                "players-9",
                "players-" + HUGE,
            ]
        ),
        form_values,
        max_size=5,
    ),
)
def test_new_game_form(world, variant, players, fields):
    data = {f"players-{i}": name for i, name in enumerate(players)}
    data.update(fields)
    before = world.snapshot()
    response = no_server_error(world.post(f"/games/new/{variant}", data))
    if response.status_code == 404:  # an evening that does not exist
        assert "evening" in fields and "There is nothing here" in response.text and world.snapshot() == before
    elif response.status_code == 302:
        follow(world, response)
        game = world.client.get(f"/api/games/{response.headers['Location'].split('/')[-1]}").get_json()
        for name in game["players"]:
            assert 0 < len(name) <= 40 and name == " ".join(name.split()) and "\x00" not in name
        assert len({n.casefold() for n in game["players"]}) == len(game["players"])
    else:
        assert response.status_code == 422
        refused_form(response, world, before, data, [f"players-{i}" for i in range(6)] + ["target"])


def test_new_game_hostile_by_hand(world):
    """Each hostile value alone, in each field."""
    for field in ("players-0", "target", "first_dealer", "layout", "setting_wild_melds", "evening"):
        for value in (HUGE, str(10**30), "-5", "abc", "", "\x00", LONG):
            data = {"players-0": "Anna", "players-1": "Bert", "players-2": "Carl", "players-3": "Dora", field: value}
            before = world.snapshot()
            response = no_server_error(world.post("/games/new/classic", data))
            if response.status_code == 302:
                follow(world, response)
            elif response.status_code == 422:
                refused_form(response, world, before, data, ["players-0", "target"])
            else:
                assert response.status_code == 404 and field == "evening"
    before = world.snapshot()
    response = world.post("/games/new/classic", {"players-0": LONG, "players-1": "Nu\x00ll", "target": HUGE})
    refused_form(
        response,
        world,
        before,
        {"players-0": LONG, "players-1": "Nu\x00ll", "target": HUGE},
        ["players-0", "players-1", "target"],
    )
    assert "At most 40 characters." in response.text and "Remove the control characters." in response.text
    # spaces are not a different name: "Anna  B" and "Anna B" are one player, asked to tell apart
    response = world.post("/games/new/classic", {"players-0": "Anna  B", "players-1": "Anna\xa0B"})
    assert response.status_code == 422 and "Two players have this name" in response.text


# --------------------------------------------------------------------------------------------
# Hand form (new hand and correction)

HAND_VARIANTS = ["classic", "classic-3p", "canadian", "modern", "austrian"]


def side_field_names(rules):
    """The posted names of one side's fields for a rule set (without the ``sides-N-`` prefix)."""
    fields = ["went_out", "melded_mode", "melded_points", "hand_mode", "hand_points", "penalties"]
    fields += list(checks.count_fields(rules))
    fields += [f"melded_{k}" for k in CARD_GROUP_KEYS] + [f"hand_{k}" for k in CARD_GROUP_KEYS]
    if rules.exact_cut_bonus:
        fields.append("exact_cut")
    return fields


def valid_hand(variant):
    """A hand every rule set accepts: nobody went out, some melds, the stock ran out."""
    rules = rulesets.RULE_SETS[variant]
    data = {"stock_out": "y", "confirm": "y"}
    for side in range(rules.sides):
        data.update(side_fields(side, melded=60 + 5 * side, hand=10))
    if rules.lone_player:
        data["lone"] = "none"
    return data


@st.composite
def hand_posts(draw, variant):
    """Either a valid hand with a few fields changed or left out, or fields at random."""
    rules = rulesets.RULE_SETS[variant]
    if draw(st.booleans()):
        data = valid_hand(variant)
        keys = sorted(data) + [f"sides-{i}-{n}" for i in range(rules.sides) for n in side_field_names(rules)]
        for key in draw(st.lists(st.sampled_from(keys), max_size=3, unique=True)):
            if draw(st.integers(0, 3)) == 0:
                data.pop(key, None)
            else:
                data[key] = draw(
                    st.sampled_from(["0", "5", "50", "100", "500", "no", "normal", "counts", "y"]) | form_values
                )
        return data
    data = {}
    for side in range(rules.sides):
        names = side_field_names(rules)
        for name in draw(st.lists(st.sampled_from(names), max_size=6, unique=True)):
            choices = {
                "went_out": ["no", "normal", "concealed"],
                "melded_mode": ["points", "counts"],
                "hand_mode": ["points", "counts"],
                "exact_cut": ["y", ""],
            }.get(name)
            value = draw(st.sampled_from(choices) | form_values) if choices else draw(form_values)
            data[f"sides-{side}-{name}"] = value
    for name in draw(
        st.lists(
            st.sampled_from(
                [
                    "stock_out",
                    "lone",
                    "confirm",
                    "client_key",
                    "based_on",
                    "unknown",
                    "sides-7-went_out",
                    "sides-²-went_out",
                    f"sides-{HUGE}-penalties",
                ]
            ),
            max_size=3,
            unique=True,
        )
    ):
        data[name] = draw(
            st.sampled_from({"lone": ["0", "1", "2", "none"], "stock_out": ["y"], "confirm": ["y"]}.get(name, ["x"]))
            | form_values
        )
    return data


def hand_echo_names(variant, data):
    """The typed fields the page shows as text boxes (choices are shown as ticks). A count the pad has no
    row for (black threes in hand, counted with the 7 to 4) shows its row when something other than blank
    or 0 was typed into it (core/entry.py, CardCount.on_pad)."""
    rules = rulesets.RULE_SETS[variant]
    boxes = ["melded_points", "hand_points", "penalties", *checks.count_fields(rules)]
    boxes += [f"melded_{k}" for k in rules.melded_card_groups] + [f"hand_{k}" for k in rules.hand_card_groups]
    off_pad = {c.input for f in entry.side_fields(rules) for c in f.cards if not c.on_pad}
    names = [f"sides-{i}-{name}" for i in range(rules.sides) for name in boxes]
    return [n for n in names if n.split("-", 2)[2] not in off_pad or str(data.get(n, "")).strip() not in ("", "0")]


def resave_unchanged(world, game_id, hand_id):
    """A stored hand opens in the correction form and saves again as it is."""
    url = f"/games/{game_id}/hands/{hand_id}/edit"
    page = no_server_error(world.client.get(url))
    if page.status_code == 302:  # the game is finished: read-only
        return
    assert page.status_code == 200
    assert 'class="error"' not in page.text, "the stored hand opens with errors"
    sent = inputs(page.text, "hand-form").values
    response = world.client.post(url, data={**sent, "confirm": "y"})
    assert response.status_code == 302, (
        re.findall(r'<p class="error"[^>]*>([^<]+)</p>', response.text) or response.text[:1000]
    )
    follow(world, response)


def check_hand_post(world, variant, data, url=None, hand_id=None):
    game_id = world.open_game(variant)
    url = url or f"/games/{game_id}/hands/new"
    before = world.snapshot()
    count = len(world.hand_ids(game_id))
    response = no_server_error(world.post(url.format(game=game_id), data))
    if response.status_code == 302:
        follow(world, response)
        after = world.hand_ids(game_id)
        if hand_id is None:
            assert len(after) in (count, count + 1)  # the same client_key twice: stored once
            if len(after) == count + 1:
                resave_unchanged(world, game_id, after[-1])
        else:
            resave_unchanged(world, game_id, hand_id)
    else:
        assert response.status_code in (409, 422), response.status_code
        refused_form(response, world, before, data, hand_echo_names(variant, data))


@FUZZ
@given(data=st.data(), variant=st.sampled_from(HAND_VARIANTS))
def test_new_hand_form(world, data, variant):
    check_hand_post(world, variant, data.draw(hand_posts(variant)))


@FEW
@given(data=st.data(), variant=st.sampled_from(["classic", "modern"]))
def test_correct_hand_form(world, data, variant):
    game_id = world.open_game(variant)
    post_hand(
        world.client, game_id, side_fields(0, melded=90, hand=10), side_fields(1, melded=60), extra={"confirm": "y"}
    )
    hand_id = world.hand_ids(game_id)[-1]
    check_hand_post(world, variant, data.draw(hand_posts(variant)), f"/games/{{game}}/hands/{hand_id}/edit", hand_id)


def test_hand_form_hostile_by_hand(world):
    rules = rulesets.RULE_SETS["classic"]
    for name in side_field_names(rules):
        for value in (HUGE, str(10**30), "-5", "5.5", "abc", "\x00", LONG):
            check_hand_post(world, "classic", {f"sides-0-{name}": value, "stock_out": "y"})
    for extra in (
        {"client_key": LONG},
        {"based_on": LONG},
        {"sides-0-melded_mode": "xyz"},
        {"lone": "7"},
        {"sides-0-melded_mode": "counts", "sides-0-melded_black_threes": "abc"},
    ):
        check_hand_post(world, "modern", {**extra, "stock_out": "y"})
    # the words of the message, beside the field, and the figure still there
    game_id = world.open_game("classic")
    response = world.post(
        f"/games/{game_id}/hands/new", {"sides-0-melded_points": HUGE, "sides-1-penalties": "-5", "stock_out": "y"}
    )
    assert response.status_code == 422 and "Enter a whole number." in response.text and HUGE in response.text
    # a player who went out with cards counted in hand (a problem of the count as a whole) is said, not hidden
    game_id = world.open_game("classic-2p")
    response = world.post(
        f"/games/{game_id}/hands/new",
        {
            "sides-0-went_out": "normal",
            "sides-0-natural_canastas": "1",
            "sides-0-melded_points": "300",
            "sides-0-hand_mode": "counts",
            "sides-0-hand_low": "2",
        },
    )
    assert response.status_code == 422 and "no cards left in hand" in response.text


# --------------------------------------------------------------------------------------------
# The phone's queue: POST /games/<id>/hands.json


def valid_body(variant):
    rules = rulesets.RULE_SETS[variant]
    body = {"stock_out": True, "sides": [{"melded_points": 60 + 5 * i, "hand_points": 10} for i in range(rules.sides)]}
    return body


@st.composite
def hand_bodies(draw, variant, near_valid=None):
    """Either a valid body with a few values changed or left out, or a body at random."""
    rules = rulesets.RULE_SETS[variant]
    known = sorted(checks.known_fields(rules))
    if near_valid if near_valid is not None else draw(st.booleans()):
        body = {**valid_body(variant), "client_key": "fuzz-" + draw(st.uuids()).hex}
        for _ in range(draw(st.integers(0, 3))):
            side = body["sides"][draw(st.integers(0, rules.sides - 1))]
            key = draw(st.sampled_from(known + ["bogus"]))
            if draw(st.integers(0, 3)) == 0:
                side.pop(key, None)
            elif key in ("melded_cards", "hand_cards"):
                side.pop(key.replace("_cards", "_points"), None)
                side[key] = draw(
                    st.dictionaries(
                        st.sampled_from(list(CARD_GROUP_KEYS)), st.integers(0, 12) | json_scalars, max_size=3
                    )
                )
            else:
                side[key] = draw(
                    st.integers(0, 40).map(lambda n: n * 5)
                    | st.sampled_from([None, "normal", True, False])
                    | json_scalars
                )
        if draw(st.integers(0, 5)) == 0:
            body[draw(st.sampled_from(["stock_out", "lone", "client_key", "sides"]))] = draw(json_values)
        return body
    body = {}
    if draw(st.booleans()):
        body["client_key"] = draw(st.text(min_size=8, max_size=20) | json_values)
    else:
        body["client_key"] = "fuzz-" + draw(st.uuids()).hex
    shape = draw(st.sampled_from(["sides", "sides", "sides", "any"]))
    if shape == "any":
        body["sides"] = draw(json_values)
    else:
        count = draw(st.sampled_from([rules.sides, rules.sides, rules.sides - 1, rules.sides + 1]))
        sides = []
        for _ in range(count):
            keys = draw(st.lists(st.sampled_from(known + ["bogus", ""]), max_size=5, unique=True))
            side = {}
            for key in keys:
                if key in ("melded_cards", "hand_cards"):
                    side[key] = draw(
                        st.dictionaries(st.sampled_from(list(CARD_GROUP_KEYS) + ["aces"]), json_scalars, max_size=3)
                        | json_values
                    )
                elif key == "went_out":
                    side[key] = draw(st.sampled_from([None, "normal", "concealed", "no", ""]) | json_scalars)
                else:
                    side[key] = draw(st.integers(0, 300).map(lambda n: n * 5) | json_scalars)
            sides.append(side if draw(st.integers(0, 9)) else draw(json_values))
        body["sides"] = sides
    for key in draw(st.lists(st.sampled_from(["stock_out", "lone", "unknown"]), max_size=2, unique=True)):
        body[key] = draw(st.sampled_from([True, False, None, 0, 1, 2]) | json_values)
    if draw(st.integers(0, 9)) == 0:
        body = draw(json_values)  # not even an object
    return body


def check_hand_json(world, game_id, payload, **kw):
    before = world.snapshot()
    count = len(world.hand_ids(game_id))
    response = no_server_error(
        world.client.post(f"/games/{game_id}/hands.json", headers={"X-CSRFToken": world.token}, **kw)
    )
    if response.status_code in (200, 201):
        answer = response.get_json()
        assert isinstance(answer["id"], int)
        after = world.hand_ids(game_id)
        assert len(after) == count + (response.status_code == 201)
        if response.status_code == 201:
            no_server_error(world.client.get(f"/games/{game_id}"))
            assert world.client.get(f"/api/games/{game_id}").status_code == 200
            resave_unchanged(world, game_id, answer["id"])
    else:
        json_errors(response)
        assert world.snapshot() == before
    return response


@FUZZ
@given(data=st.data(), variant=st.sampled_from(HAND_VARIANTS))
def test_hand_json(world, data, variant):
    game_id = world.open_game(variant)
    check_hand_json(world, game_id, None, json=data.draw(hand_bodies(variant)))


@pytest.mark.parametrize(
    "kw",
    [
        {"data": "{not json", "content_type": "application/json"},
        {"data": "[" * 100000, "content_type": "application/json"},
        {"data": '{"a":' * 50000, "content_type": "application/json"},
        {
            "data": '{"client_key": "abcdefgh-digits", "sides": [{"melded_points": %s}, {}]}' % HUGE,
            "content_type": "application/json",
        },
        {"data": "", "content_type": "application/json"},
        {"data": json.dumps({"client_key": "abcdefgh1", "sides": [{}, {}]}), "content_type": "text/plain"},
        {"data": {"client_key": "abcdefgh1"}},
        {"json": []},
        {"json": "sides"},
        {"json": 5},
        {"json": None},
        {"json": {"client_key": "short", "sides": [{}, {}]}},
        {"json": {"client_key": 12345678, "sides": [{}, {}]}},
        {"json": {"client_key": "k" * 65, "sides": [{}, {}]}},
        {
            "json": {
                "client_key": "abcdefgh-wrong-types",
                "sides": [{"melded_points": [50]}, {"went_out": {"x": 1}}],
                "stock_out": "yes",
                "lone": 0,
            }
        },
        {
            "json": {
                "client_key": "abcdefgh-huge",
                "sides": [
                    {"melded_points": 10**30, "red_threes": 10**30, "natural_canastas": -1},
                    {"penalties": float("inf")},
                ],
            }
        },
        {
            "json": {
                "client_key": "abcdefgh-cards",
                "sides": [{"melded_cards": {"jokers": 10**30, "aces": 1}}, {"hand_cards": [1, 2]}],
            }
        },
        {"json": {"client_key": "abcdefgh-side", "sides": [None, "x"]}},
    ],
)
def test_hand_json_hostile_by_hand(world, kw):
    game_id = world.open_game("classic")
    response = check_hand_json(world, game_id, None, **kw)
    assert 400 <= response.status_code < 500


def test_hand_json_unknown_game_and_no_token(world):
    for game in ("999999", ID_HUGE):
        json_errors(
            world.client.post(
                f"/games/{game}/hands.json",
                json={"client_key": "abcdefgh", "sides": []},
                headers={"X-CSRFToken": world.token},
            ),
            404,
        )
    before = world.snapshot()
    refused = no_server_error(
        world.client.post(f"/games/{world.game}/hands.json", json={"client_key": "abcdefghij", "sides": [{}, {}]})
    )
    assert refused.status_code == 400 and world.snapshot() == before  # no CSRF token


def test_hand_json_values_are_json_numbers_and_stored_as_the_form_stores_them(world):
    """Figures sent as "90", 10.0, " 1 " or "", a way out as "no" or "": refused, as the document says
    (a JSON integer; null: not gone out), each field named, nothing stored. Sent as numbers and null,
    the hand is stored as the form stores it (the statistics count only numbers: a canasta stored as "1"
    went uncounted)."""
    game_id = world.open_game("classic")
    body = {
        "client_key": "fuzz-normalised",
        "stock_out": True,
        "sides": [
            {"melded_points": "90", "hand_points": 10.0, "red_threes": " 1 ", "mixed_canastas": "", "went_out": "no"},
            {"melded_points": 60.0, "hand_cards": {"low": "2", "high": None}, "went_out": ""},
        ],
    }
    before = world.snapshot()
    response = world.client.post(f"/games/{game_id}/hands.json", json=body, headers={"X-CSRFToken": world.token})
    named = {(e["side"], e["field"]) for e in json_errors(response, 422)}
    assert named == {
        (0, "melded_points"),
        (0, "hand_points"),
        (0, "red_threes"),
        (0, "mixed_canastas"),
        (0, "went_out"),
        (1, "melded_points"),
        (1, "hand_cards.low"),
        (1, "went_out"),
    }
    assert world.snapshot() == before
    body["sides"] = [
        {"melded_points": 90, "hand_points": 10, "red_threes": 1, "mixed_canastas": None, "went_out": None},
        {"melded_points": 60, "hand_cards": {"low": 2, "high": None}, "went_out": None},
    ]
    response = world.client.post(f"/games/{game_id}/hands.json", json=body, headers={"X-CSRFToken": world.token})
    assert response.status_code == 201
    hand_id = response.get_json()["id"]
    entry = next(h for h in world.client.get(f"/api/games/{game_id}").get_json()["hands"] if h["id"] == hand_id)[
        "entry"
    ]
    assert entry == [
        {"melded_points": 90, "hand_points": 10, "red_threes": 1, "mixed_canastas": 0, "went_out": None},
        {"melded_points": 60, "hand_cards": {"low": 2}, "went_out": None},
    ]
    resave_unchanged(world, game_id, hand_id)


# --------------------------------------------------------------------------------------------
# JSON API: /api/score (stateless, no CSRF), /api/games/<id>, /api/variants


@st.composite
def score_bodies(draw):
    """A hand to score (as for the phone's queue) with a rule set, layout, settings and totals, each valid or not."""
    names = sorted(rulesets.RULE_SETS)
    near_valid = draw(st.integers(0, 3)) > 0
    variant = draw(st.sampled_from(names) if near_valid else st.sampled_from(names) | json_scalars)
    body = {"variant": variant}
    rules = rulesets.RULE_SETS.get(variant) if isinstance(variant, str) else None
    if rules is not None:
        hand = draw(hand_bodies(rules.id, near_valid or None))
        if isinstance(hand, dict):
            body.update(hand)
            body.pop("client_key", None)
    for key in draw(
        st.lists(
            st.sampled_from(["layout", "settings", "target", "totals_before", "unknown"]),
            max_size=1 if near_valid else 3,
            unique=True,
        )
    ):
        if key == "settings" and rules is not None:
            body[key] = draw(
                st.one_of(
                    *[
                        st.fixed_dictionaries({s.key: st.sampled_from([v for v, _ in s.choices]) | json_scalars})
                        for s in rules.settings
                    ],
                    st.dictionaries(st.text(max_size=6), json_scalars, max_size=2),
                    json_values,
                )
            )
        elif key == "totals_before" and rules is not None:
            body[key] = draw(
                st.lists(
                    st.integers(-(10**6), 10**6).map(lambda n: n * 5) | json_scalars,
                    min_size=rules.sides,
                    max_size=rules.sides,
                )
                | json_values
            )
        elif key == "layout" and rules is not None:
            body[key] = draw(st.sampled_from([lay.key for lay in rules.layouts]) | json_scalars)
        elif key == "target":
            body[key] = draw(st.integers(0, 20000).map(lambda n: n * 5) | json_scalars)
        else:
            body[key] = draw(json_values)
    return body


@FUZZ
@given(body=score_bodies())
def test_api_score(world, body):
    response = no_server_error(world.client.post("/api/score", json=body))
    if response.status_code == 200:
        answer = response.get_json()
        assert isinstance(body, dict) and len(answer["sides"]) == len(body["sides"])
    else:
        json_errors(response)


@pytest.mark.parametrize(
    "kw",
    [
        {"data": "{not json", "content_type": "application/json"},
        {"data": "[" * 100000, "content_type": "application/json"},
        {"data": "", "content_type": "application/json"},
        {"data": '{"variant": "classic"}', "content_type": "text/plain"},
        {"data": '{"variant": "classic", "totals_before": [%s, 0]}' % HUGE, "content_type": "application/json"},
        {"data": {"variant": "classic"}},
        {"json": []},
        {"json": None},
        {"json": "classic"},
        {"json": {}},
        {"json": {"variant": ["classic"]}},
        {"json": {"variant": "classic", "sides": {}}},
        {"json": {"variant": "classic", "layout": {"a": 1}, "settings": [1], "target": 10**30, "sides": [{}, {}]}},
        {"json": {"variant": "classic", "settings": {"wild_melds": [1], "tie_rule": True}, "sides": [{}, {}]}},
        {"json": {"variant": "classic", "totals_before": [10**30, "5"], "sides": [{}, {}]}},
        {"json": {"variant": "classic-3p", "lone": 10**30, "sides": [{}, {}, {}]}},
        {"json": {"variant": "classic", "sides": [{"melded_points": 10**30}, {"melded_cards": {"jokers": -1}}]}},
    ],
)
def test_api_score_hostile_by_hand(world, kw):
    json_errors(world.client.post("/api/score", **kw))


@FEW
@given(game_id=ids)
def test_api_ids(world, game_id):
    for url in (f"/api/games/{game_id}", f"/api/games/{game_id}/version"):
        response = no_server_error(world.client.get(url))
        if response.status_code != 200:
            assert response.status_code in (404, 405)
            if isinstance(game_id, int):
                json_errors(response, 404)
    assert world.client.get("/api/variants").status_code == 200


# --------------------------------------------------------------------------------------------
# Ids in the address: never a 500, a 404 for what does not exist, nothing changed by a refused post


@FEW
@given(x=ids)
def test_ids_in_the_address(world, x):
    before = world.snapshot()
    for url in (
        f"/games/{x}",
        f"/games/{x}/minimums",
        f"/matches/{x}",
        f"/evenings/{x}",
        f"/evenings/{x}.csv",
        f"/games/{x}.csv",
        f"/players/{x}",
        f"/games/{world.game}/hands/{x}/edit",
        f"/games/{x}/hands/new",
        f"/evenings/{x}/edit",
        f"/rules/{x}",
        f"/games/new/{x}",
        f"/view/{x}",
        f"/view/{x}/version",
        f"/games/new?evening={x}",
        f"/games/new/classic?evening={x}",
        f"/tournaments/{x}",
        f"/tournaments/{x}/edit",
        f"/tournaments/{x}/standings",
        f"/tournaments/{x}/standings/version",
        f"/tournaments/{x}/qr",
        f"/tournaments/{x}/guide-cards",
        f"/tournaments/{x}/score-cards",
        f"/tournaments/{x}/score-cards/{x}",
        f"/tournaments/{x}/tables/{x}",
        f"/tournaments/games/{x}/version",
        f"/tournaments/season?year={x}",
    ):
        response = no_server_error(world.client.get(url))
        assert response.status_code in (200, 404), (url, response.status_code)
    for url in (
        f"/games/{x}/reopen",
        f"/matches/{x}/next",
        f"/games/{world.game}/hands/{x}/delete",
        f"/games/{world.game}/hands/{x}/restore",
        f"/players/{x}/rename",
        f"/players/{x}/merge",
        f"/games/{x}/hands/new",
        f"/evenings/{x}/edit",
        f"/tournaments/{x}/draw",
        f"/tournaments/{x}/rounds",
        f"/tournaments/{x}/rounds/{x}/end",
        f"/tournaments/{x}/close",
        f"/tournaments/{x}/reopen",
        f"/tournaments/{x}/delete",
        f"/tournaments/{x}/edit",
        f"/tournaments/{x}/checkin",
        f"/tournaments/{x}/replace",
    ):
        response = no_server_error(world.post(url, {"name": "Zed"}))
        assert response.status_code in (302, 404, 409, 422), (url, response.status_code)
        if response.status_code == 302:
            follow(world, response)
    if not (isinstance(x, int) and 0 < x < 10**6):
        assert world.snapshot() == before


# --------------------------------------------------------------------------------------------
# Query strings: /prefs, /history, /evenings, /stats


@FUZZ
@given(
    query=st.dictionaries(
        st.sampled_from(["lang", "large", "next", "player", "variant", "from", "to", "page", "evening", "x"]),
        form_values
        | st.sampled_from(
            [
                "/\r\nSet-Cookie: a=b",
                "/\\evil.example",
                "//evil.example",
                "/\t/evil.example",
                "https://evil.example",
                "/ok?x=1",
                "/ä ö",
                "/\u2028",
                "2024-01-05",
                "20240105",
                "2024-W01-5",
                "classic",
                ID_HUGE,
            ]
        ),
        max_size=4,
    )
)
def test_query_strings(world, query):
    prefs = no_server_error(world.client.get("/prefs", query_string=query))
    assert prefs.status_code == 302
    location = prefs.headers["Location"]
    assert location.startswith("/") and not location.startswith("//") and location.isascii()
    assert not re.search(r"[\x00-\x20\x7f\\]", location), location
    for url in ("/history", "/evenings", "/stats", "/players", "/", "/games/new"):
        response = no_server_error(world.client.get(url, query_string=query))
        if url == "/history" and response.status_code == 422:
            shows_a_message(response.text)
            for key in ("from", "to"):
                if key in query:
                    assert str(escape(query[key])) in response.text
        else:
            assert response.status_code in (200, 404), (url, response.status_code)


def test_history_reads_every_iso_date_as_a_day(world):
    page = world.client.get("/history", query_string={"from": "20000101", "to": "2999-W01-1"})
    assert page.status_code == 200 and "No games match" not in page.text


# --------------------------------------------------------------------------------------------
# Evenings, players


@FUZZ
@given(
    fields=st.fixed_dictionaries(
        {},
        optional={
            "date": st.sampled_from(["2024-05-01", "2024-02-30", "2024-13-01", "20240105", "0000-01-01"]) | form_values,
            "place": st.sampled_from(["Home", "Café <Ö>", "A" * 80]) | form_values,
            "note": st.sampled_from(["", "Birthday", "N" * 300]) | form_values,
            "new_players": st.sampled_from(["Gus", "Gus, Hal", "Ida\nJo", "A" * 41, ", ,"]) | names,
            "unknown": form_values,
        },
    ).map(lambda f: {"date": "2024-05-02", **f} if len(f) % 2 else f),
    known=st.lists(form_values | st.sampled_from(["1", "2", ID_HUGE]), max_size=3),
    edit=st.booleans(),
)
def test_evening_form(world, fields, known, edit):
    url = f"/evenings/{world.evening}/edit" if edit else "/evenings/new"
    before = world.snapshot()
    response = no_server_error(world.post(url, {**fields, "known": known}))
    if response.status_code == 302:
        follow(world, response)
        evening_id = world.evening if edit else int(response.headers["Location"].split("/")[-1])
        with sqlite3.connect(world.db_path) as conn:
            day, place, note = conn.execute(
                "select date, place, note from evenings where id = ?", [evening_id]
            ).fetchone()
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", day) and len(place) <= 80 and len(note) <= 300
        assert "\x00" not in place + note
    else:
        assert response.status_code == 422
        refused_form(response, world, before, fields, ["place", "note", "new_players"])
        if fields.get("date"):  # as typed, or as the date picker writes a date it read (20240105 → 2024-01-05)
            try:
                shown = date.fromisoformat(fields["date"]).isoformat()
            except ValueError:
                shown = fields["date"]
            assert f'name="date" type="date" value="{escape(shown)}"' in response.text


@FUZZ
@given(
    fields=st.fixed_dictionaries(
        {},
        optional={
            "name": st.sampled_from(["Club night", "", "T" * 81]) | form_values,
            "format": st.sampled_from(["final", "mitchell", "rotation", "swiss"]) | form_values,
            "rules": st.sampled_from(["classic", "modern", "classic-3p", "house-1", "house-99"]) | form_values,
            "round_end": st.sampled_from(["target", "hands", "minutes", "never"]) | form_values,
            "round_hands": st.sampled_from(["3", "0", "51", ""]) | form_values,
            "round_minutes": st.sampled_from(["50", "14", "301"]) | form_values,
            "target": st.sampled_from(["5000", "5003", "499", ""]) | form_values,
            "entrants": st.sampled_from(
                [
                    "A\nB\nC\nD",
                    "A & B\nC & D",
                    "A\nB\nC",
                    "A\nA\nB\nC",
                    "A & B & C\nD & E",
                    "\n".join("P%d" % i for i in range(68)),
                ]
            )
            | names
            | form_values,
            "season_points": st.sampled_from(["10, 8, 6", "", "a, b", "99999"]) | form_values,
            "someone_new": st.sampled_from(["y", ""]),
        },
    ),
)
def test_tournament_form(world, fields):
    """A new tournament from any form values: stored as the form reads them, or refused with the
    values typed still on the form; never a server error."""
    before = world.snapshot()
    response = no_server_error(world.post("/tournaments/new", fields))
    if response.status_code == 302:
        follow(world, response)
        with sqlite3.connect(world.db_path) as conn:
            name, fmt, entrants = conn.execute(
                "select name, format, entrants from tournaments order by id desc"
            ).fetchone()
        assert 0 < len(name) <= 80 and fmt in ("final", "mitchell", "rotation") and "\x00" not in entrants
    else:
        assert response.status_code == 422
        assert world.snapshot() == before


def _tournaments_of(world) -> tuple[int, int]:
    """Two tournaments of the world, made once: one before its draw (12 players), one drawn (8 players)."""
    if not hasattr(world, "tournaments"):
        made = []
        for n, count in ((1, 12), (2, 8)):
            entrants = "\n".join(f"T{n}P{i}" for i in range(count))
            fields = {"name": f"T{n}", "format": "final", "rules": "classic", "round_end": "target"}
            response = world.post("/tournaments/new", {**fields, "entrants": entrants, "season_points": "5"})
            made.append(int(response.headers["Location"].rsplit("/", 1)[1]))
        world.post(f"/tournaments/{made[1]}/draw")
        world.tournaments = tuple(made)
    return world.tournaments


def _tournament_rows(world):
    with sqlite3.connect(world.db_path) as conn:
        return conn.execute("select * from tournaments order by id").fetchall()


@FUZZ
@given(
    present=st.lists(st.sampled_from([str(i) for i in range(12)]) | form_values, max_size=14),
    walk_ins=st.lists(names, max_size=4).map("\n".join) | form_values,
    version=st.sampled_from(["0", "1", "2", "", "-1"]) | form_values,
    unit=st.sampled_from(["0", "7", "8", "-1"]) | form_values,
    slot=st.sampled_from(["0", "1"]) | form_values,
    name=names | form_values,
    someone_new=st.sampled_from(["y", ""]),
)
def test_check_in_and_replace_forms(world, present, walk_ins, version, unit, slot, name, someone_new):
    """Who has come and a no-show's seat from any form values: stored as the forms read them (the check-in
    a list the format seats, each of them an entrant), or refused with a message; never a server error."""
    listed, drawn = _tournaments_of(world)
    before = _tournament_rows(world)
    checkin = {"csrf_token": world.token, "version": version, "present": present, "walk_ins": walk_ins}
    checkin["someone_new"] = someone_new
    for url, data in (
        (f"/tournaments/{listed}/checkin", checkin),
        (
            f"/tournaments/{drawn}/replace",
            {
                "csrf_token": world.token,
                "version": version,
                "unit": unit,
                "slot": slot,
                "name": name,
                "someone_new": someone_new,
            },
        ),
    ):
        response = no_server_error(world.client.post(url, data=data))
        if response.status_code == 302:
            follow(world, response)
        else:
            assert response.status_code in (404, 422), (url, response.status_code)
            if response.status_code == 422:
                shows_a_message(response.text)
                assert _tournament_rows(world) == before
        before = _tournament_rows(world)
    with sqlite3.connect(world.db_path) as conn:
        kept = conn.execute("select entrants, checked_in from tournaments where id = ?", [listed]).fetchone()
    if kept[1] is not None:
        entrants, checked = json.loads(kept[0]), json.loads(kept[1])
        assert all(e in entrants for e in checked) and len(checked) % 4 == 0 and 4 <= len(checked) <= 64


@FUZZ
@given(name=names | form_values, other=form_values)
def test_rename_and_merge(world, name, other):
    pid = world.player
    before = world.snapshot()
    response = no_server_error(world.post(f"/players/{pid}/rename", {"name": name}))
    if response.status_code == 302:
        follow(world, response)
        with sqlite3.connect(world.db_path) as conn:
            stored = conn.execute("select name from players where id = ?", [pid]).fetchone()[0]
        assert 0 < len(stored) <= 40 and stored == " ".join(stored.split()) and "\x00" not in stored
    else:
        assert response.status_code == 422
        refused_form(response, world, before, {"name": name}, ["name"])
    try:
        assume(int(other) not in world.player_ids())
    except ValueError:
        pass
    before = world.snapshot()
    refused_form(world.post(f"/players/{pid}/merge", {"other": other, "sure": "y"}), world, before)


def test_merge_with_no_other_player_says_why(tmp_path):
    client = make_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "one.sqlite")}).test_client()
    token = csrf_token(client, "/evenings/new")
    client.post("/evenings/new", data={"csrf_token": token, "date": "2024-05-01", "new_players": "Solo"})
    response = client.post("/players/1/merge", data={"csrf_token": token, "other": "1", "sure": "y"})
    assert response.status_code == 422 and "Pick two different players." in response.text


# --------------------------------------------------------------------------------------------
# Import of an archive


def _export(tmp_path_factory):
    app = make_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path_factory.mktemp("src") / "src.sqlite")})
    client = app.test_client()
    token = csrf_token(client, "/evenings/new")
    evening = client.post(
        "/evenings/new", data={"csrf_token": token, "date": "2024-05-01", "new_players": "Anna, Bert"}
    )
    evening_id = evening.headers["Location"].split("/")[-1]
    game_id = start_game(client, "classic-2p", names=["Anna", "Bert"])
    post_hand(client, game_id, side_fields(0, melded=90, hand=10), side_fields(1, melded=60))
    post_hand(
        client, game_id, side_fields(0, melded_cards={"low": 4}), side_fields(1, melded=60), extra={"confirm": "y"}
    )
    in_evening = client.post(
        "/games/new/classic",
        data={"csrf_token": token, "evening": evening_id, "players-0": "Anna", "players-1": "Cleo", "target": "1000"},
    )
    assert in_evening.status_code == 302
    return json.loads(client.get("/export.json").data)


@pytest.fixture(scope="module")
def export_doc(tmp_path_factory):
    return _export(tmp_path_factory)


@pytest.fixture(scope="module")
def importer(tmp_path_factory):
    app = make_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path_factory.mktemp("imp") / "imp.sqlite")})
    return app, app.test_client()


def _paths(doc, path=()):
    """Every place in a JSON document, as paths of keys and indexes."""
    yield path
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from _paths(value, path + (key,))
    elif isinstance(doc, list):
        for index, value in enumerate(doc):
            yield from _paths(value, path + (index,))


def _mutated(doc, path, value, delete):
    doc = json.loads(json.dumps(doc))
    if not path:
        return value
    *parents, last = path
    target = doc
    for key in parents:
        target = target[key]
    if delete:
        del target[last]
    else:
        target[last] = value
    return doc


def _import(client, payload: bytes):
    token = csrf_token(client, "/export")
    return client.post(
        "/import",
        data={"csrf_token": token, "file": (io.BytesIO(payload), "archive.json")},
        content_type="multipart/form-data",
    )


def _wipe(app):
    from scorekeeper.storage import db as dbmod

    wipe(dbmod.open_db(app.config["DATABASE"]))


@FUZZ
@given(data=st.data())
def test_import(importer, export_doc, data):
    app, client = importer
    path = data.draw(st.sampled_from(list(_paths(export_doc))))
    delete = bool(path) and data.draw(st.integers(0, 3)) == 0
    value = data.draw(json_values | st.sampled_from([LONG, "\x00", 10**30, -1, "bogus", [], {}]))
    doc = _mutated(export_doc, path, value, delete)
    response = no_server_error(_import(client, json.dumps(doc).encode()))
    if response.status_code == 302:
        try:
            for url in (
                ["/", "/history", "/stats", "/players", "/evenings", "/export.json"]
                + [
                    u
                    for g in doc["games"]
                    for u in (
                        f"/games/{g['id']}",
                        f"/api/games/{g['id']}",
                        f"/games/{g['id']}/hands/new",
                        f"/games/{g['id']}.csv",
                        f"/games/{g['id']}/minimums",
                    )
                ]
                + [f"/players/{p['id']}" for p in doc["players"]]
                + [f"/evenings/{e['id']}" for e in doc["evenings"]]
            ):
                assert no_server_error(client.get(url)).status_code in (200, 302, 404), url
        finally:
            _wipe(app)
    else:
        assert response.status_code == 422
        shows_a_message(response.text)
        assert "nothing was imported" in response.text or "not" in response.text
        with sqlite3.connect(app.config["DATABASE"]) as conn:
            assert not any(conn.execute(f"select 1 from {t} limit 1").fetchone() for t in TABLES)


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"not json",
        b"[" * 100000,
        b"\xff\xfe",
        b"null",
        b"[]",
        b'"x"',
        b"5",
        b'{"format": "canasta-scorekeeper", "version": 1}',
        HUGE.encode(),
    ],
)
def test_import_hostile_by_hand(importer, payload):
    app, client = importer
    response = no_server_error(_import(client, payload))
    assert response.status_code == 422
    shows_a_message(response.text)
    missing = no_server_error(client.post("/import", data={"csrf_token": csrf_token(client, "/export")}))
    assert missing.status_code == 400 and "Choose an export file" in missing.text


# --------------------------------------------------------------------------------------------
# Password page (with a password set)


@FEW
@given(
    password=form_values | st.just("secret"),
    target=form_values
    | st.sampled_from(["//evil.example", "/\\evil", "/\r\nX: y", "https://e.x", "/history", "/\t/evil.example"]),
)
def test_login(tmp_path_factory, password, target):
    # a new app per example, and with it a new count of wrong passwords (kept per app, in
    # app.extensions): the guesses of earlier examples are not held against this one
    app = make_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "PASSWORD": "secret",
            "DATABASE": str(tmp_path_factory.mktemp("pw") / "pw.sqlite"),
        }
    )
    client = app.test_client()
    page = client.get("/login")
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page.text).group(1)
    response = no_server_error(client.post("/login", data={"csrf_token": token, "password": password, "next": target}))
    assert response.status_code == (302 if password == "secret" else 403)  # never 429: one guess per example
    if response.status_code == 302:
        location = response.headers["Location"]
        assert location.startswith("/") and not location.startswith("//") and not re.search(r"[\s\\]", location)
    locked = client.post("/games/1/hands.json", json={}, headers={"X-CSRFToken": token})
    if password != "secret":
        json_errors(locked, 401)
