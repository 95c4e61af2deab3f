"""The archive: evenings, players, history, statistics, charts, export and import.

Scores are worked by hand from shared/rules/scoring-spec.md §2.5 (classic) and §4 (2 players).
"""

import json
import re
from datetime import date

from scorekeeper import create_app
from tests.conftest import csrf_token
from tests.helpers import post_hand, side_fields, start_game, totals

TODAY = date.today().isoformat()


def new_evening(client, names, when=TODAY, place=""):
    """Start an evening through its form; return its id."""
    data = {
        "csrf_token": csrf_token(client, "/evenings/new"),
        "date": when,
        "place": place,
        "new_players": ", ".join(names),
    }
    response = client.post("/evenings/new", data=data)
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rsplit("/", 1)[1])


def game_in_evening(client, evening_id, variant="classic", names=None):
    """Start a game from the evening: the form comes filled with the evening's players."""
    url = f"/games/new/{variant}?evening={evening_id}"
    page = client.get(url)
    prefilled = re.findall(r'name="players-\d+" type="text" value="([^"]*)"', page.text)
    data = {"csrf_token": csrf_token(client, url), "first_dealer": "0", "evening": str(evening_id)}
    for i, name in enumerate(names or prefilled):
        data[f"players-{i}"] = name
    response = client.post(f"/games/new/{variant}", data=data)
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rsplit("/", 1)[1]), prefilled


def win_hand():
    """Side 0: out 100 + 4 natural 2000 + 4 red threes 800 + melded 1100 = 4000; side 1: melded 50 = 50
    (1150 card points in all: the deck holds 1180, §1.1)."""
    return side_fields(0, went_out="normal", natural=4, red=4, melded=1100), side_fields(1, melded=50)


def test_evening_takes_its_players_and_settles(client):
    assert "Start tonight's evening" in client.get("/").text
    evening_id = new_evening(client, ["Anna", "Bert", "Carl", "Dora"], place="Club")
    home = client.get("/").text
    assert home.index("Continue tonight") < home.index("Recent games")
    game_id, prefilled = game_in_evening(client, evening_id)
    assert prefilled[:4] == ["Anna", "Bert", "Carl", "Dora"]
    post_hand(client, game_id, *win_hand())
    post_hand(client, game_id, *win_hand())  # 8000 : 100 → Anna & Carl win by 7900
    page = client.get(f"/evenings/{evening_id}").text
    assert "Anna &amp; Carl won by 7900" in page
    standings = re.findall(
        r'<tr><td><a href="/players/\d+">(\w+)</a></td><td class="num">(\d+)</td><td class="num">(\d+)</td><td class="num">([+-]\d+)</td></tr>',
        page,
    )
    assert standings == [
        ("Anna", "1", "1", "+7900"),
        ("Carl", "1", "1", "+7900"),
        ("Bert", "1", "0", "-7900"),
        ("Dora", "1", "0", "-7900"),
    ]
    # §10.6: each loser pays the difference to one winner
    assert "Bert pays Anna <strong>7900</strong>" in page and "Dora pays Carl <strong>7900</strong>" in page
    csv_text = client.get(f"/evenings/{evening_id}.csv").text
    assert "Anna & Carl won" not in csv_text and "Anna & Carl,7900" in csv_text.replace('"', "")
    assert "Anna,1,1,7900" in csv_text


def test_three_players_winner_collects_from_each(client):
    evening_id = new_evening(client, ["Anna", "Bert", "Carl"])
    game_id, _ = game_in_evening(client, evening_id, variant="encyclopedia", names=["Anna", "Bert", "Carl"])
    # layout 3 is not the default of encyclopedia: start it with the layout instead
    url = f"/games/new/encyclopedia?evening={evening_id}"
    data = {
        "csrf_token": csrf_token(client, url),
        "first_dealer": "0",
        "layout": "3",
        "evening": str(evening_id),
        "players-0": "Anna",
        "players-1": "Bert",
        "players-2": "Carl",
        "target": "1000",
    }
    game_id = int(client.post("/games/new/encyclopedia", data=data).headers["Location"].rsplit("/", 1)[1])
    # §11.5: Anna out 100 + natural 500 + melded 400 = 1000 wins; Bert melded 300 → lead 700; Carl 0 → lead 1000
    post_hand(
        client,
        game_id,
        side_fields(0, went_out="normal", natural=1, melded=400),
        side_fields(1, melded=300),
        side_fields(2),
    )
    page = client.get(f"/evenings/{evening_id}").text
    assert "Bert pays Anna <strong>700</strong>" in page or "Carl pays Anna <strong>1000</strong>" in page
    assert re.search(r">Anna</a></td><td class=\"num\">\d</td><td class=\"num\">1</td><td class=\"num\">\+1700<", page)


def test_rename_and_merge_keep_history(client):
    game_id = start_game(client, names=["Anna", "Bert", "Carl", "Dora"])
    post_hand(client, game_id, *win_hand())
    other = start_game(client, names=["Ana", "Emil", "Fritz", "Gerd"])
    players = dict(
        (name, int(pid))
        for pid, name in re.findall(
            r'href="/players/(\d+)">\s*<span class="game-title">(\w+)', client.get("/players").text
        )
    )
    token = csrf_token(client, f"/players/{players['Bert']}")
    clash = client.post(f"/players/{players['Bert']}/rename", data={"csrf_token": token, "name": "anna"})
    assert clash.status_code == 422 and "There is already a player called anna" in clash.text
    renamed = client.post(
        f"/players/{players['Bert']}/rename", data={"csrf_token": token, "name": "Berthold"}, follow_redirects=True
    )
    assert "Renamed." in renamed.text
    assert (
        "Anna &amp; Carl" in client.get(f"/games/{game_id}").text
        and "Berthold &amp; Dora" in client.get(f"/games/{game_id}").text
    )
    unsure = client.post(f"/players/{players['Anna']}/merge", data={"csrf_token": token, "other": players["Ana"]})
    assert unsure.status_code == 422 and "Tick this to merge" in unsure.text  # asked twice: it cannot be undone
    nobody = client.post(f"/players/{players['Anna']}/merge", data={"csrf_token": token, "other": "", "sure": "y"})
    assert nobody.status_code == 422 and "Choose the player to merge." in nobody.text
    assert client.get(f"/players/{players['Ana']}").status_code == 200
    same_game = client.post(
        f"/players/{players['Anna']}/merge", data={"csrf_token": token, "other": players["Carl"], "sure": "y"}
    )
    assert same_game.status_code == 422 and "same game" in same_game.text
    merged = client.post(
        f"/players/{players['Anna']}/merge",
        data={"csrf_token": token, "other": players["Ana"], "sure": "y"},
        follow_redirects=True,
    )
    assert "Ana merged into this player." in merged.text
    assert "Anna &amp; Fritz" in client.get(f"/games/{other}").text
    assert client.get(f"/players/{players['Ana']}").status_code == 404
    history = client.get(f"/history?player={players['Anna']}").text
    assert history.count('class="game-title"') == 2


def test_history_filters_pages_and_read_only_games(client):
    ids = [start_game(client, variant="classic-2p", names=["Anna", "Bert"]) for _ in range(22)]
    modern = start_game(client, variant="modern")
    first = client.get("/history").text
    assert first.count('class="game-title"') == 20 and "Older →" in first
    second = client.get("/history?page=2").text
    assert second.count('class="game-title"') == 3 and "← Newer" in second
    assert client.get("/history?variant=modern").text.count('class="game-title"') == 1
    assert client.get(f"/history?from={TODAY}&to={TODAY}").text.count('class="game-title"') == 20
    assert client.get("/history?to=2000-01-01").text.count('class="game-title"') == 0
    bad = client.get("/history?from=yesterday&variant=poker")
    assert bad.status_code == 422 and "YYYY-MM-DD" in bad.text and "Unknown rule set." in bad.text
    # a finished game is read-only until reopened
    game_id = ids[0]
    post_hand(
        client, game_id, side_fields(0, went_out="normal", natural=4, red=4, melded=900), side_fields(1, melded=100)
    )  # 100 + 2000 + 800 + 900 = 3800
    post_hand(
        client, game_id, side_fields(0, went_out="normal", natural=4, red=4, melded=900), side_fields(1, melded=100)
    )
    page = client.get(f"/games/{game_id}").text
    assert "Reopen for corrections" in page and "Edit hand 1" not in page
    api = client.get(f"/api/games/{game_id}").get_json()
    hand_id = api["hands"][0]["id"]
    refused = client.get(f"/games/{game_id}/hands/{hand_id}/edit", follow_redirects=True)
    assert "read-only" in refused.text
    token = csrf_token(client, "/evenings/new")
    assert (
        "read-only"
        in client.post(
            f"/games/{game_id}/hands/{hand_id}/delete", data={"csrf_token": token}, follow_redirects=True
        ).text
    )
    client.post(f"/games/{game_id}/reopen", data={"csrf_token": token})
    assert "Edit hand 1" in client.get(f"/games/{game_id}").text
    assert client.get(f"/games/{game_id}/hands/{hand_id}/edit").status_code == 200
    assert modern and len(ids) == 22


def test_statistics_per_player_and_partnership(client):
    game_id = start_game(client, names=["Anna", "Bert", "Carl", "Dora"])
    # hand 1: A 4000, B 50 (canastas: A 4); hand 2: A melded 300 + natural 500 = 800, B out 100 + mixed 300 + 200 = 600
    post_hand(client, game_id, *win_hand())
    post_hand(
        client, game_id, side_fields(0, natural=1, melded=300), side_fields(1, went_out="normal", mixed=1, melded=200)
    )
    post_hand(client, game_id, *win_hand())  # A 8800, B 700 → A wins by 8100
    stats_page = client.get("/stats").text
    row = re.search(r">Anna</a></td>(.*?)</tr>", stats_page, re.S).group(1)
    cells = re.findall(r'<td class="num">([^<]*)</td>', row)
    # games 1, won 1, 100 %, average hand (4000 + 800 + 4000) / 3 = 2933, best 4000, canastas (4+1+4)/3 = 3.00, margin +8100
    assert cells == ["1", "1", "100%", "2933", "4000", "3.00", "+8100"]
    row = re.search(r">Bert</a></td>(.*?)</tr>", stats_page, re.S).group(1)
    # Bert: 0 won, 0 %, (50 + 600 + 50) / 3 = 233, best 600, canastas 1 / 3 = 0.33, −8100
    assert re.findall(r'<td class="num">([^<]*)</td>', row) == ["1", "0", "0%", "233", "600", "0.33", "-8100"]
    assert (
        '<td>Anna &amp; Carl</td><td class="num">1</td><td class="num">1</td><td class="num">+8100</td>' in stats_page
    )


def test_charts_are_svg(client):
    game_id = start_game(client)
    post_hand(client, game_id, side_fields(0, melded=300), side_fields(1, melded=100))
    post_hand(client, game_id, side_fields(0, melded=200), side_fields(1, melded=150))
    page = client.get(f"/games/{game_id}").text
    lines = re.findall(r'<polyline points="([^"]+)"', page)
    assert len(lines) == 2 and all(len(points.split()) == 3 for points in lines)  # start at 0 + two hands
    assert "target 5000" in page and "<script" not in page.split("</main>")[0]
    player = re.search(r"/players/(\d+)", client.get("/players").text).group(1)
    assert client.get(f"/players/{player}").status_code == 200


def _fill_archive(client):
    """Three evenings, a 2-player game, a 3-player game with a lone player, settings, a deleted hand."""
    e1 = new_evening(client, ["Anna", "Bert", "Carl", "Dora"], when="2026-11-01", place="Anna's")
    g1, _ = game_in_evening(client, e1)
    post_hand(client, g1, *win_hand())
    post_hand(client, g1, side_fields(0, melded=120), side_fields(1, melded_cards={"high": 5, "low": 2}, hand=30))
    e2 = new_evening(client, ["Anna", "Bert"], when="2026-11-08")
    g2, _ = game_in_evening(client, e2, variant="classic-2p", names=["Anna", "Bert"])
    post_hand(client, g2, side_fields(0, went_out="concealed", natural=2, melded=300), side_fields(1, red=1, hand=40))
    token = csrf_token(client, "/evenings/new")
    deleted = client.get(f"/api/games/{g2}").get_json()["hands"][0]["id"]
    client.post(f"/games/{g2}/hands/{deleted}/delete", data={"csrf_token": token})
    e3 = new_evening(client, ["Anna", "Bert", "Carl"], when="2026-11-15", place="Club")
    url = f"/games/new/classic-3p?evening={e3}"
    data = {
        "csrf_token": csrf_token(client, url),
        "first_dealer": "1",
        "evening": str(e3),
        "target": "2000",
        "players-0": "Anna",
        "players-1": "Bert",
        "players-2": "Carl",
        "setting_tie_rule": "draw",
    }
    g3 = int(client.post("/games/new/classic-3p", data=data).headers["Location"].rsplit("/", 1)[1])
    post_hand(
        client,
        g3,
        side_fields(0, went_out="normal", natural=1, melded=200),
        side_fields(1, mixed=1, melded=150, red=1),
        side_fields(2, hand=40, red=2),
        extra={"lone": "0"},
    )


def _without_time(data):
    data = dict(data)
    data.pop("exported_at")
    return data


def test_export_import_round_trip(client, tmp_path):
    _fill_archive(client)
    exported = client.get("/export.json")
    assert exported.headers["Content-Disposition"].startswith("attachment")
    data = json.loads(exported.data)
    assert len(data["evenings"]) == 3 and len(data["games"]) == 3
    assert any(h["deleted_at"] for g in data["games"] for h in g["hands"])  # deleted hands kept too
    fresh = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "DATABASE": str(tmp_path / "fresh.sqlite")}
    ).test_client()
    token = csrf_token(fresh, "/export")
    from io import BytesIO

    response = fresh.post(
        "/import",
        data={"csrf_token": token, "file": (BytesIO(exported.data), "archive.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "Restored 3 games with 4 hands, 3 evenings and 4 players." in response.text
    assert _without_time(json.loads(fresh.get("/export.json").data)) == _without_time(data)
    for game in data["games"]:
        assert fresh.get(f"/api/games/{game['id']}").get_json() == client.get(f"/api/games/{game['id']}").get_json()
    client.get("/stats")  # shows the flash message still waiting from the last save
    assert fresh.get("/stats").text == client.get("/stats").text
    again = fresh.post(
        "/import",
        data={"csrf_token": token, "file": (BytesIO(exported.data), "archive.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "not empty" in again.text


def test_import_refuses_bad_files(client, tmp_path):
    from io import BytesIO

    token = csrf_token(client, "/evenings/new")
    for payload, message in (
        (b"not json", "not a JSON export"),
        (b'{"format": "other"}', "not an export"),
        (b'{"format": "canasta-scorekeeper", "version": 9}', "version 9"),
        (
            b'{"format": "canasta-scorekeeper", "version": 1, "players": [{"id": 1}], "evenings": [], "games": []}',
            "damaged",
        ),
    ):
        response = client.post(
            "/import",
            data={"csrf_token": token, "file": (BytesIO(payload), "x.json")},
            content_type="multipart/form-data",
            follow_redirects=True,
        )
        assert message in response.text, message
    assert "Choose an export file" in client.post("/import", data={"csrf_token": token}, follow_redirects=True).text
    assert client.get("/export").status_code == 200


def test_backup_and_restore_commands(app, client, runner, tmp_path):
    _fill_archive(client)
    path = tmp_path / "backup.json"
    result = runner.invoke(args=["backup", str(path)])
    assert "Wrote 3 games, 3 evenings, 4 players" in result.output
    refused = runner.invoke(args=["restore", str(path)])
    assert refused.exit_code != 0 and "not empty" in refused.output
    replaced = runner.invoke(args=["restore", str(path), "--replace"])
    assert "Restored 3 games with 4 hands" in replaced.output
    again = tmp_path / "again.json"
    runner.invoke(args=["backup", str(again)])
    assert _without_time(json.loads(again.read_text())) == _without_time(json.loads(path.read_text()))


def test_game_csv_and_print_styles(client):
    game_id = start_game(client)
    post_hand(client, game_id, *win_hand())
    text = client.get(f"/games/{game_id}.csv").text.splitlines()
    assert text[0] == "hand,dealer,Anna & Carl hand,Bert & Dora hand,Anna & Carl total,Bert & Dora total"
    assert text[1] == "1,Anna,4000,50,4000,50"
    css = client.get("/static/style.css").text
    assert "@media print" in css and "size: A4" in css
    assert totals(client.get(f"/games/{game_id}").text) == [4000, 50]


def test_unknown_archive_pages_are_404(client):
    for url in (
        "/evenings/9",
        "/evenings/9/edit",
        "/evenings/9.csv",
        "/players/9",
        "/games/9.csv",
        "/games/new?evening=9",
    ):
        assert client.get(url).status_code == 404, url


def test_kept_totals_match_the_results_after_every_kind_of_write(app, client):
    from scorekeeper import db as dbmod

    _fill_archive(client)
    game_id = start_game(client, names=["Ana", "Bert", "Carl", "Dora"])
    post_hand(client, game_id, *win_hand())
    post_hand(client, game_id, *win_hand())
    token = csrf_token(client, "/evenings/new")
    players = {
        name: int(pid)
        for pid, name in re.findall(
            r'href="/players/(\d+)">\s*<span class="game-title">(\w+)', client.get("/players").text
        )
    }
    client.post(f"/games/{game_id}/reopen", data={"csrf_token": token})
    hand_id = client.get(f"/api/games/{game_id}").get_json()["hands"][1]["id"]
    client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"csrf_token": token})
    client.post(f"/players/{players['Anna']}/merge", data={"csrf_token": token, "other": players["Ana"], "sure": "y"})
    client.post(f"/players/{players['Carl']}/rename", data={"csrf_token": token, "name": "Karl"})
    with app.app_context():
        db = dbmod.open_db(app.config["DATABASE"])
        kept = {r["player_id"]: r for r in db.query("select * from player_totals where games > 0")}
        fresh = {
            r["player_id"]: r
            for r in db.query(
                "select player_id, count(*) as games, sum(finished) as finished, sum(won) as won, sum(hands) as hands, "
                "sum(points) as points, max(best_hand) as best_hand, sum(canastas) as canastas, sum(margin) as margin "
                "from player_results group by player_id"
            )
        }
        assert kept == fresh
        pairs = {
            (r["a"], r["b"]): (r["games"], r["won"], r["margin"])
            for r in db.query("select * from pair_totals where games > 0")
        }
        recomputed = {
            (r["a"], r["b"]): (r["games"], r["won"], r["margin"])
            for r in db.query(
                "select x.player_id as a, y.player_id as b, count(*) as games, sum(x.won) as won, sum(x.margin) as margin "
                "from player_results x join player_results y on x.game_id = y.game_id and x.side = y.side "
                "and x.player_id < y.player_id group by x.player_id, y.player_id"
            )
        }
        assert pairs == recomputed
