"""Players' pages cite no section numbers: the rules are explained in the app's own words (and on its
rules pages), never by pointing into the scoring specification. Every page, in every language."""

import re
from pathlib import Path

import pytest
from markupsafe import escape

from scorekeeper.core import rulesets
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
    for variant in rulesets.RULE_SETS:
        pages += [f"/rules/{variant}", f"/games/new/{variant}"]
        rules = rulesets.get(variant)
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
    for variant in rulesets.RULE_SETS:
        page = client.get(f"/rules/{variant}").text
        for anchor in ("card-values", "canastas", "threes", "going-out", "penalties", "opening", "end", "house-rules"):
            assert f'id="{anchor}"' in page, f"{variant}: no #{anchor}"


def test_the_new_game_form_links_the_house_rules_explained(client):
    for variant in rulesets.RULE_SETS:
        page = client.get(f"/games/new/{variant}").text
        assert f'href="/rules/{variant}#house-rules"' in page
        for setting in rulesets.get(variant).settings:
            legend = re.search(rf"<legend>{re.escape(str(escape(setting.label)))}</legend>", page)
            assert legend, f"{variant}: {setting.key} shown without its plain label"


PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
RULES_DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
# Files of other layers still citing the specification, waiting for their own clean-up.
NOT_YET = {"services/games.py", "web/games.py"}


def test_no_file_of_the_package_cites_a_section_number():
    cited = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "§" in path.read_text(encoding="utf-8") and str(path.relative_to(PACKAGE)) not in NOT_YET
    ]
    assert cited == [], f"files citing the specification's sections: {cited}"


TESTS = Path(__file__).resolve().parent
# Shared test modules this clean-up may not change (tests/helpers.py cites one section, "§1.1": Card values).
NOT_YET_IN_TESTS: set[str] = set()


def _test_files():
    """Every Python file under tests/ but this one (and the browser tests' node_modules)."""
    for path in sorted(TESTS.rglob("*.py")):
        relative = path.relative_to(TESTS).as_posix()
        if "node_modules" not in path.parts and path != Path(__file__).resolve() and relative not in NOT_YET_IN_TESTS:
            yield relative, path.read_text(encoding="utf-8")


def _rules_doc_headings():
    """The headings a citation may name: anchor -> the ### headings of that rule set's section; "" -> the ## ones."""
    text = RULES_DOC.read_text(encoding="utf-8")
    sections = {
        m.group(1): set(re.findall(r"^### (.+)$", m.group(2), re.M))
        for m in re.finditer(r'<a id="([\w-]+)"></a>(.*?)(?=<a id=|\Z)', text, re.S)
    }
    sections[""] = set(re.findall(r"^## (.+)$", text, re.M))
    return sections, {m.group(2): m.group(1) for m in re.finditer(r'<a id="([\w-]+)"></a>\s*## (.+)', text)}


def test_no_test_cites_a_section_number():
    cited = [relative for relative, text in _test_files() if "\N{SECTION SIGN}" in text]
    assert cited == [], f"tests citing the specification's sections: {cited}"


def _named(rest, names):
    """The headings named at the start of ``rest``, as "A" or "A, B": a citation may name several."""
    found = []
    while True:
        name = next((n for n in sorted(names, key=len, reverse=True) if rest.startswith(n)), None)
        if name is None:
            return found
        found.append(name)
        rest = rest[len(name) :]
        if not rest.startswith(", "):
            return found
        rest = rest[2:]


def test_every_heading_cited_in_the_tests_is_one_of_the_rules_doc():
    """``docs/rules.md#<rule set> › <heading>`` (or ``docs/rules.md, <rule set's heading> › <heading>``,
    ``docs/rules.md › <top heading>``): the rule set's anchor exists and the heading is one of its section's."""
    sections, anchors = _rules_doc_headings()
    for relative, text in _test_files():
        text = re.sub(r"\n\s*(#\s*)?", " ", text)  # a citation wrapped over comment or docstring lines
        for anchor in re.findall(r"docs/rules\.md#([\w-]+)", text):
            assert anchor in sections, f"{relative}: no #{anchor} in docs/rules.md"
        cited = [(m.group(1) or "", m.end()) for m in re.finditer(r"docs/rules\.md(?:#([\w-]+))? › ", text)]
        for m in re.finditer(r"docs/rules\.md, ([A-Z][^›\"]{0,70}?) › ", text):
            assert m.group(1) in anchors, f"{relative}: no rule set {m.group(1)!r} in docs/rules.md"
            cited.append((anchors[m.group(1)], m.end()))
        for anchor, end in cited:
            named = _named(text[end:], sections[anchor])
            assert named, f"{relative}: {text[end : end + 40]!r} is no heading of docs/rules.md#{anchor}"


def test_every_cited_heading_is_one_of_the_rules_doc():
    headings = set(re.findall(r"^#+ (.+)$", RULES_DOC.read_text(encoding="utf-8"), re.M))
    headings |= {"Austrian rulebook", "Modern American Canasta", "Canadian Canasta"}  # a section named short
    for path in PACKAGE.rglob("*.py"):
        for cited in re.findall(r'docs/rules\.md, ((?:"[^"]+"(?:, )?)+)', path.read_text(encoding="utf-8")):
            for quoted in re.findall(r'"([^"]+)"', cited):
                heading = " ".join(quoted.replace("#", " ").split())  # a heading wrapped over comment lines
                assert heading in headings, f"{path.name}: no heading {heading!r} in docs/rules.md"
