"""The JSON API: rule sets, stateless scoring and a stored game (docs/api.md)."""

import pytest

from tests.helpers import complete_game, post_hand, side_fields, start_game


def side(**fields):
    """A SIDE object with zeros for what is not given."""
    base = {
        "melded_points": 0,
        "hand_points": 0,
        "natural_canastas": 0,
        "mixed_canastas": 0,
        "red_threes": 0,
        "went_out": None,
    }
    base.update(fields)
    return base


def test_variants_lists_every_rule_set_with_its_tables(client):
    data = client.get("/api/variants").get_json()
    by_id = {v["id"]: v for v in data["variants"]}
    assert set(by_id) == {
        "classic",
        "classic-2p",
        "classic-3p",
        "six-3x2",
        "six-2x3",
        "miller",
        "vienna",
        "modern",
        "canadian",
        "austrian",
        "austrian-6",
        "encyclopedia",
    }
    assert {k: by_id[k]["target"] for k in by_id} == {
        "classic": 5000,
        "classic-2p": 5000,
        "classic-3p": 7500,
        "six-3x2": 7500,
        "six-2x3": 10000,
        "miller": 10000,
        "vienna": 5000,
        "modern": 8500,
        "canadian": 10000,
        "austrian": 5000,
        "austrian-6": 5000,
        "encyclopedia": 5000,
    }
    assert by_id["classic"]["canastas_to_go_out"] == 1 and by_id["classic-2p"]["canastas_to_go_out"] == 2
    assert [(r["from"], r["to"], r["minimum"]) for r in by_id["classic"]["opening_minimums"]] == [
        (None, -5, 15),
        (0, 1495, 50),
        (1500, 2995, 90),
        (3000, None, 120),
    ]
    # docs/rules.md#modern › Opening minimum: 125 below 3000, negative included; 155; 180
    assert [(r["from"], r["to"], r["minimum"]) for r in by_id["modern"]["opening_minimums"]] == [
        (None, 2995, 125),
        (3000, 4995, 155),
        (5000, None, 180),
    ]
    # docs/rules.md#canadian › Opening minimum: 50 (negative too, a house rule), 50, 90, 120,
    # 150 from 7000
    assert [r["minimum"] for r in by_id["canadian"]["opening_minimums"]] == [50, 50, 90, 120, 150]
    # docs/rules.md#six-3x2 › Red and black threes
    assert by_id["six-3x2"]["red_three_values"] == [0, 100, 200, 300, 400, 1000, 1200]
    assert {c["field"]: c["bonus"] for c in by_id["modern"]["canastas"]} == {
        "mixed_canastas": 300,
        "natural_canastas": 500,
        "natural_aces_sevens_canastas": 2500,
        "twos_canastas": 3000,
        "jokers_canastas": 2500,
        "wild_canastas": 2000,
    }  # docs/rules.md#modern › Canastas
    assert [layout["key"] for layout in by_id["austrian"]["layouts"]] == ["4", "2", "3", "5", "6-rotating"]
    assert "tie_rule" in {s["key"] for s in by_id["vienna"]["settings"]}


def test_score_with_layout_settings_and_target(client):
    # docs/rules.md#austrian › Going out and House rules:
    # Hand-Canasta 1000 plus 100 with the setting; natural 500; melded 200 → 1800;
    # with a target of 1500 the 2-player game ends: lead 1800 − 0
    body = {
        "variant": "austrian",
        "layout": "2",
        "settings": {"hand_canasta_adds": True},
        "target": 1500,
        "sides": [side(went_out="hand_canasta", natural_canastas=1, melded_points=200), side()],
    }
    data = client.post("/api/score", json=body).get_json()
    assert data["sides"][0]["score"] == 1800
    assert (data["finished"], data["winner"], data["margin"], data["leads"]) == (True, 0, 1800, [0, 1800])


@pytest.mark.parametrize(
    "extra, field",
    [
        ({"layout": "9"}, "layout"),
        ({"settings": {"colour": 1}}, "settings.colour"),
        ({"settings": {"hand_canasta_adds": "yes"}}, "settings.hand_canasta_adds"),
        ({"settings": []}, "settings"),
        ({"target": 1234}, "target"),
        ({"target": True}, "target"),
    ],
)
def test_bad_layout_settings_and_target(client, extra, field):
    body = {"variant": "austrian", "sides": [side(), side()], **extra}
    response = client.post("/api/score", json=body)
    assert response.status_code == 422
    assert field in {e["field"] for e in response.get_json()["errors"]}


def test_stock_out_must_agree_with_going_out(client):
    nobody = {"variant": "classic", "sides": [side(melded_points=50), side(melded_points=50)]}
    assert client.post("/api/score", json={**nobody, "stock_out": True}).status_code == 200
    refused = client.post("/api/score", json={**nobody, "stock_out": False})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "stock_out"
    out = {
        "variant": "classic",
        "stock_out": True,
        "sides": [side(melded_points=50, natural_canastas=1, went_out="normal"), side()],
    }
    assert client.post("/api/score", json=out).status_code == 422


def test_score_a_hand(client):
    # docs/rules.md#classic: A concealed out 200 + 1 natural 500 + 2 red threes 200
    # + melded 350 = 1250 → 4700 + 1250 = 5950; B: 1 mixed 300 + melded 180 − hand 65 − penalty 100 = 315
    # → 5100 + 315 = 5415; A wins by 535 (› End of the game)
    body = {
        "variant": "classic",
        "totals_before": [4700, 5100],
        "sides": [
            side(melded_points=350, natural_canastas=1, red_threes=2, went_out="concealed"),
            side(melded_points=180, mixed_canastas=1, hand_points=65, penalties=100),
        ],
    }
    data = client.post("/api/score", json=body).get_json()
    a, b = data["sides"]
    assert (a["score"], a["total"], a["opening_minimum"]) == (1250, 5950, 120)
    assert (b["score"], b["total"], b["opening_minimum"]) == (315, 5415, 120)
    assert [(line["item"], line["points"]) for line in a["breakdown"]] == [
        ("going_out", 100),
        ("concealed", 100),
        ("natural_canastas", 500),
        ("red_threes", 200),
        ("melded_cards", 350),
    ]
    assert sum(line["points"] for line in b["breakdown"]) == b["score"]
    assert (data["finished"], data["winner"], data["margin"]) == (True, 0, 535)


def test_score_with_card_counts_and_default_totals(client):
    # melded: 1 joker 50 + 2 twos 40 + 7 kings 70 = 160 and a mixed canasta 300 → 460;
    # hand: 3 low 15 → 445 (docs/rules.md#classic-2p › Card values). Totals default to 0.
    body = {
        "variant": "classic-2p",
        "sides": [
            side(
                melded_points=None,
                melded_cards={"jokers": 1, "twos_aces": 2, "high": 7},
                mixed_canastas=1,
                hand_points=None,
                hand_cards={"low": 3},
            ),
            side(),
        ],
    }
    data = client.post("/api/score", json=body).get_json()
    assert data["sides"][0]["score"] == 445 and data["sides"][0]["total"] == 445
    assert data["finished"] is False and data["winner"] is None and data["margin"] is None


def test_has_melded_defaults_from_melds_and_can_be_given(client):
    # docs/rules.md#classic › Red and black threes: 2 red threes with nothing
    # melded → −200; with has_melded false the same
    body = {"variant": "classic", "sides": [side(red_threes=2), side(red_threes=1, melded_points=60)]}
    data = client.post("/api/score", json=body).get_json()
    assert [s["score"] for s in data["sides"]] == [-200, 160]
    assert data["sides"][0]["opening_minimum"] == 15  # › Opening minimum: a negative total


@pytest.mark.parametrize(
    "sides, expected",
    [
        (
            [
                side(went_out="normal", natural_canastas=1, melded_points=200),
                side(went_out="normal", natural_canastas=1, melded_points=200),
            ],
            {(0, "went_out"), (1, "went_out")},
        ),
        ([side(went_out="normal"), side()], {(0, "went_out")}),
        ([side(red_threes=3), side(red_threes=2)], {(0, "red_threes"), (1, "red_threes")}),
        ([side(melded_points=13), side(hand_points=-5)], {(0, "melded_points"), (1, "hand_points")}),
        ([side(natural_canastas=1, melded_points=30), side()], {(0, "melded_points")}),
        ([side(has_melded=False, melded_points=50), side()], {(0, "has_melded")}),
        ([side(melded_points="lots"), side(went_out="yes")], {(0, "melded_points"), (1, "went_out")}),
        (
            [side(melded_cards={"jokers": 3}, melded_points=None), side(hand_cards={"jokers": 2}, hand_points=None)],
            {(0, "melded_cards.jokers"), (1, "hand_cards.jokers")},
        ),
        ([side(colour="red"), side()], {(0, "colour")}),
    ],
)
def test_score_refuses_what_the_checks_refuse(client, sides, expected):
    response = client.post("/api/score", json={"variant": "classic", "sides": sides})
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert {(e["side"], e["field"]) for e in errors} == expected
    assert all(e["message"] for e in errors)


@pytest.mark.parametrize(
    "body, field",
    [
        ({"variant": "bridge", "sides": []}, "variant"),
        ({"sides": [side(), side()]}, "variant"),
        ({"variant": "classic", "sides": [side()]}, "sides"),
        ({"variant": "classic", "sides": "two"}, "sides"),
        ({"variant": "classic", "totals_before": [0], "sides": [side(), side()]}, "totals_before"),
        ({"variant": "classic", "totals_before": [3, "x"], "sides": [side(), side()]}, "totals_before"),
    ],
)
def test_score_request_errors(client, body, field):
    response = client.post("/api/score", json=body)
    assert response.status_code == 422
    assert field in {e["field"] for e in response.get_json()["errors"]}


def test_score_needs_a_json_object(client):
    assert client.post("/api/score", data={"variant": "classic"}).status_code == 415  # a cross-site form post
    assert client.post("/api/score", data="[1, 2]", content_type="application/json").status_code == 400
    assert client.post("/api/score", data="{not json", content_type="application/json").status_code == 400


def test_api_cannot_change_anything(client):
    game_id = start_game(client)
    for method in ("post", "put", "delete", "patch"):
        assert getattr(client, method)(f"/api/games/{game_id}", json={}).status_code == 405


def test_game_api(client):
    game_id = start_game(client)
    post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded=300, red=1),
        side_fields(1, melded_cards={"high": 5}, hand=40),
    )
    data = client.get(f"/api/games/{game_id}").get_json()
    assert data["variant"] == "classic" and data["target"] == 5000
    assert [s["name"] for s in data["sides"]] == ["Anna & Carl", "Bert & Dora"]
    (hand,) = data["hands"]
    # docs/rules.md#classic: A 100 + 500 + 100 + 300 = 1000;
    # B melded 5 × 10 = 50 − 40 = 10
    assert [s["score"] for s in hand["sides"]] == [1000, 10]
    assert hand["entry"][1]["melded_cards"]["high"] == 5  # inputs are stored as entered
    assert hand["dealer"] == "Anna" and data["next_dealer"] == "Bert"
    assert data["totals"] == [1000, 10] and data["opening_minimums"] == [50, 50]
    assert data["finished"] is False


def test_game_api_404(client):
    response = client.get("/api/games/42")
    assert response.status_code == 404
    assert response.get_json()["errors"][0]["message"] == "Not found."


def test_score_warns_below_the_opening_minimum(client):
    # 40 melded with a minimum of 90 (total 1500; docs/rules.md#classic
    # › Opening minimum) is possible only in odd cases: warn, don't refuse
    body = {"variant": "classic", "totals_before": [1500, 0], "sides": [side(melded_points=40), side(melded_points=55)]}
    data = client.post("/api/score", json=body).get_json()
    assert [(w["side"], w["field"]) for w in data["warnings"]] == [(0, "melded_points")]
    assert "opening meld of 90" in data["warnings"][0]["message"]
    assert data["sides"][0]["score"] == 40


def test_game_version_rises_with_each_change_and_is_never_cached(client):
    game_id = start_game(client)
    before = client.get(f"/api/games/{game_id}/version")
    assert before.headers["Cache-Control"] == "no-store"
    post_hand(client, game_id, side_fields(0, melded=120), side_fields(1, melded=60))
    after = client.get(f"/api/games/{game_id}/version")
    assert after.get_json()["version"] > before.get_json()["version"]
    missing = client.get("/api/games/42/version")
    assert missing.status_code == 404 and missing.get_json()["errors"][0]["field"] == "id"


@pytest.mark.parametrize(
    "body, fields",
    [
        # the rule set first: every later message needs it
        ({"variant": "bridge", "target": 3, "totals_before": "x", "sides": "two"}, {"variant"}),
        # then its layout, settings and target: the hand is read with them
        (
            {"variant": "austrian", "layout": 9, "settings": {"colour": 1}, "target": 3, "sides": "two"},
            {"layout", "settings.colour", "target"},
        ),
        ({"variant": "classic", "settings": [1], "totals_before": "x", "sides": "two"}, {"settings"}),
        # then the totals and the hand, together
        ({"variant": "classic", "totals_before": "x", "sides": [side()]}, {"totals_before", "sides"}),
        ({"variant": "classic", "totals_before": [5.0, 0], "sides": [side(), side()]}, {"totals_before"}),
        ({"variant": "classic", "totals_before": None, "sides": [side(), side()]}, {"totals_before"}),
    ],
)
def test_score_tells_the_problems_a_step_at_a_time(client, body, fields):
    response = client.post("/api/score", json=body)
    assert response.status_code == 422
    assert {e["field"] for e in response.get_json()["errors"]} == fields


def test_score_refuses_an_unknown_top_level_key_naming_it(client):
    """A misspelt "values" ("value") must not score silently with the defaults: 422 naming the key."""
    body = {"variant": "classic", "sides": [side(), side()], "value": {"canasta_natural": 600}}
    response = client.post("/api/score", json=body)
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == ["value"]


def test_score_with_the_tables_own_values(client):
    """docs/rules.md#classic › House rules: natural canasta 600, going out 300: 300 + 600 + 50 melded = 950."""
    body = {
        "variant": "classic",
        "values": {"canasta_natural": 600, "going_out_bonus": 300},
        "sides": [side(went_out="normal", natural_canastas=1, melded_points=50), side()],
    }
    response = client.post("/api/score", json=body)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["sides"][0]["score"] == 950
    lines = {line["item"]: line["points"] for line in response.get_json()["sides"][0]["breakdown"]}
    assert lines == {"going_out": 300, "natural_canastas": 600, "melded_cards": 50}


@pytest.mark.parametrize(
    "values, field",
    [
        ({"canasta_naturall": 600}, "values.canasta_naturall"),  # unknown name
        ({"going_out_bonus": 3}, "values.going_out_bonus"),  # not a multiple of 5
        ({"card_low": -5}, "values.card_low"),  # below its limit
        ({"hands_limit": 201}, "values.hands_limit"),  # above its limit
        ({"opening_3": 40}, "values.opening_3"),  # an impossible table: tier 3 below tier 2
        ({"cards_in_hand_count": 1}, "values.cards_in_hand_count"),  # yes or no
    ],
)
def test_score_refuses_a_value_naming_it(client, values, field):
    body = {"variant": "classic", "values": values, "sides": [side(), side()]}
    response = client.post("/api/score", json=body)
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == [field]


def test_variants_list_every_changeable_value(client):
    """Each rule set lists its values with name, default, kind and limits."""
    listed = client.get("/api/variants").get_json()
    classic = next(v for v in listed["variants"] if v["id"] == "classic")
    values = {v["name"]: v for v in classic["values"]}
    assert values["canasta_natural"] | {"label": ""} == {
        "name": "canasta_natural",
        "label": "",
        "default": 500,
        "kind": "points",
        "low": 0,
        "high": 10000,
        "choices": None,
        "group": "canastas",
        "explanation": "Added for each completed canasta of this kind.",
        "requires": None,
    }
    assert values["tie_rule"]["choices"] == ["play_on", "draw", "went_out"]
    # a value a setting brings is listed with the setting (docs/rules.md#classic › House rules: wild-card melds)
    assert values["canasta_wild"]["requires"] == {"wild_melds": True}
    assert values["opening_by_hand"] | {"label": "", "explanation": ""} == {
        "name": "opening_by_hand",
        "label": "",
        "explanation": "",
        "default": [],
        "kind": "list",
        "low": 0,
        "high": 1000,
        "choices": None,
        "group": "opening",
        "requires": None,
    }
    assert values["own_1_kind"]["choices"] == ["none", "canasta", "special", "tier"]
    assert listed["house_rules"] == []


def test_score_takes_the_values_a_setting_brings(client):
    """docs/rules.md#classic › House rules: with wild-card melds allowed a wild canasta and an
    unfinished wild meld are values too: wild canasta 2500 + melded 140 = 2640 for one side;
    natural 500 − unfinished wild meld 700 + melded 60 = −140 for the other."""
    body = {
        "variant": "classic",
        "settings": {"wild_melds": True},
        "values": {"canasta_wild": 2500, "incomplete_wild": 700},
        "sides": [
            side(wild_canastas=1, melded_points=140),
            side(natural_canastas=1, incomplete_wild=1, melded_points=60),
        ],
    }
    response = client.post("/api/score", json=body)
    assert response.status_code == 200, response.get_json()
    assert [s["score"] for s in response.get_json()["sides"]] == [2640, -140]
    # the same values given with the setting among them, as a stored game keeps them
    body["values"] |= {"wild_melds": True}
    del body["settings"]
    assert [s["score"] for s in client.post("/api/score", json=body).get_json()["sides"]] == [2640, -140]
    # without the setting they are not values of classic
    del body["values"]["wild_melds"]
    response = client.post("/api/score", json=body)
    assert response.status_code == 422
    assert {e["field"] for e in response.get_json()["errors"]} == {"values.canasta_wild", "values.incomplete_wild"}


def test_score_ends_a_game_of_a_fixed_number_of_hands_at_its_last_hand(client):
    """docs/rules.md, "House rules": a game of 3 hands ends after hand 3, the highest total winning
    below the target: 1200 + 150 = 1350 against 900 + 0 = 900, a lead of 450."""
    body = {
        "variant": "classic",
        "values": {"hands_limit": 3},
        "totals_before": [1200, 900],
        "sides": [side(melded_points=150), side()],
    }
    for hand, finished in ((None, False), (2, False), (3, True), (4, True)):
        request = body if hand is None else body | {"hand": hand}
        data = client.post("/api/score", json=request).get_json()
        assert data["finished"] is finished, hand
    assert (data["winner"], data["margin"], data["leads"]) == (0, 450, [0, 450])


@pytest.mark.parametrize("hand", [0, -1, "3", 3.0, True, 10_001])
def test_score_refuses_a_hand_number_that_is_none(client, hand):
    body = {"variant": "classic", "hand": hand, "sides": [side(), side()]}
    response = client.post("/api/score", json=body)
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == ["hand"]


def test_match_api_gives_the_partien_and_the_balance(client):
    """docs/rules.md#austrian: a finished Partie adds its margin to each winner and takes it from each
    loser. Partie 1: Nord & Sued 100 + 500 + 400 = 1000 against 50, won by 950; Partie 2: Sued & West
    100 + 300 + 600 = 1000 against Nord & Ost's 200, won by 800; Partie 3 just started. Nord +950 −800
    = 150, Ost −950 −800 = −1750, Sued +950 +800 = 1750, West −950 +800 = −150 (docs/api.md's example)."""
    first = complete_game(client)
    data = client.get(f"/api/matches/{first}").get_json()
    assert data["balance"] == [
        {"name": "Nord", "points": 150},
        {"name": "Ost", "points": -1750},
        {"name": "Sued", "points": 1750},
        {"name": "West", "points": -150},
    ]
    assert [(p["number"], p["layout"], p["totals"], p["winner"], p["margin"]) for p in data["partien"]] == [
        (1, "4", [1000, 50], 0, 950),
        (2, "4-ne", [200, 1000], 1, 800),
        (3, "4-nw", [0, 0], None, None),
    ]
    assert data["partien"][2]["sides"][0] == {"name": "Nord & West", "players": ["Nord", "West"]}
    assert data["complete"] is False and data["id"] == first
    # each Partie's sheet names its complete Game
    sheet = client.get(f"/api/games/{data['partien'][1]['game']}").get_json()
    assert (sheet["match"], sheet["partie"]) == (first, 2)
    assert client.get(f"/api/games/{first}").get_json()["partie"] == 1
    # the docs' example is this very answer, up to the ids
    from tests.test_openapi import API_MD, doc_examples

    (example,) = [e for m, p, s, e in doc_examples(API_MD) if p == "/api/matches/{id}" and s == "200"]
    assert data == example | {
        "id": first,
        "partien": [p | {"game": data["partien"][i]["game"]} for i, p in enumerate(example["partien"])],
    }


def test_match_api_404_for_a_game_that_is_no_complete_game(client):
    plain = start_game(client)
    assert client.get(f"/api/games/{plain}").get_json()["match"] is None
    for match_id in (plain, 999):
        response = client.get(f"/api/matches/{match_id}")
        assert response.status_code == 404 and response.get_json()["errors"][0]["field"] == "id"


def test_match_api_asks_a_locked_phone_for_the_password(tmp_path):
    from tests.conftest import make_app
    from tests.test_access import LOCKED, _unlock

    app = make_app({**LOCKED, "DATABASE": str(tmp_path / "m.sqlite")})
    phone = app.test_client()
    _unlock(phone)
    first = complete_game(phone)
    assert phone.get(f"/api/matches/{first}").status_code == 200
    stranger = app.test_client()
    response = stranger.get(f"/api/matches/{first}")
    assert response.status_code == 401 and response.get_json()["errors"][0]["field"] == "password"
    assert "Nord" not in response.text


def test_score_takes_opening_minimums_by_the_hands_number(client):
    """docs/rules.md › A table's own rules: minimums 125, 155, 180 by the hand's number; hand 2 of a game:
    130 melded is below this hand's 155 (a warning), and the next hand (3) needs 180 whatever the totals."""
    body = {
        "variant": "classic",
        "values": {"opening_by_hand": [125, 155, 180]},
        "hand": 2,
        "totals_before": [0, 2000],
        "sides": [side(melded_points=130), side(melded_points=50)],
    }
    answer = client.post("/api/score", json=body).get_json()
    assert [s["opening_minimum"] for s in answer["sides"]] == [180, 180]
    assert [(w["side"], w["field"]) for w in answer["warnings"]] == [(0, "melded_points"), (1, "melded_points")]


def test_score_gives_a_tie_to_the_side_that_went_out(client):
    """docs/rules.md › A table's own rules: target 1000, 600 each before; the first side goes out with a
    natural canasta (100 + 500 + 35 melded = 635), the second melds 635: 1235 each, the first side wins by 0."""
    sides = [side(went_out="normal", natural_canastas=1, melded_points=35), side(melded_points=635)]
    body = {"variant": "classic", "settings": {"tie_rule": "went_out"}, "target": 1000, "totals_before": [600, 600]}
    body["sides"] = sides
    answer = client.post("/api/score", json=body).get_json()
    assert (answer["finished"], answer["winner"], answer["margin"], answer["tie"]) == (True, 0, 0, False)


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("GET", "/api/score", "OPTIONS, POST"),
        ("PUT", "/api/score", "OPTIONS, POST"),
        ("DELETE", "/api/games/{game}", "GET, HEAD, OPTIONS"),
        ("GET", "/games/{game}/hands.json", "OPTIONS, POST"),
    ],
)
def test_a_request_of_the_wrong_kind_is_refused_in_the_one_json_shape(client, method, path, allowed):
    """docs/api.md, "Errors": every refusal has one shape, a wrong method too (it was Flask's HTML
    page); the Allow header names what the address takes."""
    game = start_game(client)
    response = client.open(path.format(game=game), method=method)
    assert response.status_code == 405 and response.is_json
    assert response.headers["Allow"] == allowed
    [error] = response.get_json()["errors"]
    assert error["field"] == "method" and error["side"] is None and error["shared"] is False
    assert error["message"] == f"This address takes only {allowed}."


def test_a_visit_to_a_buttons_address_gets_a_page_saying_what_it_is_for(client):
    game = start_game(client)
    response = client.get(f"/games/{game}/delete")
    assert response.status_code == 405 and response.mimetype == "text/html"
    assert "belongs to a button or a form of the app" in response.text and response.headers["Allow"] == "OPTIONS, POST"
    assert client.get(f"/games/{game}").status_code == 200  # nothing happened to the game
