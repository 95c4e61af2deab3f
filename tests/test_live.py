"""Several phones on one game: the version they poll, and the QR code that opens the game."""

import re

from scorekeeper import share
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
    assert share.reachable_url("http://127.0.0.1:8000/games/3", ("192.0.2.7",)) == "http://192.0.2.7:8000/games/3"
    assert share.reachable_url("http://localhost/games/3", ("192.0.2.7",)) == "http://192.0.2.7/games/3"
    assert share.reachable_url("http://10.1.1.5:8000/games/3", ("192.0.2.7",)) == "http://10.1.1.5:8000/games/3"
    assert share.reachable_url("http://127.0.0.1:8000/games/3", ()) == "http://127.0.0.1:8000/games/3"


def test_a_hand_sent_twice_is_stored_once(client):
    from tests.conftest import csrf_token

    game_id = start_game(client)
    page = client.get(f"/games/{game_id}/hands/new").text
    key = re.search(r'name="client_key" id="client_key" value="([0-9a-f]{32})"', page).group(1)
    fields = {**side_fields(0, melded=100), **side_fields(1, melded=60), "stock_out": "y", "client_key": key}
    for _ in range(2):  # a double tap, or the browser resending the form
        fields["csrf_token"] = csrf_token(client, f"/games/{game_id}/hands/new")
        response = client.post(f"/games/{game_id}/hands/new", data=fields, follow_redirects=True)
    assert "already saved" in response.text
    assert len(client.get(f"/api/games/{game_id}").get_json()["hands"]) == 1


def test_queued_hand_json_is_stored_once_and_checked(client):
    from tests.conftest import csrf_token

    game_id = start_game(client)
    token = csrf_token(client, f"/games/{game_id}/hands/new")
    url = f"/games/{game_id}/hands.json"
    body = {"client_key": "k" * 20, "stock_out": True, "sides": [{"melded_points": 100}, {"melded_points": 60}]}
    assert client.post(url, json=body).status_code == 400  # no CSRF token: refused like a form
    headers = {"X-CSRFToken": token}
    first = client.post(url, json=body, headers=headers)
    again = client.post(url, json=body, headers=headers)
    assert first.status_code == 201 and again.status_code == 200
    assert first.get_json()["id"] == again.get_json()["id"] and again.get_json()["duplicate"] is True
    assert client.get(f"/api/games/{game_id}").get_json()["totals"] == [100, 60]
    bad = client.post(url, json={**body, "client_key": "x" * 20, "sides": [{"melded_points": 12}, {}]}, headers=headers)
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "melded_points"
    assert client.post(url, json={**body, "client_key": "short"}, headers=headers).status_code == 422
    assert client.post(url, data="[]", content_type="application/json", headers=headers).status_code == 400
    assert client.post("/games/999/hands.json", json=body, headers=headers).status_code == 404


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
