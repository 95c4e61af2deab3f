"""A result as a picture (PNG, about 1080 px wide): a finished game's, an evening's, a closed tournament's.

The names cannot be read back from the pixels, so the layout the picture is drawn from is tested
(core/pictures.py: every text it draws), and the PNG answers for what a PNG must be."""

from __future__ import annotations

import io
import re
import struct

from PIL import Image

from scorekeeper.core import pictures
from scorekeeper.web import pictures as drawn
from tests.conftest import csrf_token, make_app
from tests.helpers import post_hand, quick_hash, start_game, win_hand
from tests.test_tournaments import act, small_hand, started, table_game

PNG = b"\x89PNG\r\n\x1a\n"


def _texts(layout: pictures.Layout) -> list[str]:
    """Every text drawn, top to bottom as laid out."""
    return [item.text for item in layout.items if isinstance(item, pictures.Text)]


def _size(data: bytes) -> tuple[int, int]:
    """Width and height from the PNG's IHDR chunk."""
    assert data[:8] == PNG and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _finished_game(client, names=("Anna", "Ben", "Cleo", "Dirk")) -> int:
    game_id = start_game(client, names=list(names))
    post_hand(client, game_id, *win_hand())
    post_hand(client, game_id, *win_hand())
    return game_id


def _width(text, size, bold):
    """A font-free measure: every character 0.6 of the size (0.65 bold)."""
    return len(text) * size * (0.65 if bold else 0.6)


def test_a_finished_games_picture_is_a_png_about_1080_wide(client):
    game_id = _finished_game(client)
    response = client.get(f"/games/{game_id}/result.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    width, height = _size(response.data)
    assert width == 1080 and 900 < height < 2400
    assert "no-store" in response.headers["Cache-Control"]
    assert Image.open(io.BytesIO(response.data)).size == (width, height)


def test_two_games_give_two_pictures(client):
    one = client.get(f"/games/{_finished_game(client)}/result.png").data
    two = client.get(f"/games/{_finished_game(client, ('Ella', 'Finn', 'Gina', 'Hugo'))}/result.png").data
    assert one != two


def test_the_games_layout_says_who_played_and_won_with_the_totals(app, client):
    game_id = _finished_game(client)
    with app.test_request_context():
        result = drawn.game_result(game_id)
    texts = _texts(pictures.layout(result, _width))
    assert "Anna & Cleo – Ben & Dirk" in texts
    assert any("Anna & Cleo win" in t for t in texts)
    assert "8000" in texts and "100" in texts  # the totals
    assert "Running totals" in texts and "target 5000" in texts
    assert result.series == [[4000, 8000], [50, 100]]
    assert [row.winner for row in result.rows] == [True, False]


def test_a_long_name_is_cut_short_within_the_picture():
    long = "Maximiliane Wilhelmina von und zu Hohenzollern-Sigmaringen " * 3
    result = pictures.Result("Title", "", "", "Totals", [pictures.Row("1", long, "12345", winner=True)])
    picture = pictures.layout(result, _width)
    name = [item for item in picture.items if isinstance(item, pictures.Text) and item.text.startswith("Maxi")][0]
    assert name.text.endswith("…") and name.x + _width(name.text, name.size, name.bold) < picture.width - 64
    for item in picture.items:
        if isinstance(item, pictures.Text) and item.anchor == "left":
            assert item.x + _width(item.text, item.size, item.bold) <= picture.width


def test_a_game_in_play_has_no_picture_yet_and_an_unknown_one_none(client):
    game_id = start_game(client)
    post_hand(client, game_id, *win_hand())
    response = client.get(f"/games/{game_id}/result.png")
    assert response.status_code == 409 and "not finished yet" in response.text
    assert client.get("/games/999/result.png").status_code == 404
    assert client.get("/evenings/999/result.png").status_code == 404
    assert client.get("/tournaments/999/result.png").status_code == 404


def _evening(client, names=("Anna", "Ben", "Cleo", "Dirk")) -> int:
    data = {
        "csrf_token": csrf_token(client, "/evenings/new"),
        "date": "2026-11-27",
        "place": "Kitchen",
        "note": "",
        "new_players": ", ".join(names),
    }
    response = client.post("/evenings/new", data=data)
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_an_evenings_picture_after_its_first_finished_game(app, client):
    evening_id = _evening(client)
    assert client.get(f"/evenings/{evening_id}/result.png").status_code == 409
    url = "/games/new/classic"
    data = {"csrf_token": csrf_token(client, url), "first_dealer": "0", "evening": str(evening_id)}
    data.update({f"players-{n}": name for n, name in enumerate(["Anna", "Ben", "Cleo", "Dirk"])})
    game_id = int(client.post(url, data=data).headers["Location"].rsplit("/", 1)[1])
    post_hand(client, game_id, *win_hand())
    post_hand(client, game_id, *win_hand())
    response = client.get(f"/evenings/{evening_id}/result.png")
    assert response.status_code == 200 and _size(response.data)[0] == 1080
    with app.test_request_context():
        texts = _texts(pictures.layout(drawn.evening_result(evening_id), _width))
    assert "Evening: 2026-11-27" in texts and "Kitchen" in texts and "Standings" in texts
    assert {"Anna", "Ben", "Cleo", "Dirk"} <= set(texts)
    assert any(t.startswith("Best of the evening: Anna & Cleo") for t in texts)
    # a loss is written with a minus sign, as on the pages ("−5140", not "-5140")
    assert any(t.startswith("\u2212") for t in texts) and not any(re.fullmatch(r"-\d+", t) for t in texts), texts


def test_a_tournaments_picture_once_it_is_closed(app, client):
    tid = started(client, format="mitchell", entrants="Ann & Bob\nCid & Dee", round_end="hands", round_hands="1")
    post_hand(client, table_game(client, tid, 1), *small_hand())
    assert client.get(f"/tournaments/{tid}/result.png").status_code == 409
    assert act(client, tid, "/close").status_code == 302
    response = client.get(f"/tournaments/{tid}/result.png")
    assert response.status_code == 200 and _size(response.data)[0] == 1080
    with app.test_request_context():
        result = drawn.tournament_result(tid)
    texts = _texts(pictures.layout(result, _width))
    assert "Club night" in texts and "Standings" in texts
    assert [(row.place, row.winner) for row in result.rows] == [("1", True), ("2", False)]
    assert {row.name for row in result.rows} == {"Ann & Bob", "Cid & Dee"}
    assert any(t.startswith("Winner: ") for t in texts)


def test_the_pages_offer_the_picture_to_share(client):
    game_id = _finished_game(client)
    page = client.get(f"/games/{game_id}").text
    assert f'href="/games/{game_id}/result.png"' in page and "share-picture" in page
    in_play = start_game(client)
    assert "share-picture" not in client.get(f"/games/{in_play}").text


def test_without_the_font_files_pillows_own_font_draws_it(monkeypatch, client):
    monkeypatch.setattr(drawn, "FONT_FOLDERS", ())
    drawn.font.cache_clear()
    try:
        data = client.get(f"/games/{_finished_game(client)}/result.png").data
        assert _size(data)[0] == 1080
        assert drawn.score_text(-5140) == "-5140"  # its font has no "−": a hyphen, not a box
    finally:
        drawn.font.cache_clear()


def test_a_locked_phone_is_sent_to_the_password_for_a_picture(tmp_path):
    """The pictures show names: behind the password like the pages they come from."""
    app = make_app(
        {
            "TESTING": True,
            "SECRET_KEY": "lock",
            "DATABASE": str(tmp_path / "lock.sqlite"),
            "PASSWORD_HASH": quick_hash("karo sieben"),
        }
    )
    owner = app.test_client()
    owner.post("/login", data={"csrf_token": csrf_token(owner, "/login"), "password": "karo sieben"})
    game_id = _finished_game(owner)
    assert owner.get(f"/games/{game_id}/result.png").status_code == 200
    stranger = app.test_client()
    for url in (f"/games/{game_id}/result.png", "/evenings/1/result.png", "/tournaments/1/result.png"):
        response = stranger.get(url)
        assert response.status_code == 302 and "/login" in response.headers["Location"], url
        assert not response.data.startswith(PNG)


def test_the_targets_label_stands_clear_of_the_charts_edge_and_the_leaders_line():
    # a game won just past the target: the winner's line ends above it at the right, near the top edge
    rows = [pictures.Row("1", "Anna & Clara", "5100", winner=True), pictures.Row("2", "Bernd & Dieter", "3700")]
    series = [[1255, 1510, 2625, 3100, 5100], [60, 1330, 1485, 3170, 3700]]
    result = pictures.Result("Classic", "", "", "Totals", rows, series, 5000, "Running totals", "hands", "target 5000")
    picture = pictures.layout(result, _width)
    label = next(item for item in picture.items if isinstance(item, pictures.Text) and item.text == "target 5000")
    frame = next(item for item in picture.items if isinstance(item, pictures.Box) and item.fill == "#ffffff")
    left, top, right, _ = frame.box
    dashes = [item for item in picture.items if isinstance(item, pictures.Stroke) and item.width == 3]
    line_y = dashes[0].points[0][1]
    label_box = (label.x, label.y, label.x + _width(label.text, label.size, label.bold), label.y + label.size * 1.2)
    assert label_box[1] > line_y + 3 and label_box[1] > top  # under the dashed line, inside the chart
    assert left < label_box[0] and label_box[2] < right
    for stroke in picture.items:  # no line of a side passes through the label
        if isinstance(stroke, pictures.Stroke) and stroke.width == 6:
            for (x1, y1), (x2, y2) in zip(stroke.points, stroke.points[1:]):
                for step in range(101):
                    x, y = x1 + (x2 - x1) * step / 100, y1 + (y2 - y1) * step / 100
                    inside = label_box[0] <= x <= label_box[2] and label_box[1] <= y <= label_box[3]
                    assert not inside, (x, y, label_box)
