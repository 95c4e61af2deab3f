"""A table's own rule set (docs/rules.md#house-values): its page, its service and the change log,
new games from it keeping their values, the reference page, statistics and export. The scoring
itself is worked in tests/test_scoring_house.py and the families' files."""

from __future__ import annotations

import html
import io
import json
import re

import pytest

from scorekeeper.core import rulesets
from scorekeeper.services import house_rules as service
from scorekeeper.services.verdicts import OVERTAKEN, SAVED
from scorekeeper.storage import db as dbmod
from scorekeeper.storage import records
from tests.conftest import csrf_token, make_app
from tests.helpers import post_hand, side_fields, start_game


def form_of(client, url: str) -> dict[str, str]:
    """Every field of the page's form as the page fills it (the values' defaults)."""
    page = client.get(url).text
    fields = dict(re.findall(r'name="(v_\w+)"[^>]*value="([^"]*)"', page))
    for name, options in re.findall(r'<select id="\w+" name="(v_\w+)">(.*?)</select>', page, re.S):
        fields[name] = re.search(r'value="([^"]*)" selected', options).group(1)
    shown = re.search(r'name="shown_settings" value="([^"]*)"', page)
    if shown:  # the choices the page shows its values under, as a browser sends it back
        fields["shown_settings"] = html.unescape(shown.group(1))
    fields["csrf_token"] = csrf_token(client, url)
    return fields


def keep(client, base="classic", name="Thursday rules", **values):
    """Make a table's own rule set through its page; the response."""
    url = f"/house-rules/new/{base}"
    data = form_of(client, url) | {"name": name} | {f"v_{k}": str(v) for k, v in values.items()}
    return client.post(url, data=data)


def thursday(client) -> int:
    """ "Thursday rules": natural canasta 600, going out 300; its id."""
    assert keep(client, canasta_natural=600, going_out_bonus=300).status_code == 302
    return client.get("/api/variants").get_json()["house_rules"][0]["id"]


def test_the_page_shows_each_default_and_keeps_the_rules(client):
    page = client.get("/house-rules/new/classic").text
    assert "Natural canastas: bonus each" in page and "Default: 500." in page
    assert "Default: Plus when the side has melded, minus when it has not. Whether" in page  # one full stop
    # the concealed bonus is what is added to the going-out bonus (the rules page says 200 in all)
    concealed = re.search(r"Concealed going out: bonus.*?</p>", page, re.S).group(0)
    assert "Default: 100." in concealed and "Added to the going-out bonus for going out this way." in concealed
    assert ".." not in re.sub(r"<[^>]+>", "", page)
    assert "changed-mark" not in page  # nothing changed yet
    house_id = thursday(client)
    listed = client.get("/api/variants").get_json()["house_rules"]
    assert listed == [
        {
            "id": house_id,
            "name": "Thursday rules",
            "base": "classic",
            "layout": "4",
            "changes": {"canasta_natural": 600, "going_out_bonus": 300},
            "version": 0,
        }
    ]
    again = client.get(f"/house-rules/{house_id}").text
    assert again.count('class="changed-mark"') == 2  # the two changed values are marked


def test_an_impossible_table_is_refused_beside_the_value_and_what_was_typed_kept(client):
    response = keep(client, opening_4_from=1000, card_low="five")
    assert response.status_code == 422
    page = response.text
    assert 'value="five"' in page and 'value="1000"' in page
    low = page[page.index('data-value="card_low"') :]
    assert "Give a whole number." in low[: low.index("</div>")]
    response = keep(client, opening_4_from=1000)
    tier = response.text[response.text.index('data-value="opening_4_from"') :]
    assert "Each tier must start above the one before (1500)." in tier[: tier.index("</div>")]
    response = keep(client, target=1000)
    target = response.text[response.text.index('data-value="target"') :]
    assert "The target must be above the first opening tier (1500)." in target[: target.index("</div>")]
    assert client.get("/api/variants").get_json()["house_rules"] == []


def test_every_problem_is_said_on_the_first_save(client):
    """A name left empty, letters for a bonus, a target below 0 and a bonus not a multiple of 5, sent at
    once: all four are said beside their values on the first Save (the letters had hidden the others
    until the next one), and what was typed stays."""
    url = "/house-rules/new/classic"
    data = form_of(client, url) | {"name": "", "v_canasta_mixed": "abc", "v_target": "-5", "v_going_out_bonus": "7"}
    response = client.post(url, data=data)
    assert response.status_code == 422
    page = html.unescape(response.text)
    errors = re.findall(r'<p class="error" id="([\w-]+)-error">', page)
    assert {"name", "v_canasta_mixed", "v_target", "v_going_out_bonus"} <= set(errors), errors
    assert 'value="abc"' in page and 'value="-5"' in page and 'value="7"' in page


def test_a_value_typed_wrong_leaves_the_checks_across_values_until_it_is_read(client):
    """Letters for the canastas needed to go out and 2 natural ones: no sentence about "the 1 canastas
    needed" (a default nobody typed) stands beside the natural ones; the letters are said, and so is a
    value out of its own range."""
    url = "/house-rules/new/classic"
    sent = {"name": "Ours", "v_canastas_to_go_out": "two", "v_natural_canastas_to_go_out": "2"}
    page = html.unescape(client.post(url, data=form_of(client, url) | sent).text)
    errors = dict(re.findall(r'<p class="error" id="v_(\w+)-error">(.*?)</p>', page))
    assert "canastas_to_go_out" in errors, errors
    assert "natural_canastas_to_go_out" not in errors and "More than the 1 canastas" not in page, errors
    page = html.unescape(client.post(url, data=form_of(client, url) | sent | {"v_target": "-5"}).text)
    errors = dict(re.findall(r'<p class="error" id="v_(\w+)-error">(.*?)</p>', page))
    assert {"canastas_to_go_out", "target"} <= set(errors), errors  # a value out of its range: said at once


def test_a_name_is_kept_once(client):
    thursday(client)
    response = keep(client, name="thursday RULES", card_high=15)
    assert response.status_code == 422 and "A rule set of that name exists." in response.text


@pytest.mark.parametrize(
    "name, message",
    [
        ("Thur\u200bsday", "Remove the invisible characters"),  # a zero-width space
        ("\u200e\u200f", "Remove the invisible characters"),  # direction marks only: blank-looking
        ("   ", "Give it a name of 1 to 60 characters."),
        ("Classic Canasta (4 players, 2 partnerships)", "That is the name of a built-in rule set"),
        ("classic canasta (4 players, 2 partnerships)", "That is the name of a built-in rule set"),
        ("Thursday rules", "A rule set of that name exists."),
        ("\u0422hursday  rules", "A rule set of that name exists."),  # a Cyrillic Т, two spaces: looks the same
    ],
)
def test_a_name_like_another_or_not_all_visible_is_refused(client, name, message):
    """Rule-set names follow the players' names' rules (docs/rules.md, "A table's own rules"): kept
    normalised, invisible characters refused, and none that reads like a built-in rule set or another
    table's own: the form's list of rules would show two that read the same."""
    thursday(client)
    response = keep(client, name=name, card_high=15)
    assert response.status_code == 422 and message in html.unescape(response.text), name
    assert len(client.get("/api/variants").get_json()["house_rules"]) == 1  # nothing stored


def test_a_tournament_name_that_is_not_all_visible_is_refused(client):
    from tests.test_tournaments import create

    response = create(client, name="\u200b")
    assert response.status_code == 422 and "Remove the invisible characters" in html.unescape(response.text)
    assert "Club night" not in client.get("/tournaments").text


def test_a_game_from_it_scores_by_its_values_and_keeps_them(client, app):
    """docs/rules.md#classic › House rules: 300 out + 600 natural + 50 melded = 950; the other side 80."""
    house_id = thursday(client)
    assert "Thursday rules" in client.get("/games/new").text  # offered beside the built-in ones
    game_id = start_game(client, variant=f"house-{house_id}")
    post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded=50, hand=0),
        side_fields(1, melded=80, hand=0),
    )
    game = client.get(f"/api/games/{game_id}").get_json()
    assert game["totals"] == [950, 80] and game["house_rules"] == house_id
    assert game["values"] == {"canasta_natural": 600, "going_out_bonus": 300}
    # changing the table's rules later changes no game already started
    url = f"/house-rules/{house_id}"
    data = form_of(client, url) | {"name": "Thursday rules", "version": "0", "v_canasta_natural": "700"}
    assert client.post(url, data=data).status_code == 302
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [950, 80]
    with app.app_context():
        log = [c["action"] for c in dbmod.get_db().query("select action from changes where game_id is null")]
    assert log == ["house rules created", "house rules changed"]
    # and the rule set's page shows it, newest first: what each change did
    page = client.get(url).text
    history = page[page.index('class="changes house-changes"') :]
    assert history.index("rule set changed") < history.index("rule set created")
    assert re.search(r"Natural canasta[^<]*: 600 → 700", history), history[:600]
    assert re.search(r"Going out[^<]*: 300", history)


def test_its_new_game_form_and_its_games_say_its_target_and_link_its_rules(client):
    """A table's own rule set to 3000 (Classic's is 5000): the New game form says 3000 where it names the
    target (leaving it empty gives 3000), and a game's "rules" link opens the table's own rules, not
    Classic's (whose page says 5000)."""
    assert keep(client, name="Friday club", target=3000, going_out_bonus=200).status_code == 302
    house_id = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    page = html.unescape(client.get(f"/games/new/house-{house_id}").text)
    assert "game to 3000" in page and "House rules and target (3000)" in page
    assert "Target score (empty: 3000)" in page and 'placeholder="3000"' in page
    assert "5000" not in page
    game_id = start_game(client, variant=f"house-{house_id}")
    assert client.get(f"/api/games/{game_id}").get_json()["target"] == 3000
    sheet = client.get(f"/games/{game_id}").text
    assert (
        f'href="/rules/house-{house_id}?game={game_id}">rules</a>' in sheet
        and 'href="/rules/classic">rules' not in sheet
    )
    assert "Friday club" in client.get(f"/rules/house-{house_id}").text
    plain = start_game(client)  # a game of the built-in rules keeps its link
    assert 'href="/rules/classic">rules</a>' in client.get(f"/games/{plain}").text
    # its read-only link (the table's own rules are behind a password there): no "rules" link to a page
    # it could not open; the game's values are listed under "House rules in force"
    view = re.search(r'href="(?:https?://[^/"]+)?(/view/[^"]+)"', sheet).group(1)
    shown = client.get(view).text
    assert "House rules in force" in shown and f"/rules/house-{house_id}" not in shown


def test_the_reference_page_marks_the_changes(client):
    house_id = thursday(client)
    page = client.get(f"/rules/house-{house_id}").text
    # the natural canasta row, and both ways of going out (went out 300; concealed 300 + 100 = 400)
    assert "Thursday rules" in page and page.count('class="changed-mark"') == 3
    assert '<td class="num">400</td>' in page
    assert '<td class="num">600</td>' in page


def test_a_games_rules_page_shows_the_values_it_began_with_after_the_rules_change(client):
    """docs/rules.md#classic › House rules: a game keeps the values it began with (the natural canasta
    600 here); the rules changed to 700 afterwards are the set's, not the game's."""
    house_id = thursday(client)
    game_id = start_game(client, variant=f"house-{house_id}")
    sheet = client.get(f"/games/{game_id}").text
    link = html.unescape(re.search(r'href="([^"]*)">rules</a>', sheet).group(1))
    unchanged = client.get(link).text
    assert '<td class="num">600</td>' in unchanged and "have been changed since" not in unchanged
    assert "The values this game plays with" in unchanged and "Start a game with these rules" not in unchanged
    assert f'href="/games/{game_id}">← Back to the score' in unchanged
    url = f"/house-rules/{house_id}"
    data = form_of(client, url) | {"name": "Thursday rules", "version": "0", "v_canasta_natural": "700"}
    assert client.post(url, data=data).status_code == 302
    page = client.get(link).text
    assert '<td class="num">600</td>' in page and '<td class="num">700</td>' not in page
    assert page.count('class="changed-mark"') == 3  # as the set was: natural canasta, both ways out
    assert "have been changed since the game began" in page and f'href="/rules/house-{house_id}"' in page
    now = client.get(f"/rules/house-{house_id}").text
    assert '<td class="num">700</td>' in now and "Start a game with these rules" in now
    # another game's number, one of built-in rules, or no number: the set's own page
    plain = start_game(client)
    for asked in (str(plain), "99999", "x", ""):
        other = client.get(f"/rules/house-{house_id}?game={asked}").text
        assert '<td class="num">700</td>' in other and "The values this game plays with" not in other


def test_statistics_filter_by_the_tables_own_rules(client):
    house_id = thursday(client)
    game_id = start_game(client, variant=f"house-{house_id}", names=["Eve", "Finn", "Gus", "Hal"])
    post_hand(client, game_id, side_fields(0, melded=50, hand=0), side_fields(1, melded=80, hand=0))
    start_game(client, names=["Ivy", "Jon", "Kai", "Lea"])
    page = client.get(f"/stats?variant=house-{house_id}").text
    assert "Eve" in page and "Ivy" not in page
    assert "Ivy" in client.get("/stats").text


def test_export_and_import_keep_the_tables_own_rules(client, tmp_path):
    house_id = thursday(client)
    game_id = start_game(client, variant=f"house-{house_id}")
    post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded=50, hand=0),
        side_fields(1, melded=80, hand=0),
    )
    exported = client.get("/export.json").data
    data = json.loads(exported)
    assert data["house_rules"][0]["changes"] == {"canasta_natural": 600, "going_out_bonus": 300}
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")})
    other = fresh.test_client()
    response = other.post(
        "/import",
        data={"csrf_token": csrf_token(other, "/export"), "file": (io.BytesIO(exported), "archive.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert response.status_code == 200, response.text
    again = json.loads(other.get("/export.json").data)
    for key in ("house_rules", "games", "players"):
        assert again[key] == data[key], key
    assert other.get(f"/api/games/{game_id}").get_json()["totals"] == [950, 80]


def test_the_service_decides_a_stale_change(app):
    with app.app_context():
        db = dbmod.get_db()
        made = service.create(db, "Friday", "modern", None, {"special_adds": True})
        assert made.status == SAVED
        assert service.change(db, made.id, 0, "Friday", {"special_adds": True, "garbage_bonus": 3000}).ok
        stale = service.change(db, made.id, 0, "Friday", {"target": 5000})
        assert stale.status == OVERTAKEN
        assert records.get_house_rules(db, made.id).changes == {"special_adds": True, "garbage_bonus": 3000}
        refused = service.create(db, "Bad", "classic", None, {"opening_3": 40})
        assert [p.field for p in refused.problems] == ["opening_3"]


def test_every_value_of_every_rule_set_is_on_its_page(client):
    for rules in rulesets.RULE_SETS.values():
        page = client.get(f"/house-rules/new/{rules.id}").text
        for value in rulesets.values_of(rules):
            assert f'name="v_{value.name}"' in page, (rules.id, value.name)


def test_the_opening_meld_table_of_a_game_follows_and_marks_the_values(client):
    """docs/rules.md#classic › Opening minimum with tier 3 at 100 from 2000: the game's table says so."""
    assert keep(client, name="Steep", opening_3=100, opening_3_from=2000).status_code == 302
    house_id = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    game_id = start_game(client, variant=f"house-{house_id}")
    page = client.get(f"/games/{game_id}/minimums").text
    assert "2000" in page and '<td class="num">100</td>' in page
    assert page.count('class="changed-mark"') == 1  # the row of tier 3, whose minimum and start changed


def test_own_kinds_through_the_pages(client):
    """docs/rules.md › A table's own rules: a wild canasta worth 1000 and a garbage hand of 500 kept through the
    page; a game from it has a row for the wild canasta on its pad and the garbage hand among the ways out; the
    reference page lists both. 100 out + 500 natural + 1000 wild + 250 melded = 1850; the other side 60."""
    own = {
        "own_1_kind": "canasta",
        "own_1_name": "Wild canasta",
        "own_1_points": 1000,
        "own_1_wild": "true",
        "own_2_kind": "special",
        "own_2_name": "Garbage hand",
        "own_2_points": 500,
    }
    assert keep(client, name="Wild Thursdays", **own).status_code == 302
    house_id = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    game_id = start_game(client, variant=f"house-{house_id}")
    pad = client.get(f"/games/{game_id}/hands/new").text
    assert 'name="sides-0-own_1_canastas"' in pad and "Wild canasta" in pad and "Garbage hand" in pad
    post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded=250, hand=0, own_1_canastas=1),
        side_fields(1, melded=60, hand=0),
    )
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [1850, 60]
    reference = client.get(f"/rules/house-{house_id}").text
    assert "Wild canasta" in reference and "Garbage hand" in reference


def test_an_own_kind_without_a_name_is_refused_beside_it_and_kept(client):
    """docs/rules.md › A table's own rules: an own canasta of 1000 with no name is refused beside the name;
    what was typed stays, and the own kind's part is open."""
    response = keep(client, name="Nameless", own_1_kind="canasta", own_1_points=1000)
    assert response.status_code == 422
    page = response.text
    assert re.search(r'id="v_own_1_name-error">Give it a name\.', page)
    assert re.search(r'name="v_own_1_points"[^>]*value="1000"', page)
    assert '<details class="own-kind" open>' in page


def test_opening_minimums_by_hand_through_the_page(client):
    """docs/rules.md › A table's own rules: "125, 155, 180" typed as a list is kept; the scoreboard of a game
    from it shows hand 1's 125 for both sides, and after one hand, hand 2's 155 (the totals do not matter);
    a list with a word in it is refused beside it."""
    bad = keep(client, name="Rounds", opening_by_hand="125, lots")
    assert bad.status_code == 422 and 'id="v_opening_by_hand-error"' in bad.text
    assert 'value="125, lots"' in bad.text
    assert keep(client, name="Rounds", opening_by_hand="125, 155 180").status_code == 302
    house = client.get("/api/variants").get_json()["house_rules"][0]
    assert house["changes"] == {"opening_by_hand": [125, 155, 180]}
    game_id = start_game(client, variant=f"house-{house['id']}")
    board = client.get(f"/games/{game_id}").text
    assert board.count("Opening meld <strong>125</strong>") == 2
    post_hand(
        client, game_id, side_fields(0, melded=1000, hand=0), side_fields(1, melded=0, hand=0), extra={"confirm": "y"}
    )
    board = client.get(f"/games/{game_id}").text
    assert board.count("Opening meld <strong>155</strong>") == 2
    assert "By the hand's number: 125, 155, 180" in client.get(f"/rules/house-{house['id']}").text


def test_export_and_import_keep_own_kinds_and_minimums_by_hand(client, tmp_path):
    """docs/rules.md › A table's own rules: a rule set with a wild canasta of 1000 and minimums by the hand's
    number goes through the archive's export and import; the game scores the same: 100 out + 500 natural +
    1000 wild + 250 melded = 1850 against 60."""
    own = {
        "own_1_kind": "canasta",
        "own_1_name": "Wild canasta",
        "own_1_points": 1000,
        "own_1_wild": "true",
        "opening_by_hand": "125, 155",
    }
    assert keep(client, name="Wild rounds", **own).status_code == 302
    house_id = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    game_id = start_game(client, variant=f"house-{house_id}")
    post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded=250, hand=0, own_1_canastas=1),
        side_fields(1, melded=60, hand=0),
        extra={"confirm": "y"},
    )
    exported = client.get("/export.json").data
    assert json.loads(exported)["house_rules"][0]["changes"]["opening_by_hand"] == [125, 155]
    fresh = make_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")})
    other = fresh.test_client()
    response = other.post(
        "/import",
        data={"csrf_token": csrf_token(other, "/export"), "file": (io.BytesIO(exported), "archive.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert response.status_code == 200, response.text
    assert other.get(f"/api/games/{game_id}").get_json()["totals"] == [1850, 60]
    assert json.loads(other.get("/export.json").data)["house_rules"] == json.loads(exported)["house_rules"]


def test_one_changed_value_is_said_in_the_singular_on_every_list(client, app):
    """ "1 value changed", not "1 values changed" (a languages review: "1 Werte geändert" in German),
    on the rule sets to choose from and the list of the table's own rules."""
    with app.app_context():
        service.create(dbmod.get_db(), "Quittengelee", "classic", None, {"target": 3000}, None)
    for path in ("/games/new", "/house-rules"):
        assert "; 1 value changed." in client.get(path).text, path
    client.get("/prefs?lang=de&next=/")
    for path in ("/games/new", "/house-rules"):
        german = client.get(path).text
        assert "; 1 Wert geändert." in german and "1 Werte" not in german, path


SIX = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


@pytest.mark.parametrize(
    ("base", "choice", "kept"),
    [
        ("six-3x2", {"red_three_negative": "false"}, {"red_three_negative": False}),
        ("modern", {"special_3500": "true"}, {"special_3500": True}),
        ("classic", {"wild_melds": "true"}, {"wild_melds": True}),
    ],
)
def test_a_choice_changed_on_the_page_brings_its_own_values_with_it(client, base, choice, kept):
    """A house rule chosen on the page (docs/rules.md, "House rules") changes values that depend on it
    (the red threes' sign rule, the special hands' points, the wild canasta's values the page did not
    show yet): the values the page showed as they were, sent back untouched, are no choice of the
    player's and follow it. A review found them kept as changes that undid the choice (six players'
    red threes still minus, Pairs still 2500), and wild-card melds refused on the first Save with
    three new fields empty."""
    response = keep(client, base=base, name="Eine Wahl", **choice)
    assert response.status_code == 302, re.findall(r'class="error"[^>]*>([^<]*)', response.text)
    assert client.get("/api/variants").get_json()["house_rules"][0]["changes"] == kept


def test_six_players_red_threes_plus_anyway_score_plus(client):
    """docs/rules.md#six-3x2 › Red and black threes, with the house rule "count plus anyway": team 2
    melded nothing, one red three +100 and 40 in hand: 60 (it scored 100 minus, −140, when the page's
    sign rule was kept beside the choice). Team 1 goes out with two natural canastas (100 + 1000 + 300
    melded = 1400); team 3 melds 150."""
    assert keep(client, base="six-3x2", name="Plus", red_three_negative="false").status_code == 302
    house = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    game = start_game(client, variant=f"house-{house}", names=SIX)
    sides = (
        side_fields(0, went_out="normal", natural=2, melded=300),
        side_fields(1, red=1, hand=40),
        side_fields(2, melded=150),
    )
    assert post_hand(client, game, *sides).status_code == 302
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [1400, 60, 150]


def test_a_value_changed_with_its_choice_is_the_players(client):
    """A value the player changed on the same page as the choice stays as typed: six players' red threes
    "plus anyway" and one red three worth 150."""
    response = keep(client, base="six-3x2", name="Both", red_three_negative="false", red_threes_1=150)
    assert response.status_code == 302
    kept = client.get("/api/variants").get_json()["house_rules"][0]["changes"]
    assert kept == {"red_three_negative": False, "red_threes_1": 150}


def test_two_rules_for_one_opening_minimum_are_refused(client):
    """docs/rules.md, "A table's own rules": the opening minimum by the hand's number is a list for hand 1,
    2, 3 … or a number times the hand's number; both at once were kept, the second silently winning
    (a review: "100, 150" with 30 × the hand gave hand 1 60, not 100)."""
    response = keep(client, name="Both minimums", opening_by_hand="100, 150", opening_per_hand=30)
    assert response.status_code == 422
    page = html.unescape(response.text)
    assert 'id="v_opening_per_hand-error"' in page and "not both" in page
    assert 'value="100, 150"' in page and 'value="30"' in page  # what was typed stays
    assert client.get("/api/variants").get_json()["house_rules"] == []


def test_black_threes_with_a_penalty_of_their_own_are_counted_in_their_row_not_among_the_cards(client):
    """docs/rules.md, "A table's own rules": a black three left in hand costs the table's penalty (100)
    instead of its card value. Counting cards, the pad had both rows, "Cards left in hand: Black 3s (5)"
    and "Black threes in hand (−100)", and one black three put among the cards cost 5 (a review found
    125 where 30 was due). The cards left in hand now leave black threes out; their row counts them.
    docs/rules.md#classic › Card values: side 1 melds 130 (cards: five K–8 50 and sixteen 7–4 80),
    holds two K–8 (20) and one black three: 130 − 20 − 100 = 10."""
    assert keep(client, name="Schwarze Drei", black_three_in_hand=100).status_code == 302
    house = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    game = start_game(client, variant=f"house-{house}")
    form = client.get(f"/games/{game}/hands/new").text
    assert 'name="sides-1-hand_black_threes"' not in form and 'name="sides-1-black_threes_in_hand"' in form
    assert 'name="sides-1-melded_black_threes"' in form  # melded black threes keep their card value
    # the built-in rule set: at 5 each, counted with the 7 to 4 (docs/rules.md#classic › Card values)
    plain = client.get(f"/games/{start_game(client)}/hands/new").text
    assert 'name="sides-1-hand_black_threes"' not in plain and "black_threes_in_hand" not in plain
    assert "7 to 4, black 3s (5)" in plain and "7 to 4, black 3s" not in form
    sides = (
        side_fields(0, went_out="normal", natural=1, melded_cards={"high": 10}),
        side_fields(1, melded_cards={"high": 5, "low": 16}, hand_cards={"high": 2}, black_threes_in_hand=1),
    )
    assert post_hand(client, game, *sides).status_code == 302
    assert client.get(f"/api/games/{game}").get_json()["totals"][1] == 10


def test_black_threes_of_another_value_keep_a_row_of_their_own_in_hand(client):
    """docs/rules.md, "A table's own rules": a table that gives black threes 10 points counts those left in
    hand apart from the 7 to 4 (5): "Black 3s (10)", up to the deck's 4, and the 7 to 4 alone (32). Side 1
    melds 60 (six K–8) and holds three 7 to 4 and two black threes: 60 − 15 − 20 = 25."""
    assert keep(client, name="Teure Dreier", card_black_threes=10).status_code == 302
    house = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    game = start_game(client, variant=f"house-{house}")
    form = client.get(f"/games/{game}/hands/new").text
    assert "7 to 4, black 3s" not in form and "Black 3s (10)" in form
    assert re.search(r'name="sides-1-hand_black_threes"[^>]*data-max="4"', form)
    assert re.search(r'name="sides-1-hand_low"[^>]*data-max="32"', form) and "data-pool" not in form
    sides = (
        side_fields(0, went_out="normal", natural=1, melded_cards={"high": 10}),
        side_fields(1, melded_cards={"high": 6}, hand_cards={"low": 3, "black_threes": 2}),
    )
    assert post_hand(client, game, *sides).status_code == 302
    assert client.get(f"/api/games/{game}").get_json()["totals"][1] == 25


def test_black_threes_without_a_penalty_in_canadian_are_cards_left_in_hand(client):
    """docs/rules.md, "A table's own rules": 0 for what a black three left in hand costs leaves it at its card
    value. Canadian counts them apart for their 100, so a table that set 0 had no way to enter them at all (a
    review found it): they are among the cards left in hand again, with the 7 to 4 (5 each; 48 and 6 in 162
    cards). Side 1 melds 60 and holds two 7 to 4 and a black three, "3" of 7 to 4, black 3s: 60 − 15 = 45."""
    assert keep(client, base="canadian", name="Ohne Strafe", black_three_in_hand=0).status_code == 302
    house = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    game = start_game(client, variant=f"house-{house}")
    form = client.get(f"/games/{game}/hands/new").text
    assert "black_threes_in_hand" not in form and "7 to 4, black 3s (5)" in form
    assert re.search(r'name="sides-1-hand_low"[^>]*data-max="54"', form)
    body = {
        "variant": "canadian",
        "values": {"black_three_in_hand": 0},
        "sides": [{"melded_points": 60}, {"melded_points": 60, "hand_cards": {"low": 3}}],
        "stock_out": True,
    }
    response = client.post("/api/score", json=body)
    assert response.status_code == 200, response.get_json()
    assert [side["score"] for side in response.get_json()["sides"]] == [60, 45]


def test_a_number_far_too_large_is_told_its_range(client):
    """A value of 20 digits is a whole number, only far out of range: the page says the range (it said
    "Give a whole number.", a review found), a bound below zero with the minus sign, and keeps what was
    typed."""
    response = keep(client, name="Zu groß", red_threes_1="99999999999999999999")
    assert response.status_code == 422
    page = html.unescape(response.text)
    error = re.search(r'id="v_red_threes_1-error">([^<]*)<', page).group(1)
    assert "whole number" not in error and "−10000" in error and "-10000" not in error, error
    assert 'value="99999999999999999999"' in page


def test_a_game_of_a_number_of_hands_says_so_beside_its_target(client):
    """docs/rules.md, "A table's own rules": a game of a fixed number of hands ends after that hand even
    if no side reached the target; the sheet said "game to 8500" alone (a review)."""
    assert keep(client, base="modern", name="Drei Runden", hands_limit=3).status_code == 302
    house = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    game = start_game(client, variant=f"house-{house}")
    assert "game to 8500 or after 3 hands" in client.get(f"/games/{game}").text
    client.get("/prefs?lang=de&next=/")
    assert "Spiel bis 8500 oder nach 3 Runden" in client.get(f"/games/{game}").text


def test_a_game_that_already_has_both_opening_rules_still_scores_live(client):
    """The refusal of both opening rules is the rule set page's: a game or a rule set kept before it (the
    number times the hand decides, as it did) still gets its live score from POST /api/score (a read
    of the change found every preview of such a game refused)."""
    body = {
        "variant": "classic",
        "values": {"opening_by_hand": [100, 150], "opening_per_hand": 30},
        "sides": [{"melded_points": 150}, {"melded_points": 130}],
        "stock_out": True,
    }
    response = client.post("/api/score", json=body)
    assert response.status_code == 200, response.get_json()


def _a_black_three_among_the_cards(client) -> tuple[int, tuple]:
    """A game under a table's penalty of 100 for a black three left in hand, with one hand saved whose side 1
    gives a black three among its cards left in hand (as the API may, or a hand entered before): the game
    and the hand's sides."""
    assert keep(client, name="Schwarze Drei", black_three_in_hand=100).status_code == 302
    house = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    game = start_game(client, variant=f"house-{house}")
    sides = (
        side_fields(0, went_out="normal", natural=1, melded_cards={"high": 10}),
        side_fields(1, melded_cards={"high": 5, "low": 16}, hand_cards={"high": 2, "black_threes": 1}),
    )
    assert post_hand(client, game, *sides).status_code == 302
    return game, sides


def test_a_hand_with_black_threes_among_its_cards_keeps_them_when_corrected(client):
    """A hand stored with a black three among the cards left in hand (entered before the row was left out,
    or sent so by the API) shows that row on its correction form, so saving it unchanged keeps its
    score (a read of the change found 105 turning to 110). docs/rules.md#classic › Card values."""
    game, sides = _a_black_three_among_the_cards(client)
    before = client.get(f"/api/games/{game}").get_json()["totals"]
    hand = client.get(f"/api/games/{game}").get_json()["hands"][0]["id"]
    url = f"/games/{game}/hands/{hand}/edit"
    form = client.get(url).text
    assert re.search(r'name="sides-1-hand_black_threes"[^>]*value="1"', form)  # what it holds, to correct
    assert "Black 3s (−100)" in html.unescape(form)  # what each costs there, the table's penalty
    assert post_hand(client, game, *sides, url=url).status_code == 302
    assert client.get(f"/api/games/{game}").get_json()["totals"] == before


def test_black_threes_sent_among_the_cards_cost_their_penalty_as_in_their_row(client):
    """docs/rules.md, "A table's own rules": where a black three left in hand costs the table's penalty (100)
    instead of its card value, the pad asks for them in their row, but the API may give them among the
    cards left in hand: they scored their card value there, 5 (the closing note of 2026-12-07 left it).
    docs/rules.md#classic › Card values: side 1 melds 130 and holds two K–8 (20) and one black three:
    130 − 20 − 100 = 10 both ways; and the deck's 4 black threes are counted once: 3 among one side's
    cards and 2 in the other's row are 5, said beside both counts."""

    def score(*sides):
        body = {"variant": "classic", "values": {"black_three_in_hand": 100}, "sides": list(sides), "stock_out": True}
        return client.post("/api/score", json=body)

    among_cards = score({"melded_points": 60}, {"melded_points": 130, "hand_cards": {"high": 2, "black_threes": 1}})
    in_their_row = score({"melded_points": 60}, {"melded_points": 130, "hand_points": 20, "black_threes_in_hand": 1})
    assert among_cards.status_code == in_their_row.status_code == 200, among_cards.get_json()
    assert [s["score"] for s in among_cards.get_json()["sides"]][1] == 10
    assert among_cards.get_json()["sides"][1] == in_their_row.get_json()["sides"][1]

    over = score(
        {"melded_points": 60, "hand_cards": {"black_threes": 3}},
        {"melded_points": 60, "black_threes_in_hand": 2},
    )
    assert over.status_code == 422
    problems = [p for p in over.get_json()["errors"] if "black threes" in p["message"]]
    assert {(p["side"], p["field"]) for p in problems} == {(0, "hand_cards.black_threes"), (1, "black_threes_in_hand")}
    assert all("5 are entered" in p["message"] for p in problems), problems


def test_a_lone_player_out_holds_no_black_three_and_partners_pool_theirs(client):
    """docs/rules.md, "Going out" and "Classic Canasta (3 players)", under a table's penalty of 100 for a
    black three left in hand. A player alone who went out has no card left, a black three neither (a
    review found one accepted, at 0 points, once counted at its penalty). Partners pool their cards in
    hand, black threes with them: side 1 melds 60 and holds two K–8 (20) and a black three (−100), side 2
    melds 60 and holds 20; the partnership 120 − 40 − 100 = −20 each (the black three was dropped: 80)."""

    def score(variant, sides, lone=None, stock_out=True):
        body = {"variant": variant, "values": {"black_three_in_hand": 100}, "sides": sides, "stock_out": stock_out}
        return client.post("/api/score", json=body | ({"lone": lone} if lone is not None else {}))

    out = {"went_out": "normal", "natural_canastas": 2, "melded_points": 500}
    for holding in ({"hand_cards": {"black_threes": 1}}, {"black_threes_in_hand": 1}):
        refused = score("classic-2p", [out | holding, {"melded_points": 60}], stock_out=False)
        assert refused.status_code == 422, refused.get_json()
        problem = refused.get_json()["errors"][0]
        assert problem["message"] == "A player who went out has no cards left in hand." and problem["side"] == 0
    for holding in ({"hand_cards": {"high": 2, "black_threes": 1}}, {"hand_points": 20, "black_threes_in_hand": 1}):
        sides = [{"melded_points": 60}, {"melded_points": 60} | holding, {"melded_points": 60, "hand_points": 20}]
        pooled = score("classic-3p", sides, lone=0)
        assert pooled.status_code == 200, pooled.get_json()
        assert [side["score"] for side in pooled.get_json()["sides"]] == [60, -20, -20]


def test_an_archive_kept_before_black_threes_among_the_cards_cost_their_penalty_is_scored_again(client, app):
    """A hand stored with a black three among its cards under a table's penalty of 100 was kept at its card
    value (105 where 10 is due: docs/rules.md#classic › Card values, 130 − 20 − 100). Opening the archive
    after the upgrade scores that hand again (migration m027) and keeps the game's figures again, so the
    sheet and the figures the statistics and the history read agree (a review found 10 and 105)."""
    import sqlite3

    game, _sides = _a_black_three_among_the_cards(client)
    path = app.config["DATABASE"]
    with sqlite3.connect(path) as db:  # as the hand was kept before: its black three at 5
        (scores,) = db.execute("select scores from hands where game_id = ?", [game]).fetchone()
        old = json.loads(scores)[:1] + [105]
        db.execute("update hands set scores = ? where game_id = ?", [json.dumps(old), game])
        db.execute("update game_results set kept = null where game_id = ?", [game])
    db.close()
    dbmod.open_db(path).close()  # kept again from the stored scores: 105, as before the change
    assert client.get(f"/api/games/{game}").get_json()["totals"][1] == 10  # the sheet reads the entry
    assert _kept_totals(path, game) == [old[0], 105]  # what the statistics read did not
    with sqlite3.connect(path) as db:
        db.execute("delete from _sqlite_migrations where name = 'm027_black_threes_among_the_cards_at_their_penalty'")
    db.close()
    dbmod.open_db(path).close()  # the app opening its archive after the upgrade
    assert _kept_totals(path, game) == [old[0], 10]
    assert client.get(f"/api/games/{game}").get_json()["totals"] == [old[0], 10]


def _kept_totals(path: str, game: int) -> list[int]:
    """A game's totals as kept for the statistics and the history (game_results)."""
    import sqlite3

    with sqlite3.connect(path) as db:
        (totals,) = db.execute("select totals from game_results where game_id = ?", [game]).fetchone()
    db.close()
    return json.loads(totals)


def test_a_canadian_game_with_its_defaults_lists_no_value_changed(client):
    """docs/rules.md, "A table's own rules": Canadian's going-out bonus, red threes and black three in hand
    are settings that share their names with values; a game started with its defaults said "The table's own
    rules:" and listed all three "changed" (a review found it). A table's own figure outside the settings'
    choices (0 for a black three left in hand) is still listed."""
    plain = client.get(f"/games/{start_game(client, variant='canadian')}").text
    assert 'class="own-values"' not in plain and "changed-mark" not in plain
    assert keep(client, base="canadian", name="Ohne Strafe", black_three_in_hand=0).status_code == 302
    house = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    own = html.unescape(client.get(f"/games/{start_game(client, variant=f'house-{house}')}").text)
    changed = re.findall(r"<li>([^<]*): <strong>([^<]*)</strong> <span class=\"changed-mark\">", own)
    assert [label for label, _value in changed] == ["A black three left in hand costs"], changed


def test_the_rule_sets_filter_keeps_a_tables_own_rules_apart(client):
    """The statistics and the history filtered by Classic counted the games of a table's own rule set made
    from Classic too, which has a filter of its own (a review found a player's Classic figures holding
    them); each filter now has its own games."""
    assert keep(client, name="Thursday rules", going_out_bonus=200).status_code == 302
    house = client.get("/api/variants").get_json()["house_rules"][0]["id"]
    plain, own = start_game(client), start_game(client, variant=f"house-{house}")
    for game in (plain, own):
        post_hand(client, game, side_fields(0, melded=150), side_fields(1, melded=130))
    for query, shown, hidden in (("classic", plain, own), (f"house-{house}", own, plain)):
        page = client.get(f"/history?variant={query}").text
        assert f'href="/games/{shown}"' in page and f'href="/games/{hidden}"' not in page, query
    every = client.get("/history").text
    assert f'href="/games/{plain}"' in every and f'href="/games/{own}"' in every


def test_the_history_names_a_game_by_its_tables_rule_set_and_follows_a_rename(client, app):
    """A game of a table's own rule set made from Classic was named "Classic Canasta" in the history and a
    player's games, while the Classic filter leaves it out (a review found it): it is named by its own
    rule set, and a renamed rule set is named anew (the page kept for the archive's generation before
    the rename is not served again: migration m029)."""
    house = thursday(client)
    game = start_game(client, variant=f"house-{house}")
    post_hand(client, game, side_fields(0, melded=150), side_fields(1, melded=130))
    page = html.unescape(client.get("/history").text)
    row = page[page.index(f'href="/games/{game}"') :][:600]
    assert "Thursday rules" in row and "Classic Canasta" not in row
    player = re.search(r'href="/players/(\d+)"', client.get("/players").text).group(1)
    assert "Thursday rules" in html.unescape(client.get(f"/players/{player}").text)
    url = f"/house-rules/{house}"
    with app.app_context():
        before = dbmod.generation(dbmod.get_db())
    assert client.post(url, data=form_of(client, url) | {"name": "Friday rules", "version": "0"}).status_code == 302
    with app.app_context():
        assert dbmod.generation(dbmod.get_db()) > before  # what the page cache keys its pages by
    page = html.unescape(client.get("/history").text)
    assert "Friday rules" in page and "Thursday rules" not in page
