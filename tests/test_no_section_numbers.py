"""Players' pages cite no section numbers: the rules are explained in the app's own words (and on its
rules pages), never by pointing into the scoring specification. Every page, in every language."""

import re

import pytest
from markupsafe import escape

from scorekeeper.core import variants
from scorekeeper.web import i18n
from tests.conftest import csrf_token
from tests.helpers import fill_archive, new_evening, post_hand, side_fields, start_game

OUTSIDE = "shared" + "/"  # a path into the folder outside the repository (two pieces: a grep finds no path)
NAMES = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fritz"]


def _complete_game(client):
    """An Austrian complete Game of three Partien, the first won: returns the match page's address."""
    url = "/games/new/austrian"
    data = {
        "csrf_token": csrf_token(client, url),
        "first_dealer": "0",
        "complete_game": "y",
        "layout": "4",
        "target": "1000",
        **{f"players-{i}": name for i, name in enumerate(NAMES[:4])},
    }
    response = client.post(url, data=data)
    assert response.status_code == 302, response.text
    first = int(response.headers["Location"].split("/")[-1])
    post_hand(client, first, side_fields(0, went_out="normal", natural=1, melded=400), side_fields(1, melded=50))
    match = re.search(r'href="(/matches/\d+)"', client.get(f"/games/{first}").text)
    assert match, "no link to the complete Game"
    return match.group(1)


def _pages(client):
    """Every page a player can open, with a small archive behind them."""
    fill_archive(client)
    pages = ["/", "/games/new", "/evenings", "/evenings/new", "/history", "/stats", "/players", "/export", "/offline"]
    for variant in variants.RULE_SETS:
        pages += [f"/rules/{variant}", f"/games/new/{variant}"]
        rules = variants.get(variant)
        game_id = start_game(client, variant=variant, names=NAMES[: rules.players])
        pages += [f"/games/{game_id}/hands/new"]
    game_id = start_game(client)
    post_hand(client, game_id, side_fields(0, went_out="normal", natural=1, melded=400), side_fields(1, melded=50))
    hand_id = client.get(f"/api/games/{game_id}").get_json()["hands"][0]["id"]
    pages += [f"/games/{game_id}", f"/games/{game_id}/minimums", f"/games/{game_id}/hands/{hand_id}/edit"]
    evening = new_evening(client, NAMES[:4])
    pages += [f"/evenings/{evening}", f"/games/new/classic?evening={evening}", f"/games/new?evening={evening}"]
    pages.append(_complete_game(client))
    player = re.search(r'href="(/players/\d+)"', client.get("/players").text)
    pages.append(player.group(1))
    return pages


@pytest.mark.slow  # a sweep over every case: run by CI, left out of the quick loop
@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_no_page_cites_a_section_number(client, language):
    pages = _pages(client)
    client.get(f"/prefs?lang={language}&next=/")
    cited = []
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        text = response.get_data(as_text=True)
        assert f'<html lang="{language}"' in text, url
        if "§" in text or "scoring spec" in text or OUTSIDE in text:
            cited.append(url)
    assert cited == [], f"{language}: pages citing the specification: {cited}"


def test_the_rules_page_has_an_anchor_per_section(client):
    for variant in variants.RULE_SETS:
        page = client.get(f"/rules/{variant}").text
        for anchor in ("card-values", "canastas", "threes", "going-out", "penalties", "opening", "end", "house-rules"):
            assert f'id="{anchor}"' in page, f"{variant}: no #{anchor}"


def test_the_new_game_form_links_the_house_rules_explained(client):
    for variant in variants.RULE_SETS:
        page = client.get(f"/games/new/{variant}").text
        assert f'href="/rules/{variant}#house-rules"' in page
        for setting in variants.get(variant).settings:
            legend = re.search(rf"<legend>{re.escape(str(escape(setting.label)))}</legend>", page)
            assert legend, f"{variant}: {setting.key} shown without its plain label"
