"""Every page of the app reads on a 320 px and a 390 px wide phone: the page never scrolls
sideways, and no word or number is broken across two lines.

For each page, at each width, headless Chromium measures:

- the page's width: ``document.documentElement.scrollWidth`` is at most the viewport's (a wide table
  may scroll inside its own box, as the statistics do with their sticky name column; the page may not);
- every word: a DOM Range over each word of every visible text node has all its client rects on
  one line (the same top within 2 px), so "Minimum" never reads "Mini / mum" and "25935" never
  "2593 / 5". A break after a hyphen between letters ("Hand-/Canasta") or after a dash ("2–/6") is
  a break between words. Left out: links (the share address breaks anywhere) and words of more than
  24 characters: a name of 40 letters with no space (the longest the form takes) must break
  somewhere on a phone; the page must still not scroll sideways.

The archive is built through the app's own forms and its JSON hand endpoint on the live server
(the real CSRF tokens), with a game of every rule set, a finished game with five-figure totals,
an evening and a complete Austrian Game. Screenshots of the statistics, the opening-meld table and
the scoreboard at both widths, light and dark, go to tests/browser/screenshots/phone-*.png.
"""

from __future__ import annotations

import re
import tempfile
import threading
import uuid

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.core import clock, rulesets
from tests.browser.conftest import SCREENSHOTS

pytestmark = pytest.mark.browser

WIDTHS = (320, 390)
NAMES = ["Elisabeth", "Friedrich", "Konstanze", "Maximilian", "Bartholomäus", "Wilhelmine"]

# The measurement, run in the page: the page's width, and each word that the browser broke across
# lines, with the text around it to find it by.
MEASURE = r"""
() => {
  const LONGEST = 24;  // a longer word (a name of 40 letters, no space) breaks where it must
  const root = document.documentElement;
  const broken = [];
  const skip = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "OPTION", "SELECT", "TITLE", "DATALIST"]);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  // a word runs to a space, or to a dash after which a line may break: an en or em dash, or a
  // hyphen between letters; a URL (the share link) may break anywhere and is left out
  const word = /(?:[^\s\u00a0\u2013\u2014-]|-(?!\p{L}))+[\u2013\u2014-]?/gu;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    // text not shown: hidden, or in a closed fold (a hand's breakdown until its line is tapped)
    const unseen = "select, datalist, [hidden], details:not([open]) > :not(summary)";
    if (!parent || skip.has(parent.tagName) || parent.closest(unseen)) continue;
    const text = node.data;
    for (const match of text.matchAll(word)) {
      if (match[0].includes("://") || match[0].length > LONGEST) continue;
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
      if (rects.length < 2) continue;
      const top = rects[0].top;
      if (rects.some((r) => Math.abs(r.top - top) > 2)) {
        broken.push(match[0] + "  in «" + text.trim().slice(0, 60) + "»");
      }
    }
  }
  // the layout viewport: a phone zooms out over a page too wide (window.innerWidth grows with it)
  return {width: root.scrollWidth, viewport: root.clientWidth, broken: broken};
}
"""


# --- building the archive through the pages ----------------------------------------------------------


def _token(request, url: str) -> str:
    """The CSRF token of the page's forms (or of its <body> for the scripts), as a browser sends it back."""
    text = request.get(url).text()
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', text) or re.search(
        r'value="([^"]+)"[^>]*name="csrf_token"', text
    )
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def _post_form(request, url: str, data: dict, page_url: str | None = None):
    """Post a form the way a browser does, with the token from the page it is on; the response."""
    response = request.post(
        url, form={"csrf_token": _token(request, page_url or url), **data}, max_redirects=0, fail_on_status_code=False
    )
    assert response.status in (302, 303), f"{url}: {response.status} {response.text()[:500]}"
    return response


def _start_game(request, base: str, variant: str, names=NAMES, evening: int | None = None, target=None, **extra):
    """Start a game of a rule set through its New game form (its first seating); the game's URL. A table's
    own rule set (``house-<id>``) here is always one made from Classic."""
    rules = rulesets.RULE_SETS.get(variant) or rulesets.RULE_SETS["classic"]
    layout = rules.layouts[0]
    data = {"first_dealer": "0", "layout": layout.key, **extra}
    for i, name in enumerate(names[: layout.players]):
        data[f"players-{i}"] = name
    if evening:
        data["evening"] = str(evening)
    if target:
        data["target"] = str(target)
    response = _post_form(request, f"{base}/games/new/{variant}", data)
    location = response.headers["location"]
    return location if location.startswith("http") else base + location


def _add_hand(request, game_url: str, sides: list[dict], **more) -> None:
    """Send a hand to the game's JSON endpoint, as a phone's queue does (its page's token)."""
    token = _token(request, game_url + "/hands/new")
    response = request.post(
        game_url + "/hands.json",
        data={"client_key": uuid.uuid4().hex, "sides": sides, "stock_out": False, **more},
        headers={"X-CSRFToken": token},
        fail_on_status_code=False,
    )
    assert response.status == 201, response.text()


def _link(request, url: str, pattern: str) -> str:
    """The first link on a page whose address matches the pattern."""
    match = re.search(f'href="({pattern})"', request.get(url).text())
    assert match, f"no link {pattern} on {url}"
    return match.group(1)


# Classic docs/rules.md#classic › Going out: out 100 + 4 natural canastas 2000 + 4 red threes 800 + melded 1100 = 4000.
BIG_HAND = {"went_out": "normal", "natural_canastas": 4, "red_threes": 4, "melded_points": 1100}


@pytest.fixture(scope="module")
def site(chromium, live_server):
    """Every page of the app, by name, with the archive they show."""
    context = chromium.new_context()
    try:
        return build_site(context.request, live_server)
    finally:
        context.close()


def build_site(request, base: str) -> dict[str, str]:
    """Build the archive through the app's forms on the server at ``base``; every page's URL by name."""
    urls: dict[str, str] = {
        "home": "/",
        "choose rules": "/games/new",
        "evenings": "/evenings",
        "new evening": "/evenings/new",
        "players": "/players",
        "history": "/history",
        "history filtered": "/history?variant=modern&from=2000-01-01",
        "backup": "/export",
        "offline": "/offline",
        "not found": "/games/999999",
    }
    # tonight's evening with a game in it
    evening_url = base + _post_form(
        request,
        base + "/evenings/new",
        {"date": clock.today(), "place": "Konstanze's kitchen", "new_players": ", ".join(NAMES[:4])},
    ).headers["location"].replace(base, "")
    evening = int(evening_url.rsplit("/", 1)[1])
    urls["an evening"] = evening_url
    urls["new game of the evening"] = f"/games/new/classic?evening={evening}"
    urls["edit evening"] = evening_url + "/edit"
    # a finished classic game with five-figure totals, target 25000 (docs/rules.md#classic › End of the game): each side
    # wins hands of 4000 (out 100 + 4 natural canastas 2000 + 4 red threes 800 + melded 1100) while the other scores 370
    # (a mixed canasta 300 + melded 70) or 50; the last hand, 1735 (out 100 + 2 natural canastas 1000 + melded 635)
    # against 600 (a mixed canasta 300 + melded 300), ends it at 25935 to 18820: 6 · 4000 + 4 · 50 + 1735 = 25935 and 6
    # · 370 + 4 · 4000 + 600 = 18820.
    big = _start_game(request, base, "classic", evening=evening, target=25000)
    ours = [BIG_HAND, {"mixed_canastas": 1, "melded_points": 70}]
    theirs = [{"melded_points": 50}, BIG_HAND]
    for sides in [ours, theirs] * 4 + [ours, ours]:
        _add_hand(request, big, sides)
    _add_hand(
        request,
        big,
        [
            {"went_out": "normal", "natural_canastas": 2, "melded_points": 635},
            {"mixed_canastas": 1, "melded_points": 300},
        ],
    )
    urls["scoreboard finished 25935"] = big
    urls["minimums finished"] = big + "/minimums"
    # a game of every rule set and its pages
    for variant, rules in rulesets.RULE_SETS.items():
        game = _start_game(request, base, variant)
        urls[f"new game {variant}"] = f"/games/new/{variant}"
        urls[f"rules {variant}"] = f"/rules/{variant}"
        urls[f"scoreboard {variant}"] = game
        urls[f"hand {variant}"] = game + "/hands/new"
        urls[f"minimums {variant}"] = game + "/minimums"
    # a hand on the sheet of the three-sided games (docs/rules.md#classic-3p): a breakdown in each of three columns
    three_sides = [
        {"went_out": "normal", "natural_canastas": 1, "mixed_canastas": 1, "red_threes": 2, "melded_points": 425},
        {"mixed_canastas": 1, "red_threes": 1, "melded_points": 245, "hand_points": 35},
        {"red_threes": 1, "melded_points": 90, "hand_points": 160},
    ]
    _add_hand(request, urls["scoreboard classic-3p"], three_sides, lone=0)  # Elisabeth went out alone
    _add_hand(request, urls["scoreboard six-3x2"], three_sides)
    # the longest name the form takes (40 letters, no space): it breaks where it must, the page stays put
    long = _start_game(
        request, base, "classic-3p", names=["Konstantinos", "WilhelminaFriederikeAugustaCharlotteVonX", "Bartholomäus"]
    )
    _add_hand(request, long, three_sides, lone=1)
    urls["scoreboard 40-letter name"] = long
    urls["hand 40-letter name"] = long + "/hands/new"
    urls["minimums 40-letter name"] = long + "/minimums"
    # a complete Austrian Game (three Partien)
    austrian = _start_game(request, base, "austrian", complete_game="y")
    urls["complete game"] = _link(request, austrian, r"/matches/\d+")
    # a hand to correct
    _add_hand(
        request,
        urls["scoreboard classic"],
        [{"melded_points": 250}, {"went_out": "normal", "natural_canastas": 1, "melded_points": 190}],
    )
    urls["edit hand"] = _link(request, urls["scoreboard classic"], r"/games/\d+/hands/\d+/edit")
    # the players, one player, the statistics
    urls["a player"] = _link(request, base + "/players", r"/players/\d+")
    urls["statistics"] = "/stats"
    urls["statistics this year, classic, by margin"] = "/stats?period=year&variant=classic&sort=margin&dir=asc"
    urls["statistics empty period"] = "/stats?variant=canadian&period=12m"
    # the table's own rules: the list, the page of every value (Modern's has the most), one kept, its game
    urls["house rules"] = "/house-rules"
    urls["new house rules modern"] = "/house-rules/new/modern"
    page = request.get(base + "/house-rules/new/classic").text()
    fields = dict(re.findall(r'name="(v_\w+)"[^>]*value="([^"]*)"', page))
    for name, options in re.findall(r'<select id="\w+" name="(v_\w+)">(.*?)</select>', page, re.S):
        fields[name] = re.search(r'value="([^"]*)" selected', options).group(1)
    fields |= {
        "name": "Donnerstagsregeln der Familie Bartholomäus",
        "v_canasta_natural": "600",
        "v_going_out_bonus": "300",
    }
    _post_form(request, base + "/house-rules/new/classic", fields)
    kept = _link(request, base + "/house-rules", r"/house-rules/\d+")
    urls["house rules kept"] = kept
    urls["rules house"] = "/rules/house-" + kept.rsplit("/", 1)[1]
    urls["scoreboard house"] = _start_game(request, base, "house-" + kept.rsplit("/", 1)[1])
    return {name: (url if url.startswith("http") else base + url) for name, url in urls.items()}


@pytest.fixture(scope="module")
def password_server():
    """A second app with a password, for the login page; its base URL."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"TESTING": True, "SECRET_KEY": "test", "DATABASE": folder + "/p.sqlite", "PASSWORD": "open sesame"}
        )
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_port}"
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)


def _phone(chromium, width: int, scheme: str = "light", **more):
    """A phone-like context of this width (``more``: the context's other options, its locale)."""
    context = chromium.new_context(
        viewport={"width": width, "height": 740},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
        color_scheme=scheme,
        **more,
    )
    context.set_default_timeout(10000)
    return context


# each figure of a hand's line under its side's name in the sheet's head, the line open or not
UNDER_THE_HEAD = """() => {
  const heads = [...document.querySelectorAll('.sheet-head .cell')].map((c) => c.getBoundingClientRect());
  const wrong = [];
  document.querySelectorAll('details.hand-line > summary').forEach((line) => {
    [...line.querySelectorAll(':scope > .cell')].forEach((cell, side) => {
      const box = cell.getBoundingClientRect();
      if (!heads[side] || Math.abs(box.right - heads[side].right) > 2 || Math.abs(box.left - heads[side].left) > 2)
        wrong.push(`${line.parentElement.id}: side ${side + 1} at ${Math.round(box.left)}-${Math.round(box.right)}, `
          + `its name at ${heads[side] ? Math.round(heads[side].left) + '-' + Math.round(heads[side].right) : 'none'}`);
    });
  });
  return wrong;
}"""


def _problems(page) -> list[str]:
    """What is wrong with the page shown: sideways scrolling, broken words."""
    result = page.evaluate(MEASURE)
    problems = []
    if result["width"] > result["viewport"]:
        problems.append(f"scrolls sideways: {result['width']} px wide in {result['viewport']} px")
    problems += [f"broken word: {w}" for w in result["broken"]]
    return problems


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_fits_the_phone_and_breaks_no_word(chromium, site, password_server, width):
    context = _phone(chromium, width)
    page = context.new_page()
    failures: dict[str, list[str]] = {}
    pages = dict(site)
    pages["login"] = password_server + "/login"
    for name, url in pages.items():
        response = page.goto(url)
        assert response is not None and response.status in (200, 404), f"{name}: {url} answered {response.status}"
        problems = _problems(page)
        if name.startswith("hand "):  # the hand form with every part open: the card-count pads, the penalties,
            # and how the first side went out (asked once a side is chosen)
            page.evaluate(
                "() => { document.querySelectorAll('details').forEach((d) => d.open = true);"
                " document.querySelectorAll('.mode input[value=counts]').forEach((i) => i.checked = true);"
                " document.querySelectorAll('#out-0').forEach((i) => i.checked = true); }"
            )
            problems += [f"(counts and penalties open) {p}" for p in _problems(page)]
        if name.startswith("scoreboard "):  # every hand's line open: its breakdown and buttons
            page.evaluate("() => document.querySelectorAll('details.hand-line').forEach((d) => d.open = true)")
            problems += [f"(hand lines open) {p}" for p in _problems(page)]
            problems += [f"(hand lines open) {p}" for p in page.evaluate(UNDER_THE_HEAD)]
        if name.startswith("new game "):  # house rules open
            page.evaluate("() => document.querySelectorAll('details').forEach((d) => d.open = true)")
            problems += [f"(house rules open) {p}" for p in _problems(page)]
        if problems:
            failures[f"{name} ({url})"] = problems
    context.close()
    assert not failures, f"at {width} px:\n" + "\n".join(
        f"  {name}:\n" + "\n".join(f"    {p}" for p in problems) for name, problems in failures.items()
    )


@pytest.mark.parametrize("language", ["de", "it", "et"])
def test_the_archive_fits_the_narrowest_phone_in_every_language(chromium, site, language):
    """German, Italian and Estonian words are longer than English ones ("Änderung"): the archive's
    pages with tables (an evening and its ratings, the evenings, the players, the history) fit 320 px,
    each table within its box; an evening's date stays whole in its heading."""
    context = _phone(chromium, 320, locale=language)
    page = context.new_page()
    wrong = {}
    for name in ("an evening", "evenings", "players", "history"):
        page.goto(site[name])
        assert page.evaluate("document.documentElement.lang") == language
        problems = _problems(page)
        boxes = "[...document.querySelectorAll('.table-scroll')].map((b) => b.scrollWidth - b.clientWidth)"
        problems += [f"a table runs {over} px out of its box" for over in page.evaluate(boxes) if over > 1]
        if problems:
            wrong[name] = problems
    context.close()
    assert not wrong, f"{language} at 320 px: {wrong}"


@pytest.fixture(scope="module")
def long_words(chromium, live_server):
    """An evening of Anna, Bartholomäus, Carl and Dora with a finished game (Bartholomäus & Dora below zero),
    and a club night of four pairs at two tables, round 1 started: the pages' URLs by name."""
    context = chromium.new_context()
    request, base = context.request, live_server
    try:
        names = ["Anna", "Bartholomäus", "Carl", "Dora"]
        evening = (
            _post_form(
                request, base + "/evenings/new", {"date": clock.today(), "place": "", "new_players": ", ".join(names)}
            )
            .headers["location"]
            .replace(base, "")
        )
        game = _start_game(request, base, "classic", names=names, evening=int(evening.rsplit("/", 1)[1]))
        # docs/rules.md#classic › Red and black threes, Canastas, Going out: 100 + 2000 + 3 red threes 300 + 1100
        # = 3500 a hand against a red three with nothing melded, −100: 7000 to −200 after two
        for _ in range(2):
            out = {"went_out": "normal", "natural_canastas": 4, "red_threes": 3, "melded_points": 1100}
            _add_hand(request, game, [out, {"red_threes": 1}])
        pairs = "Anna & Bartholomäus\nCarl & Dora\nEve & Fay\nGus & Hal"
        night = (
            _post_form(
                request,
                base + "/tournaments/new",
                {
                    "name": "Herbstturnier",
                    "format": "mitchell",
                    "rules": "classic",
                    "round_end": "hands",
                    "round_hands": "3",
                }
                | {"entrants": pairs, "season_points": "10, 8, 6, 5"},
            )
            .headers["location"]
            .replace(base, "")
        )
        for step in ("/draw", "/rounds"):
            _post_form(request, base + night + step, {"sure": "y"}, page_url=base + night)
        player = _link(request, base + "/players", r"/players/\d+(?=\">\s*<span class=\"game-title\">Barth)")
        pages = {"an evening": evening, "a player": player, "score cards": night + "/score-cards", "the game": game}
        return {name: url if url.startswith("http") else base + url for name, url in pages.items()}
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "de", "it", "et"])
def test_a_long_name_a_loss_and_a_club_nights_score_cards_fit_320_in_every_language(chromium, long_words, language):
    """A languages review found at 320 px: an evening's standings with "Bartholomäus" running sideways (324 px
    in English, 340 in Estonian, whose heads "Mängud", "Võidud" are long), Estonian score cards' last
    "Kokku" cut (334), a player's "21 von 27 beendeten" (323): each fits now, in every language."""
    context = _phone(chromium, 320, locale=language)
    page = context.new_page()
    wrong = {}
    for name, url in long_words.items():
        page.goto(url)
        assert page.evaluate("document.documentElement.lang") == language
        problems = _problems(page)
        if problems:
            wrong[name] = problems
    context.close()
    assert not wrong, f"{language} at 320 px: {wrong}"


# Each cell of a three-sided sheet's lines: whether its running total stands under the hand's score.
STACKED = r"""
() => [...document.querySelectorAll('.sheet.sides-3 details.hand-line > summary .cell')].map((cell) => {
  const hs = cell.querySelector('.hs'), run = cell.querySelector('.run');
  if (!hs || !run) return true;
  return run.getBoundingClientRect().top >= hs.getBoundingClientRect().bottom - 1;
})
"""


def test_a_three_sided_sheet_keeps_its_totals_in_columns_at_320(chromium, site):
    """At 320 px each cell of a three-sided sheet holds the hand's score above the running total: side
    by side, some cells fitted both and others wrapped, and the totals did not stand in columns."""
    context = _phone(chromium, 320)
    page = context.new_page()
    for name in ("scoreboard classic-3p", "scoreboard six-3x2"):
        page.goto(site[name])
        stacked = page.evaluate(STACKED)
        assert stacked and all(stacked), (name, stacked)
    context.close()


# Each fold of a page, closed and open: whether it shows that it folds (its arrow: the summary's own,
# or its label's in the hand form's "Penalties and more"), and how many arrows it shows.
ARROWS = r"""
() => [...document.querySelectorAll('main details')].map((d) => {
  const s = d.querySelector(':scope > summary');
  const drawn = (e) => e && !['none', 'normal', '""'].includes(getComputedStyle(e, '::before').content);
  const label = s.querySelector('.pad-label');
  return {fold: (d.className || 'details') + ': ' + s.innerText.trim().slice(0, 30),
          arrows: [drawn(s), drawn(label)].filter(Boolean).length};
})
"""
LINES_WITHOUT_ARROW = ("hand-line", "t-replace-one")  # a sheet's hand line opens with a tap on it; a seat's "Replace"


def test_every_fold_shows_one_arrow_closed_and_open(chromium, site):
    """A fold that looks like plain text is never opened ("Delete this game", a hand's "Figures"), and
    "Penalties and more" showed two arrows once open: each shows exactly one, closed and open."""
    context = _phone(chromium, 390)
    page = context.new_page()
    wrong = []
    for name, url in site.items():
        page.goto(url)
        for state in ("closed", "open"):
            if state == "open":
                page.evaluate("() => document.querySelectorAll('main details').forEach((d) => d.open = true)")
            for fold in page.evaluate(ARROWS):
                wanted = 0 if fold["fold"].split(":")[0].split()[0] in LINES_WITHOUT_ARROW else 1
                if fold["arrows"] != wanted:
                    wrong.append(f"{name} ({state}) {fold['fold']}: {fold['arrows']} arrows")
    context.close()
    assert not wrong, "\n".join(sorted(set(wrong)))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", WIDTHS)
def test_screenshots_of_the_widest_pages(chromium, site, width, scheme):
    """The statistics, the opening-meld table and the finished scoreboard, to look at."""
    context = _phone(chromium, width, scheme)
    page = context.new_page()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, url in (
        ("statistics", site["statistics"]),
        ("minimums", site["minimums finished"]),
        ("scoreboard", site["scoreboard finished 25935"]),
    ):
        page.goto(url)
        assert _problems(page) == [], name
        page.screenshot(path=str(SCREENSHOTS / f"phone-{name}-{width}-{scheme}.png"), full_page=True)
    context.close()
