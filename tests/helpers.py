"""Helpers that fill in the forms the way a browser sends them."""

import contextlib
import re
import threading

import waitress
from werkzeug.security import generate_password_hash

from scorekeeper.core import clock
from scorekeeper.server import head_checks
from scorekeeper.storage import restore, transaction
from scorekeeper.web import limits
from tests.conftest import csrf_token

NAMES4 = ["Anna", "Bert", "Carl", "Dora"]


def quick_hash(password):
    """A password hash the app checks like any other (werkzeug's own format), in a millisecond:
    werkzeug's default, scrypt, takes a tenth of a second of CPU to make and each time it is checked.
    These tests ask who gets in, not how hard a stolen hash is to crack; tests/test_password_race.py
    keeps the slow default, as its race needs a check that takes a while."""
    return generate_password_hash(password, method="pbkdf2:sha256:1000")


def start_game(client, variant="classic", names=NAMES4, first_dealer=0, layout=None, settings=None, target=None):
    """Start a game through the New game form; return its id."""
    url = f"/games/new/{variant}"
    data = {"csrf_token": csrf_token(client, url), "first_dealer": str(first_dealer)}
    if layout:
        data["layout"] = layout
    for key, value in (settings or {}).items():
        data[f"setting_{key}"] = str(value)
    if target:
        data["target"] = str(target)
    for i, name in enumerate(names):
        data[f"players-{i}"] = name
    response = client.post(url, data=data)
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rstrip("/").split("/")[-1])


def side_fields(
    index,
    went_out="no",
    natural=0,
    mixed=0,
    red=0,
    melded=None,
    hand=None,
    melded_cards=None,
    hand_cards=None,
    penalties=0,
    **more,
):
    """Form fields of one side, as the hand form posts them (``more``: other fields by name)."""
    prefix = f"sides-{index}-"
    fields = {
        **more,
        "went_out": went_out,
        "natural_canastas": natural,
        "mixed_canastas": mixed,
        "red_threes": red,
        "penalties": penalties,
    }
    for part, points, cards in (("melded", melded, melded_cards), ("hand", hand, hand_cards)):
        if cards is not None:
            fields[f"{part}_mode"] = "counts"
            for key, count in cards.items():
                fields[f"{part}_{key}"] = count
        else:
            fields[f"{part}_mode"] = "points"
            fields[f"{part}_points"] = "" if points is None else points
    return {prefix + key: str(value) for key, value in fields.items()}


def post_hand(client, game_id, *sides, url=None, extra=None):
    """Post a hand (new, or to ``url`` for an edit) with a fresh CSRF token.

    When no side went out, the hand ended with the stock running out (ticked unless ``extra`` says)."""
    url = url or f"/games/{game_id}/hands/new"
    data = {"csrf_token": csrf_token(client, url)}
    for side in sides:
        data.update(side)
    data = as_the_form_posts(data, extra or {})
    data.update(extra or {})
    return client.post(url, data=data)


def as_the_form_posts(data, extra):
    """Each side's fields as the hand form posts them: who went out and how, once for the hand
    (``out``, ``how``), and points or card counts once for every side (``mode``). A hand the form
    cannot express (two sides out, mixed ways of counting, a "stock ran out" given by the test) is
    posted as an older page posted it, each side with its own fields."""
    data = dict(data)
    outs = [(k, v) for k, v in data.items() if k.endswith("-went_out") and v != "no"]
    if len(outs) == 1 and "stock_out" not in extra:
        key, how = outs[0]
        data = {k: v for k, v in data.items() if not k.endswith("-went_out")}
        data["out"], data["how"] = key.split("-")[1], how
    elif not outs and "stock_out" not in extra:
        data = {k: v for k, v in data.items() if not k.endswith("-went_out")}
        data["out"] = "stock"
    elif not outs:
        data["stock_out"] = "y"
    modes = {v for k, v in data.items() if k.endswith("_mode") and k.startswith("sides-")}
    if len(modes) == 1:
        data = {k: v for k, v in data.items() if not (k.endswith("_mode") and k.startswith("sides-"))}
        data["mode"] = modes.pop()
    return data


def totals(page_text):
    """The big totals on the scoreboard, as integers."""
    found = re.findall(r'<p class="total" data-side="\d">([-\u2212]?\d+)</p>', page_text)
    return [int(t.replace("\u2212", "-")) for t in found]  # a real minus sign, as the page writes it


def minimums(page_text):
    """The opening minimums shown on the scoreboard."""
    return [int(m) for m in re.findall(r"Opening meld <strong>(\d+)</strong>", page_text)]


def new_evening(client, names, when=None, place=""):
    """Start an evening (on tonight's date as the app counts it, past midnight too, unless ``when``)
    through its form; return its id."""
    data = {
        "csrf_token": csrf_token(client, "/evenings/new"),
        "date": when or clock.today(),
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
    (1150 card points in all: the deck holds 1180, docs/rules.md#classic › Card values)."""
    return side_fields(0, went_out="normal", natural=4, red=4, melded=1100), side_fields(1, melded=50)


def fill_archive(client):
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


@contextlib.contextmanager
def served(app, threads=8):
    """The app on the real production server (waitress, ``threads`` threads, its body limit as
    ``python -m scorekeeper`` sets it) on a free port of
    127.0.0.1, for tests that need real HTTP and real concurrency; yields the port."""
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads, **limits.waitress_options(app))
    head_checks.use_on(server, app)  # as python -m scorekeeper: refusals from the head, before the body
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield server.effective_port
    finally:
        # the requests in flight end first: a task thread ending later would touch a closed trigger,
        # or a file descriptor the next test's server has opened under the same number
        server.task_dispatcher.shutdown()
        try:
            server.trigger.pull_trigger(server.close)  # closed by the server's own loop, which then ends
        except OSError:  # the loop has ended already and closed its trigger: close the rest here
            server.close()
        thread.join(timeout=5)


def complete_game(client) -> int:
    """A complete Game of the Austrian rulebook to 1000, as docs/api.md's example of GET /api/matches/<id>
    plays it: Partie 1 and 2 won, Partie 3 started; the id of its first Partie."""
    url = "/games/new/austrian"
    data = {
        "csrf_token": csrf_token(client, url),
        "layout": "4",
        "first_dealer": "0",
        "target": "1000",
        "complete_game": "y",
    }
    data |= {f"players-{i}": name for i, name in enumerate(["Nord", "Ost", "Sued", "West"])}
    response = client.post(url, data=data)
    assert response.status_code == 302
    first = int(response.headers["Location"].rsplit("/", 1)[1])
    post_hand(client, first, side_fields(0, went_out="normal", natural=1, melded=400), side_fields(1, melded=50))
    token = csrf_token(client, f"/games/{first}")
    second = int(client.post(f"/matches/{first}/next", data={"csrf_token": token}).headers["Location"].split("/")[-1])
    post_hand(client, second, side_fields(0, melded=200), side_fields(1, went_out="normal", mixed=1, melded=600))
    client.post(f"/matches/{first}/next", data={"csrf_token": token})
    return first


def new_game(db, variant="classic", players=("Anna", "Bert", "Carl", "Dora"), first_dealer=0, **options) -> int:
    """A game started through the service, the one write path (``options``: the service's); its id."""
    from scorekeeper.services import games as game_service

    verdict = game_service.create_game(db, variant, list(players), first_dealer, **options)
    assert verdict.ok, verdict
    return verdict.id


def saved_hand(db, game_id, sides, stock_out=False, lone=None, **options) -> int:
    """A hand added through the service (stored once for a key sent again); its id."""
    from scorekeeper.services import games as game_service

    verdict = game_service.add_hand(db, game_id, sides, stock_out, lone, **options)
    assert verdict.ok, verdict
    return verdict.id


def wipe(db):
    """Delete everything in the archive, the kept statistics included (the schema stays)."""
    with transaction.write(db):
        restore.clear(db)
