"""Several phones on one game: the version they poll, and the QR code that opens the game."""

import re

from scorekeeper.network import addresses
from tests.helpers import post_hand, side_fields, start_game


def test_every_change_raises_the_version(client):
    game_id = start_game(client)
    url = f"/api/games/{game_id}/version"
    first = client.get(url)
    assert first.headers["Cache-Control"] == "no-store"
    versions = [first.get_json()["version"]]
    post_hand(client, game_id, side_fields(0, melded=100), side_fields(1, melded=60))
    versions.append(client.get(url).get_json()["version"])
    hand_id = client.get(f"/api/games/{game_id}").get_json()["hands"][0]["id"]
    post_hand(
        client,
        game_id,
        side_fields(0, melded=120),
        side_fields(1, melded=60),
        url=f"/games/{game_id}/hands/{hand_id}/edit",
    )
    versions.append(client.get(url).get_json()["version"])
    assert versions[0] < versions[1] < versions[2]
    assert client.get("/api/games/999/version").status_code == 404
    page = client.get(f"/games/{game_id}").text
    assert f'data-live-version="{versions[2]}"' in page and "/static/live.js" in page


def test_scoreboard_shows_a_qr_code_for_the_game(client):
    game_id = start_game(client)
    page = client.get(f"/games/{game_id}", base_url="http://192.168.1.20:8000").text
    assert re.search(r'<svg[^>]*class="qr"', page)
    assert f"http://192.168.1.20:8000/games/{game_id}" in page


def test_a_loopback_address_is_replaced_by_the_lan_address():
    assert addresses.reachable_url("http://127.0.0.1:8000/games/3", ("192.0.2.7",)) == "http://192.0.2.7:8000/games/3"
    assert addresses.reachable_url("http://localhost/games/3", ("192.0.2.7",)) == "http://192.0.2.7/games/3"
    assert addresses.reachable_url("http://10.1.1.5:8000/games/3", ("192.0.2.7",)) == "http://10.1.1.5:8000/games/3"
    assert addresses.reachable_url("http://127.0.0.1:8000/games/3", ()) == "http://127.0.0.1:8000/games/3"


def test_installable_app_files(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest.get_json()["start_url"] == "/"
    assert {icon["sizes"] for icon in manifest.get_json()["icons"]} == {"any", "192x192", "512x512"}
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and "text/javascript" in worker.headers["Content-Type"]
    for path in re.findall(r'"(/[^"]*)"', worker.text.split("];")[0]):
        assert client.get(path).status_code == 200, path  # everything the shell caches exists
    assert "cannot be reached" in client.get("/offline").text


def test_large_type_is_remembered(client):
    response = client.get("/prefs?large=1&next=/history")
    assert response.status_code == 302 and response.headers["Location"] == "/history"
    assert '<html lang="en" class="large">' in client.get("/").text
    client.get("/prefs?large=0&next=//evil.example")
    assert '<html lang="en">' in client.get("/").text
    assert client.get("/prefs?large=1&next=https://evil.example").headers["Location"] == "/"
