"""A locked phone learns nothing of the archive, on any page the app has.

Walks every GET route of ``app.url_map`` (ids filled in, with the query parameters the views read)
as a phone without the password against an archive of evenings and games with names, places, notes,
dates and scores found nowhere else, and looks for each of them in every answer. Only the login
page, the app shell, the rule tables, the stateless scoring API and read-only links stay open, and
none of those shows the archive (a read-only link shows its one game, to who has the link).
"""

import re
import urllib.parse

import pytest
from werkzeug.routing import IntegerConverter, PathConverter, UnicodeConverter

from scorekeeper.core import rulesets
from scorekeeper.web import access
from tests.conftest import csrf_token, make_app
from tests.helpers import post_hand, quick_hash, side_fields

EVENINGS = [
    # date, place, note, players
    ("2017-06-23", "Quittenhof Zwiebelturm", "Notiz Bergamotte", ["Quendolyn", "Zebulon", "Xaviera", "Wolfram"]),
    ("2018-11-02", "Kuerbisscheune Pfauenau", "Notiz Kardamom", ["Ysolde", "Thorbald", "Ulrike-Vesna", "Ottokar"]),
    ("2019-03-17", "Mispelgarten Oberhaus", "Notiz Pimpernell", ["Brunhilde", "Cosimo", "Dankwart", "Eulalia"]),
]
QUERIES = [
    "",
    "?evening={i}",
    "?again={i}",
    "?player={i}&variant=classic&from=2000-01-01&to=2100-12-31&page=1",
    "?page=2",
    "?next=/games/{i}",
]


def _distinctive_words():
    words = []
    for day, place, note, names in EVENINGS:
        words += [day, day.replace("-", ""), place, *place.split(), note, *note.split()[1:], *names]
    return words


@pytest.fixture
def archive(tmp_path):
    """A locked app, and what its archive holds that a stranger must not learn."""
    app = make_app(
        {
            "TESTING": True,
            "SECRET_KEY": "walk",
            "DATABASE": str(tmp_path / "walk.sqlite"),
            "PASSWORD_HASH": quick_hash("karo sieben"),
        }
    )
    owner = app.test_client()
    token = csrf_token(owner, "/login")
    assert owner.post("/login", data={"csrf_token": token, "password": "karo sieben"}).status_code == 302
    scores = []
    for i, (day, place, note, names) in enumerate(EVENINGS, start=1):
        data = {
            "csrf_token": csrf_token(owner, "/evenings/new"),
            "date": day,
            "place": place,
            "note": note,
            "new_players": ", ".join(names),
        }
        response = owner.post("/evenings/new", data=data)
        assert response.status_code == 302, response.text
        evening_id = int(response.headers["Location"].rsplit("/", 1)[1])
        url = "/games/new/classic"
        data = {"csrf_token": csrf_token(owner, url), "first_dealer": "0", "evening": str(evening_id)}
        data.update({f"players-{n}": name for n, name in enumerate(names)})
        response = owner.post(url, data=data)
        assert response.status_code == 302, response.text
        game_id = int(response.headers["Location"].rsplit("/", 1)[1])
        response = post_hand(  # totals no other page shows
            owner,
            game_id,
            side_fields(0, went_out="normal", natural=1, mixed=1, melded=485 + 30 * i),
            side_fields(1, natural=1, mixed=1, melded=305 + 15 * i, hand=35),
        )
        assert response.status_code == 302, response.text
        totals = owner.get(f"/api/games/{game_id}").get_json()["totals"]
        assert all(abs(total) >= 1000 for total in totals), totals
        scores += [str(total) for total in totals]
    words = _distinctive_words()
    # the owner sees them: the archive really holds what is looked for
    seen = " ".join(owner.get(url).text for url in ("/evenings", "/evenings/1", "/games/1", "/history", "/players"))
    for word in ("Quittenhof Zwiebelturm", "Notiz Bergamotte", "Quendolyn", "Eulalia", scores[0]):
        assert word in seen, word
    return app, words, scores


def _urls(app):
    """Every GET route with its variables filled in, with each set of query parameters."""
    urls = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if "GET" not in rule.methods:
                continue
            for i in (1, 2, 3):
                values = {}
                for name, converter in rule._converters.items():
                    if isinstance(converter, IntegerConverter):
                        values[name] = i
                    elif isinstance(converter, PathConverter):
                        values[name] = "style.css"
                    elif name == "variant":
                        values[name] = list(rulesets.RULE_SETS)[(i - 1) % len(rulesets.RULE_SETS)]
                    elif isinstance(converter, UnicodeConverter):
                        values[name] = f"forged{i}"  # a read-only link's token the phone does not have
                    else:
                        raise AssertionError(f"a route with a {type(converter).__name__}: fill it in here ({rule})")
                path = rule.build(values, append_unknown=False)[1]
                urls += [(rule.endpoint, path + query.format(i=i)) for query in QUERIES]
    return sorted(set(urls))


def test_a_locked_phone_finds_nothing_of_the_archive(archive):
    app, words, scores = archive
    stranger = app.test_client()
    urls = _urls(app)
    endpoints = {endpoint for endpoint, _ in urls}
    every_get = {rule.endpoint for rule in app.url_map.iter_rules() if "GET" in rule.methods}
    assert endpoints == every_get  # no route left out
    assert {"archive.history", "games.scoreboard", "games.choose_rules", "api.game"} <= endpoints
    leaks, opened = [], set()
    any_score = re.compile(r"(?<!\d)(" + "|".join(re.escape(str(score)) for score in scores) + r")(?!\d)")
    for endpoint, url in urls:
        for headers in ({}, {"Accept": "application/json"}, {"Accept-Encoding": "identity"}):
            response = stranger.get(url, headers=headers)
            text = response.get_data(as_text=True) + " " + response.headers.get("Location", "")
            found = [word for word in words if word in text]
            if endpoint != "static":
                found += sorted(set(any_score.findall(text)))
            if found:
                leaks.append((url, response.status_code, found))
            if response.status_code == 200:
                opened.add(endpoint)
            elif response.status_code == 302:
                location = response.headers["Location"]
                assert location.startswith("/login") or endpoint in ("phone.prefs", "access.login"), (url, location)
            else:
                assert response.status_code in (401, 404), (url, response.status_code)
    assert not leaks, leaks
    # only these answer a locked phone at all
    assert opened <= access.OPEN_ENDPOINTS, opened - access.OPEN_ENDPOINTS
    assert "games.choose_rules" not in access.OPEN_ENDPOINTS  # it shows an evening with ?evening=


def test_a_locked_phone_is_sent_to_the_password_before_a_new_game(archive):
    app, words, _ = archive
    stranger = app.test_client()
    for url in ("/games/new?evening=1", "/games/new", "/games/new/classic?evening=2", "/games/new/classic?again=1"):
        response = stranger.get(url)
        assert response.status_code == 302 and response.headers["Location"].startswith("/login?next=/games/new"), url
        page = stranger.get(response.headers["Location"]).text
        assert not [word for word in words if word in page]


def test_a_tables_own_rule_set_is_behind_the_password_the_built_in_ones_are_not(archive):
    """What people typed (a table's own rule set: its name, its values) is behind the password like every
    other name; the built-in rule sets stay open (docs/api.md, "GET /api/variants")."""
    from scorekeeper.services import house_rules
    from scorekeeper.storage.db import get_db

    app, _words, _scores = archive
    with app.app_context():
        made = house_rules.create(get_db(), "Hausregel Quittengelee", "classic", None, {"target": 3000}, None)
    stranger, owner = app.test_client(), app.test_client()
    assert (
        owner.post("/login", data={"csrf_token": csrf_token(owner, "/login"), "password": "karo sieben"}).status_code
        == 302
    )
    seen = owner.get("/api/variants").get_json()
    assert [h["name"] for h in seen["house_rules"]] == ["Hausregel Quittengelee"]
    assert "Quittengelee" in owner.get(f"/rules/house-{made.id}").text
    listed = stranger.get("/api/variants")
    assert listed.status_code == 200 and listed.get_json()["house_rules"] == []
    assert len(listed.get_json()["variants"]) == len(rulesets.RULE_SETS) and "Quittengelee" not in listed.text
    page = stranger.get(f"/rules/house-{made.id}")
    assert page.status_code == 302 and "/login" in page.headers["Location"] and "Quittengelee" not in page.text
    # a game's view of them (its values): the same, and the password leads back to it
    games = stranger.get(f"/rules/house-{made.id}?game=1")
    assert games.status_code == 302 and "Quittengelee" not in games.text
    assert urllib.parse.unquote(games.headers["Location"]).endswith(f"next=/rules/house-{made.id}?game=1")
    assert stranger.get("/rules/classic").status_code == 200
