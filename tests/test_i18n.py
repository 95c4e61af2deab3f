"""Four languages: every message of the app has a translation in each catalogue, and the pages
speak the reader's language (picked from the browser, switchable on every page, remembered)."""

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorekeeper.web import i18n
from tests.helpers import post_hand, side_fields, start_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def template_ids(tmp_path_factory):
    """Every message the code and templates ask for, extracted as pybabel does."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            str(ROOT / "babel.cfg"),
            "-k",
            "_l",
            "-k",
            "N_",
            "-o",
            str(pot),
            str(ROOT),
        ],
        check=True,
        cwd=ROOT,
        capture_output=True,
    )
    with pot.open("rb") as src:
        return {m.id for m in read_po(src) if m.id}


@pytest.mark.parametrize("language", [code for code in i18n.LANGUAGES if code != "en"])
def test_every_message_is_translated(template_ids, language):
    path = ROOT / "scorekeeper" / "web" / "translations" / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as src:
        catalog = read_po(src)
    missing = []
    for message_id in sorted(template_ids, key=str):
        message = catalog.get(message_id)
        strings = message.string if message else None
        if not message or not strings or (isinstance(strings, tuple) and not all(strings)) or message.fuzzy:
            missing.append(message_id)
    assert missing == [], f"{language}: {len(missing)} messages without a translation, e.g. {missing[:5]}"


@pytest.mark.parametrize("language", [code for code in i18n.LANGUAGES if code != "en"])
def test_no_message_is_translated_twice(language):
    """A message given twice in a catalogue is an error to gettext's own tools (msgfmt -c), and Babel
    quietly takes the last: the Italian grid said "concluso" where its first entry said "finito"."""
    path = ROOT / "scorekeeper" / "web" / "translations" / language / "LC_MESSAGES" / "messages.po"
    seen, twice = set(), []
    for entry in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in entry.splitlines() if line and not line.startswith("#")]
        ends = next((i for i, line in enumerate(lines) if line.startswith("msgstr")), len(lines))
        message = "\n".join(lines[:ends])  # msgctxt and msgid, with their lines that go on
        if message in seen:
            twice.append(message)
        if message not in ("", 'msgid ""'):  # the catalogue's header
            seen.add(message)
    assert twice == [], twice


def test_language_from_the_browser_switchable_and_remembered(client):
    game_id = start_game(client)
    german = client.get(f"/games/{game_id}/hands/new", headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"}).text
    assert '<html lang="de"' in german and "Ausmachen" in german
    italian = client.get("/", headers={"Accept-Language": "it"}).text
    assert '<html lang="it"' in italian
    client.get("/prefs?lang=et&next=/")
    estonian = client.get(f"/games/{game_id}/hands/new", headers={"Accept-Language": "de"}).text
    assert '<html lang="et"' in estonian and "lõpeta" in estonian.lower()
    client.get("/prefs?lang=en&next=/")
    assert '<html lang="en"' in client.get("/", headers={"Accept-Language": "de"}).text


def test_checks_and_breakdown_speak_german(client):
    game_id = start_game(client)
    client.get("/prefs?lang=de&next=/")
    response = post_hand(client, game_id, side_fields(0, went_out="normal", melded=12), side_fields(1))
    assert response.status_code == 422
    assert "12" in response.text and "Points are always a multiple of 5" not in response.text
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=1, red=2, melded=200), side_fields(1))
    page = client.get(f"/games/{game_id}").text
    assert "Going out" not in page and "Melded cards" not in page


def test_a_typo_in_a_hand_field_is_told_in_the_readers_language(client):
    game_id = start_game(client)
    client.get(f"/prefs?lang=de&next=/games/{game_id}")
    response = post_hand(client, game_id, side_fields(0, melded="1.000"), side_fields(1, melded="abc"))
    assert response.status_code == 422
    assert "Not a valid integer value" not in response.text
    assert response.text.count("Gib eine ganze Zahl ein") + response.text.count("ganze Zahl") >= 2
    assert 'value="1.000"' in response.text and 'value="abc"' in response.text


# --- the Austrian rule books' words in English -----------------------------------------------------


def _visible_text(page):
    """The page's text as read: no tags, no script or style, entities resolved."""
    import html
    import re

    page = re.sub(r"<(script|style|title)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("variant", ["vienna", "austrian"])
def test_english_pages_give_an_english_term_with_the_rule_books_word_in_brackets(client, variant):
    import re

    game_id = start_game(client, variant=variant)
    pages = {
        "reference": client.get(f"/rules/{variant}").text,
        "new game": client.get(f"/games/new/{variant}").text,
        "hand form": client.get(f"/games/{game_id}/hands/new").text,
    }
    for name, page in pages.items():
        text = _visible_text(page)
        assert "ausmachen" in text.lower(), name  # the word the players know is still there...
        unbracketed = re.sub(r"\([^()]*\)", "", text)
        assert "ausmachen" not in unbracketed.lower(), (name, re.findall(r".{30}ausmachen.{10}", unbracketed, re.I))
    hand_form = _visible_text(pages["hand form"])
    assert "Went out (Ausmachen)" in hand_form
    # ...and the German pages keep the rule book's words alone
    client.get("/prefs?lang=de&next=/")
    german = _visible_text(client.get(f"/games/{game_id}/hands/new").text)
    assert "Ausmachen" in german and "(Ausmachen)" not in german
    assert ("Verdeckt Ausmachen" if variant == "vienna" else "Glatt ausmachen") in german
    assert "partner" not in german.lower()


@pytest.mark.parametrize(
    "language, term",
    [
        ("en", "Canasta in hand (Hand-Canasta)"),
        ("it", "Canasta in mano (Hand-Canasta)"),
        ("et", "Canasta käes (Hand-Canasta)"),
        ("de", "Hand-Canasta"),
    ],
)
@pytest.mark.parametrize("variant", ["vienna", "austrian"])
def test_hand_canasta_is_said_in_the_readers_words_with_the_rule_books_word_in_brackets(
    client, variant, language, term
):
    import re

    game_id = start_game(client, variant=variant)
    client.get(f"/prefs?lang={language}&next=/")
    for path in (f"/rules/{variant}", f"/games/new/{variant}", f"/games/{game_id}/hands/new", f"/games/{game_id}"):
        text = _visible_text(client.get(path).text)
        assert "Hand-Canasta" in text, path
        unbracketed = re.sub(r"\([^()]*\)", "", text)
        if language == "de":
            assert "(Hand-Canasta)" not in text, path  # the German pages keep the rule book's word alone
        else:
            assert "Hand-Canasta" not in unbracketed, (path, re.findall(r".{30}Hand-Canasta.{10}", unbracketed))
    assert term in _visible_text(client.get(f"/games/{game_id}/hands/new").text)


# --- a count and its noun in each language's plural forms ("1 evening", never "1 evenings") ------------


@pytest.mark.parametrize(
    "language, expected",
    [
        ("en", "Restored 1 game with 1 hand, 1 evening and 2 players."),
        ("de", "Wiederhergestellt: 1 Spiel, 1 Runde, 1 Spielabend und 2 Spieler."),
        ("it", "Ripristinati: 1 partita, 1 mano, 1 serata e 2 giocatori."),
        ("et", "Taastatud: 1 mäng, 1 raund, 1 õhtu ja 2 mängijat."),
    ],
)
def test_a_restore_counts_one_evening_as_one(client, tmp_path, language, expected):
    import io
    import re

    from tests.conftest import csrf_token, make_app
    from tests.helpers import game_in_evening, new_evening

    evening = new_evening(client, ["Anna", "Bert"])
    game_id, _ = game_in_evening(client, evening, variant="classic-2p")
    post_hand(client, game_id, side_fields(0, melded=100), side_fields(1, melded=50))
    exported = client.get("/export.json").data
    fresh = make_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "fresh.sqlite")}).test_client()
    fresh.get(f"/prefs?lang={language}&next=/")
    response = fresh.post(
        "/import",
        data={"csrf_token": csrf_token(fresh, "/export"), "file": (io.BytesIO(exported), "a.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    flash = re.search(r'<div class="flash" role="status">\s*<span>(.*?)</span>', response.text, re.S).group(1)
    assert " ".join(flash.split()) == expected


@pytest.mark.parametrize(("language", "written"), [("en", "0.33"), ("de", "0,33"), ("it", "0,33"), ("et", "0,33")])
def test_a_figure_with_decimals_is_written_with_the_readers_decimal_sign(client, language, written):
    """Three hands, one natural canasta for Anna & Carl in the first (docs/rules.md#classic › Canastas:
    500; the stock ran out each time): 1 canasta in 3 hands, 0.33 a hand, written "0,33" in German,
    Italian and Estonian (a languages review found "1.12" on their statistics and players' pages)."""
    game_id = start_game(client)
    for canastas in (1, 0, 0):
        sides = side_fields(0, natural=canastas, melded=150), side_fields(1, melded=130)
        assert post_hand(client, game_id, *sides).status_code == 302
    client.get(f"/prefs?lang={language}&next=/")
    stats = client.get("/stats").text
    anna = re.search(r'href="(/players/\d+)">Anna<', stats).group(1)
    for page in (stats, client.get(anna).text):
        assert f">{written}<" in page and (language == "en" or ">0.33<" not in page), language
