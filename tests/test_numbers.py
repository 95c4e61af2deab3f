"""Whole numbers typed as text, one rule for every place the app reads one (docs/architecture.md,
"Rules the code keeps"): the decimal digits of any script, read as their values (0-9, full-width,
Arabic-Indic, Devanagari …), spaces around them ignored, a sign only where a number may be negative;
anything else refused with a message beside the field, or a 404 for an id in an address. Never a 500:
``str.isdigit()`` accepts "²" and "①", which ``int()`` refuses.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.core import numbers
from tests.conftest import csrf_token, make_app
from tests.helpers import as_the_form_posts, new_evening, post_hand, quick_hash, side_fields, start_game
from tests.test_house_rules import form_of, keep
from tests.test_tournaments import EIGHT, act, create

# What a thumb, a keyboard of another script or a paste puts where a number goes.
NOT_NUMBERS = ["²", "①", "½", "Ⅻ", "1 2", "1_2", "1.0", "1e3", "0x1", "--1", "+-1", "١٫٥", "𝟙²", "", " "]
OTHER_SCRIPTS = {"１２": 12, "١٢": 12, "۱۲": 12, "१२": 12, "১২": 12, "๑๒": 12, "𝟏𝟐": 12, "1٢": 12}
TRICKY = NOT_NUMBERS + list(OTHER_SCRIPTS) + ["+5", "-5", "−5", " 12 ", "9" * 5000, "٩" * 40]


# --- the rule, pure --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, value", [*OTHER_SCRIPTS.items(), ("0", 0), ("007", 7), (" 12\t", 12), ("\u300012", 12)])
def test_digits_of_any_script_are_read_as_their_values(text, value):
    assert numbers.whole(text) == value


@pytest.mark.parametrize("text", NOT_NUMBERS + ["-5", "+5", "−5", "9" * 31, None, 5, 5.0, True])
def test_anything_else_is_no_number(text):
    assert numbers.whole(text) is None


@pytest.mark.parametrize("text, value", [("-5", -5), ("+5", 5), ("−５", -5), ("-0", 0), (" -12 ", -12)])
def test_a_sign_only_where_a_number_may_be_negative(text, value):
    assert numbers.whole(text, signed=True) == value


@pytest.mark.parametrize("text", ["- 5", "5-", "--5", "+-5", "-", "+", "-²", "-1_0"])
def test_a_sign_alone_or_misplaced_is_no_number(text):
    assert numbers.whole(text, signed=True) is None


def test_at_most_so_many_digits():
    assert numbers.whole("1234", digits=4) == 1234
    assert numbers.whole("12345", digits=4) is None
    assert numbers.whole("９" * 4300) is None  # more than int() reads, and no number anyone types


@settings(max_examples=300, deadline=None, database=None)
@given(st.text(alphabet=st.characters(categories=["Nd", "No", "Nl", "Zs", "Pd", "Sm"]), max_size=6))
def test_the_rule_is_int_on_decimal_digits_alone(text):
    """Whatever the characters: a number exactly when, spaces around it aside, every character is a
    decimal digit, and then the value int() reads."""
    core = text.strip()
    expected = int(core) if core and core.isdecimal() else None
    assert numbers.whole(text) == expected


# --- each place that reads a number ----------------------------------------------------------------------------


def _error(page: str, field: str) -> str:
    """The message beside a field (its ``<field>-error``), as text."""
    found = re.search(rf'id="{re.escape(field)}-error">(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)) if found else ""


def _count(app, table: str) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute(f"select count(*) from {table}").fetchone()[0]


@pytest.mark.parametrize("typed", ["²", "①", "1_000", "6 00"])
def test_a_house_rule_value_that_is_no_number_is_refused_beside_it(client, app, typed):
    response = keep(client, canasta_natural=typed)
    assert response.status_code == 422
    assert _error(response.text, "v_canasta_natural") == "Give a whole number."
    assert f'value="{typed}"' in response.text and _count(app, "house_rules") == 0


def test_a_house_rule_value_in_other_digits_is_read(client):
    assert keep(client, canasta_natural="６００", going_out_bonus="٣٠٠").status_code == 302
    changes = client.get("/api/variants").get_json()["house_rules"][0]["changes"]
    assert changes["canasta_natural"] == 600 and changes["going_out_bonus"] == 300


def test_a_house_rule_set_s_version_that_is_no_number_is_refused_as_changed_meanwhile(client):
    assert keep(client, canasta_natural=600).status_code == 302
    url = "/house-rules/1"
    version = re.search(r'name="version" value="(\d+)"', client.get(url).text).group(1)
    sent = form_of(client, url) | {"name": "Thursday", "version": "²"}
    response = client.post(url, data=sent)
    assert response.status_code == 422 and "Someone changed these rules meanwhile" in response.text
    in_other_digits = "".join(chr(0xFF10 + int(d)) for d in version)
    assert client.post(url, data=sent | {"version": in_other_digits}).status_code == 302


@pytest.mark.parametrize("url", ["/games/new/house-{}", "/rules/house-{}"])
def test_a_house_rule_set_in_the_address_is_read_by_the_rule_or_not_found(client, url):
    assert keep(client, canasta_natural=600).status_code == 302
    for typed in ("²", "①", "1_0", "+1", "1.0"):
        assert client.get(url.format(typed)).status_code == 404, typed
    assert client.get(url.format("１")).status_code == 200


def test_a_locked_phone_asking_for_rules_of_odd_digits_is_told_not_found(tmp_path):
    app = make_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "t.sqlite"), "PASSWORD_HASH": quick_hash("x")}
    )
    client = app.test_client()
    assert client.get("/rules/classic").status_code == 200  # open without the password
    assert client.get("/rules/house-²").status_code == 404


def test_the_new_game_form_reads_the_target_by_the_rule(client, app):
    for typed, status in (("５０００", 302), ("5_000", 422), ("5000²", 422), ("①", 422)):
        data = {"csrf_token": csrf_token(client, "/games/new/classic"), "first_dealer": "0", "target": typed}
        data |= {f"players-{i}": name for i, name in enumerate(["Anna", "Bert", "Carl", "Dora"])}
        response = client.post("/games/new/classic", data=data)
        assert response.status_code == status, typed
        if status == 422:
            assert _error(response.text, "target") == "Enter a whole number." and f'value="{typed}"' in response.text
    assert _count(app, "games") == 1
    assert client.get("/api/games/1").get_json()["target"] == 5000


def test_an_evening_in_the_new_game_address_is_read_by_the_rule_or_not_found(client):
    evening = new_evening(client, ["Anna", "Bert", "Carl", "Dora"])
    page = client.get(f"/games/new/classic?evening={chr(0xFF10 + evening)}")
    assert page.status_code == 200 and 'name="players-0" type="text" value="Anna"' in page.text
    for typed in ("²", "①", "1_0"):
        assert client.get(f"/games/new/classic?evening={typed}").status_code == 404, typed
    chips = client.get(f"/games/new/classic?evening={evening}&play=²&play=①&play={chr(0xFF10 + 1)}")
    assert chips.status_code == 200  # a chip of no player ticks nobody; one in full-width digits is read
    assert client.get("/games/new/classic?again=²").status_code == 200


def _hand(client, game_id: int, **extra) -> dict:
    url = f"/games/{game_id}/hands/new"
    data = {"csrf_token": csrf_token(client, url)}
    data |= side_fields(0, went_out="normal", natural=2, melded=300) | side_fields(1, melded=50)
    return as_the_form_posts(data, {}) | extra


@pytest.mark.parametrize("field", ["out", "based_on"])
@pytest.mark.parametrize("typed", ["²", "①", "1_0"])
def test_the_hand_form_s_choices_and_hidden_numbers_that_are_none_are_refused_with_a_message(client, app, field, typed):
    game_id = start_game(client)
    response = client.post(f"/games/{game_id}/hands/new", data=_hand(client, game_id, **{field: typed}))
    assert response.status_code == 422
    assert re.search(r'<p class="error"|class="error-box"', response.text)
    assert 'value="300"' in response.text and _count(app, "hands") == 0  # what was typed is still there


def test_a_corrupt_based_on_comes_back_set_so_that_saving_again_stores_the_hand(client, app):
    game_id = start_game(client)
    refused = client.post(f"/games/{game_id}/hands/new", data=_hand(client, game_id, based_on="²"))
    assert "This page was not sent as it was shown" in html.unescape(refused.text)
    kept = re.search(r'name="based_on" value="([^"]*)"', refused.text).group(1)
    again = client.post(f"/games/{game_id}/hands/new", data=_hand(client, game_id, based_on=kept))
    assert again.status_code == 302 and _count(app, "hands") == 1


def test_the_hand_form_reads_figures_and_based_on_in_other_digits(client, app):
    game_id = start_game(client)
    data = _hand(client, game_id, based_on="０")
    data["sides-0-melded_points"], data["sides-1-melded_points"] = "٣٠٠", "５０"
    assert client.post(f"/games/{game_id}/hands/new", data=data).status_code == 302
    assert client.get(f"/api/games/{game_id}").get_json()["hands"][0]["entry"][0]["melded_points"] == 300
    stale = client.post(f"/games/{game_id}/hands/new", data=_hand(client, game_id, based_on="０"))
    assert stale.status_code == 409 and _count(app, "hands") == 1  # read as 0: another hand was saved since


@pytest.mark.parametrize("typed", ["1_20", "12 0", "①"])
def test_a_hand_figure_that_is_no_number_is_refused_beside_it(client, app, typed):
    game_id = start_game(client)
    data = _hand(client, game_id)
    data["sides-1-melded_points"] = typed
    response = client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 422 and _count(app, "hands") == 0
    assert _error(response.text, "sides-1-melded_points").endswith("Enter a whole number.")
    assert f'value="{typed}"' in response.text


def test_the_tournament_form_reads_its_numbers_by_the_rule(client, app):
    response = create(client, round_end="hands", round_hands="３", target="５０００", season_points="１０，٨، 6")
    assert response.status_code == 302
    tid = int(response.headers["Location"].rsplit("/", 1)[1])
    answer = client.get(f"/api/tournaments/{tid}").get_json()
    assert (answer["round_hands"], answer["target"], answer["season_points"]) == (3, 5000, [10, 8, 6])
    for field, typed in (("round_hands", "1_0"), ("target", "5_000"), ("round_minutes", "①")):
        refused = create(
            client, name="Refused", round_end="hands" if field != "round_minutes" else "minutes", **{field: typed}
        )
        assert refused.status_code == 422 and _error(refused.text, field) == "Enter a whole number.", field
        assert f'value="{typed}"' in refused.text
    assert _count(app, "tournaments") == 1


@pytest.mark.parametrize("typed", ["10, ², 1", "10, ①", "1_0, 5", "10; 8.5", "10,,8", "10, , 8"])
def test_season_points_that_are_no_numbers_are_refused_when_made_and_when_changed(client, app, typed):
    response = create(client, season_points=typed)
    assert response.status_code == 422
    assert _error(response.text, "season_points").startswith("Whole numbers with commas between them")
    tid = int(create(client).headers["Location"].rsplit("/", 1)[1])
    url = f"/tournaments/{tid}/edit"
    page = client.get(url).text
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    data = {
        "csrf_token": csrf_token(client, url),
        "name": "Club night",
        "format": "final",
        "rules": "classic",
        "round_end": "target",
        "entrants": "\n".join(EIGHT),
        "season_points": typed,
        "version": version,
    }
    refused = client.post(url, data=data)
    assert refused.status_code == 422 and f'value="{html.escape(typed)}"' in refused.text
    assert client.get(f"/api/tournaments/{tid}").get_json()["season_points"] == [10, 8, 6, 5, 4, 3, 2, 1]
    changed = client.post(url, data=data | {"season_points": "１２, ٩"})
    assert changed.status_code == 302
    assert client.get(f"/api/tournaments/{tid}").get_json()["season_points"] == [12, 9]


def test_fair_partners_read_the_players_ids_by_the_rule(client):
    start_game(client)
    assert client.get("/api/teams?players=１,２,٣,४").status_code == 200
    # a list in an address is written without spaces, as the API's document has it (a space: refused)
    for typed in ("²,2,3,4", "①,2,3,4", "1_0,2,3,4", "1,2,3,", "", "1,2,3, 4"):
        refused = client.get(f"/api/teams?players={typed}")
        assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "players", typed


# --- every place at once: never a server error -------------------------------------------------------------------


@pytest.fixture
def world(client, app):
    """A game, one of three players, an evening, a table's own rule set and two tournaments (one
    drawn): the ids."""
    game_id = start_game(client)
    post_hand(client, game_id, side_fields(0, melded=90, hand=10), side_fields(1, melded=60))
    three = start_game(client, "classic-3p", names=["Anna", "Bert", "Carl"])
    evening = new_evening(client, ["Anna", "Bert", "Carl", "Dora"])
    assert keep(client, canasta_natural=600).status_code == 302
    listed = int(create(client, entrants="\n".join(f"P{i}" for i in range(12))).headers["Location"].rsplit("/", 1)[1])
    drawn = int(create(client, name="Drawn").headers["Location"].rsplit("/", 1)[1])
    assert act(client, drawn, "/draw").status_code == 302
    return {"game": game_id, "three": three, "evening": evening, "listed": listed, "drawn": drawn}


GETS = [
    "/games/new/house-{v}",
    "/rules/house-{v}",
    "/games/new/classic?evening={v}",
    "/games/new/classic?evening={evening}&play={v}",
    "/games/new/classic?again={v}",
    "/history?page={v}&player={v}",
    "/evenings/{evening}/partners?player={v}&player=1",
    "/api/teams?players={v},2,3,4",
    "/tournaments/season?best={v}&min={v}",
    "/tournaments/season?year={v}",
    "/games/{v}",
    "/games/{v}.csv",
    "/evenings/{v}.csv",
    "/house-rules/{v}",
    "/tournaments/{drawn}/tables/{v}",
]
POSTS = [
    ("/house-rules/new/classic", ["v_canasta_natural", "v_opening_2_from"]),
    ("/house-rules/1", ["version", "v_canasta_natural"]),
    ("/games/new/classic", ["target", "evening", "first_dealer"]),
    ("/games/{game}/hands/new", ["sides-0-melded_points", "sides-1-red_threes", "out", "based_on", "mode"]),
    ("/games/{game}/hands/1/edit", ["sides-0-melded_high", "based_on"]),
    ("/games/{three}/hands/new", ["lone", "out", "sides-2-hand_points"]),
    ("/tournaments/new", ["round_hands", "round_minutes", "target", "season_points"]),
    ("/tournaments/{listed}/edit", ["season_points", "version", "round_hands"]),
    ("/tournaments/{listed}/checkin", ["present", "version"]),
    ("/tournaments/{drawn}/replace", ["unit", "slot", "version"]),
    ("/evenings/new", ["known"]),
]


@pytest.mark.slow  # every odd digit at every place that reads a number: fuzzing, run by CI's whole suite
def test_no_number_read_anywhere_gives_a_server_error(client, app, world):
    """Every place the app reads a number, given each of the tricky values: answered, never a 5xx."""
    app.config["PROPAGATE_EXCEPTIONS"] = False  # a crash answers 500 instead of raising
    token = csrf_token(client, "/games/new/classic")
    for value in TRICKY:
        for url in GETS:
            response = client.get(url.format(v=value, **world))
            assert response.status_code < 500, (url, value)
        for url, fields in POSTS:
            for field in fields:
                data = {
                    "csrf_token": token,
                    "name": "Zed",
                    "entrants": "\n".join(EIGHT),
                    "format": "final",
                    "rules": "classic",
                    "round_end": "hands",
                    "new_players": "Zed",
                    "date": "2026-01-01",
                    "players-0": "Anna",
                    "players-1": "Bert",
                    "first_dealer": "0",
                    field: value,
                }
                response = client.post(url.format(**world), data=data)
                assert response.status_code < 500, (url, field, value)


# --- the hand form's script reads a typed figure as the server does --------------------------------------------

TEXT_JS = Path(__file__).resolve().parent.parent / "static" / "hand" / "text.js"


def test_the_script_knows_the_same_digits_as_the_server():
    zeros = [
        int(z, 16) for z in re.findall(r"0x[0-9a-f]+", re.search(r"ZEROS = \[(.*?)\]", TEXT_JS.read_text(), re.S)[1])
    ]
    assert zeros == [c for c in range(0x110000) if chr(c).isdecimal() and int(chr(c)) == 0]


@pytest.mark.skipif(shutil.which("node") is None, reason="no node to run the script")
def test_the_script_reads_a_typed_figure_as_the_server_does(tmp_path):
    values = [*TRICKY[:-2], "0", "7", "٩" * 15, "9" * 16]
    script = tmp_path / "read.mjs"
    script.write_text(
        f"import {{ wholeNumber }} from {json.dumps(TEXT_JS.as_uri())};\n"
        f"console.log(JSON.stringify({json.dumps(values)}.map(wholeNumber)));\n"
    )
    read = json.loads(subprocess.run(["node", str(script)], capture_output=True, check=True, text=True).stdout)
    assert read == [numbers.whole(v, digits=15) for v in values]


def test_the_script_sends_a_typed_figure_as_the_form_reads_it(tmp_path):
    """The live check's figure is the number the form reads on Save (a sign allowed: "-5" is −5, which
    the checks refuse as negative, "+5" is 5, sixteen digits a number far too large), else the text
    as typed: a review saw "-5" answered live with the API's words for a JSON string."""
    values = [*TRICKY[:-2], "-5", "+5", "\u22125", " 7 ", "9" * 16, "--5", "+", "5-"]
    script = tmp_path / "figure.mjs"
    script.write_text(
        f"import {{ figure }} from {json.dumps(TEXT_JS.as_uri())};\n"
        f"console.log(JSON.stringify({json.dumps(values)}.map((v) => figure(v))));\n"
    )
    sent = json.loads(subprocess.run(["node", str(script)], capture_output=True, check=True, text=True).stdout)
    read = [numbers.whole(v, signed=True) for v in values]
    # sixteen digits and more: a JavaScript number (a double), as far too large as the server's int
    expected = [r if r is None or abs(r) <= 2**53 else float(r) for r in read]
    assert sent == [0 if not v.strip() else r if r is not None else v.strip() for v, r in zip(values, expected)]


@pytest.mark.parametrize(
    "typed, kept", [("10 8 6", "10, 8, 6"), ("10;8;6", "10, 8, 6"), ("10、8、6", "10, 8, 6"), ("10, 8, 6,", "10, 8, 6")]
)
def test_season_points_between_spaces_or_any_keyboards_commas_are_read(client, app, typed, kept):
    """Spaces, semicolons and the commas of other keyboards part the places; a comma at the end is no
    place left out (two commas with nothing between them are: see above)."""
    response = create(client, season_points=typed)
    assert response.status_code == 302, response.text
    tid = response.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/api/tournaments/{tid}").get_json()["season_points"] == [int(p) for p in kept.split(", ")]


@pytest.mark.parametrize(
    "value, places, written",
    [
        (1282.5, 0, "1283"),  # Python's round and "%.0f" gave 1282 here and 428 for 427.5 (a review)
        (427.5, 0, "428"),
        (-427.5, 0, "-428"),
        (0.625, 2, "0.63"),  # "%.2f" gave 0.62 here and 0.88 for 0.875
        (0.875, 2, "0.88"),
        (0.145, 2, "0.15"),  # the figure as written, not the 0.14499… the float holds
        (2200, 0, "2200"),
        (0.0, 2, "0.00"),
    ],
)
def test_a_figure_is_rounded_one_way_a_half_away_from_zero(value, places, written):
    assert numbers.rounded(value, places) == written
