"""Paper when the batteries die, in Chromium (web/tournament_paper.py): the guide cards and the score cards
of three tournaments (players changing partners, 12 players; pairs moving between tables, 9 pairs with
long names; tables with a final, 12 players, before its final table; and the score cards of a round of 50
hands):

- on a phone at 390 and 320 px, light and dark: no sideways scrolling, no word broken across lines, the
  Print button opens the browser's print dialog (window.print); screenshots into
  tests/browser/screenshots/paper-*.png;
- printed to PDF on A4 (page.pdf, as the print dialog does): the A4 size, the number of pages expected for
  these tournaments, which is also the number the print layout gives (two score cards a page; the rows of
  guide cards packed onto pages, none split); the print styles: no header, footer, buttons or
  explanations, black on white even when the phone is in dark mode. The PDFs go to
  tests/browser/screenshots/paper-*.pdf (render them to look at them: gs -sDEVICE=png16m …).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, SCREENSHOTS, serve_fresh
from tests.browser.test_phone_widths import MEASURE  # the page's width, the words broken across lines

pytestmark = pytest.mark.browser

TWELVE = "Anna Bernd Clara Dieter Emma Frank Gisela Heinz Ingrid Jürgen Karin Lothar".split()
PAIRS = [
    "Maximilian Bartholomäus & Konstanze Hohenstein-Wittgenstein",
    "Ann & Bob",
    "Cid & Dee",
    "Eve & Fay",
    "Gus & Hal",
    "Ida & Jon",
    "Kim & Lou",
    "Mia & Ned",
    "Olga Friederike & Xaver",
]
A4 = (595.92, 842.88)  # points: 210 x 297 mm, as Chromium writes its MediaBox
PAGE_MM = 297 - 2 * 14  # the height an A4 page prints on, less its margins (@page in static/style.css)
PAPER_WIDTH = 688  # CSS px: the width it prints on, 210 - 2 x 14 mm
# the pages each prints to: the guide cards two abreast, as many rows as fit a page (their heights vary
# with the names and the rounds); the score cards two to a page
PAGES = {
    ("rotation", "guide-cards"): 2,  # 12 cards of three Partien: 4 rows a page
    ("rotation", "score-cards"): 5,  # 3 tables x 3 rounds: 9 cards
    ("rotation", "score-cards/2"): 2,  # 3 tables
    ("mitchell", "guide-cards"): 2,  # 9 pairs, five rounds each, long names on some
    ("mitchell", "score-cards"): 10,  # 4 tables played x 5 rounds: 20 cards
    ("final", "guide-cards"): 1,  # 12 cards of round 1 and the final: 6 rows
    ("final", "score-cards"): 2,  # 3 tables of round 1
    ("long", "score-cards"): 2,  # a round of 50 hands: one card of 30 rows a page, 2 tables
    ("six", "score-cards"): 3,  # one table of six, three sides: five Partien, 5 cards
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This file's own server on an empty archive."""
    yield from serve_fresh(tmp_path_factory)


def _token(request, url: str) -> str:
    match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', request.get(url).text())
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def _post(request, url: str, page_url: str, data: dict) -> str:
    response = request.post(
        url, form={"csrf_token": _token(request, page_url), **data}, max_redirects=0, fail_on_status_code=False
    )
    assert response.status == 302, f"{url}: {response.status} {response.text()[:300]}"
    return response.headers["location"]


@pytest.fixture(scope="module")
def tournaments(chromium, server) -> dict[str, int]:
    """Four tournaments created through the form and drawn; their ids by format ("long": 50 hands a round)."""
    ctx = chromium.new_context()
    try:
        ids = {}
        for fmt, name, entrants in (
            ("rotation", "Thursday club", TWELVE),
            ("mitchell", "Pairs night of the Hohenstein club", PAIRS),
            ("final", "Spring final", TWELVE),
            ("long", "Fifty hands", TWELVE[:8]),
            ("six", "Six at one table", TWELVE[:6]),
        ):
            fields = {"name": name, "format": fmt, "rules": "classic", "round_end": "target"}
            if fmt == "long":
                fields.update(format="final", round_end="hands", round_hands="50")
            if fmt == "six":  # three partnerships of two: a score card of three sides
                fields.update(format="rotation")
            location = _post(
                ctx.request,
                server + "/tournaments/new",
                server + "/tournaments/new",
                {**fields, "entrants": "\n".join(entrants), "season_points": "10, 8, 6"},
            )
            tid = int(location.rsplit("/", 1)[1])
            organiser = f"{server}/tournaments/{tid}"
            _post(ctx.request, organiser + "/draw", organiser, {})
            ids[fmt] = tid
        return ids
    finally:
        ctx.close()


def _fits(page, what: str) -> int:
    """No sideways scrolling, no word broken across two lines (a name longer than 24 letters aside): the
    page's width."""
    measured = page.evaluate(MEASURE)
    assert measured["width"] <= measured["viewport"], f"{what}: scrolls sideways ({measured})"
    assert measured["broken"] == [], f"{what}: words broken: {measured['broken']}"
    return measured["width"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 320])
def test_the_paper_pages_read_on_a_phone(chromium, server, tournaments, width, scheme):
    ctx = chromium.new_context(**{**PHONE, "viewport": {"width": width, "height": 844}}, color_scheme=scheme)
    ctx.set_default_timeout(10000)
    page = ctx.new_page()
    for (fmt, path), _pages in PAGES.items():
        page.goto(f"{server}/tournaments/{tournaments[fmt]}/{path}")
        cards = page.locator(".guide-card, .score-card")
        assert cards.count() > 0
        measured = _fits(page, f"{fmt} {path} at {width} px, {scheme}")
        print(f"\n{fmt} {path} at {width} px, {scheme}: page width {measured} px, {cards.count()} cards")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        name = f"paper-{fmt}-{path.replace('/', '-')}-{width}-{scheme}"
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
        if fmt == "mitchell":  # a card with the longest names
            cards.filter(has_text="Bartholomäus").first.screenshot(path=str(SCREENSHOTS / f"{name}-long-names.png"))
        # the Print button: shown by its script, it opens the print dialog
        button = page.get_by_role("button", name="Print")
        expect(button).to_be_visible()
        page.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
        button.tap()
        assert page.evaluate("window.printed") == 1
    ctx.close()


# Under the print styles: what is shown and in which colours (the cards, the page's head and foot); the
# printed pages' parts: the score cards' sheets, the guide cards' rows (height and the space below, mm)
PRINTED = r"""
() => {
  const mm = (px) => px / (96 / 25.4);
  const shown = (sel) => Array.from(document.querySelectorAll(sel)).some((el) => el.getClientRects().length > 0);
  const style = (sel) => {
    const s = getComputedStyle(document.querySelector(sel));
    return [s.color, s.backgroundColor];
  };
  const cards = Array.from(document.querySelectorAll(".guide-card, .score-card"));
  const inside = cards.flatMap((card) => [card, ...card.querySelectorAll("*")]).map((el) => getComputedStyle(el));
  const rows = new Map();
  document.querySelectorAll(".guide-card").forEach((card) => {
    const r = card.getBoundingClientRect(), top = Math.round(r.top);
    const [height, below] = rows.get(top) || [0, 0];
    const margin = mm(parseFloat(getComputedStyle(card).marginBottom));
    rows.set(top, [Math.max(height, mm(r.height)), Math.max(below, margin)]);
  });
  return {
    shown: ["header.top", "footer.prefs", ".paper-head", "button", "nav"].filter(shown),
    card: style(".guide-card, .score-card"), body: getComputedStyle(document.body).backgroundColor,
    colours: Array.from(new Set(inside.map((s) => s.color))),
    backgrounds: Array.from(new Set(inside.map((s) => s.backgroundColor))),
    sheets: document.querySelectorAll(".paper.scores .paper-sheet").length,
    rows: Array.from(rows.entries()).sort((a, b) => a[0] - b[0]).map((e) => e[1]),
  };
}
"""
INK = {"rgb(0, 0, 0)"}
PAPER = {"rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"}


def _pdf_pages(pdf: bytes) -> list[tuple[float, float]]:
    """The size (points) of each page of a PDF as Chromium (Skia) writes it: one object a page, of /Type
    /Page (the page tree is /Pages), with its /MediaBox."""
    objects = re.findall(rb"\d+ 0 obj\s*(.*?)endobj", pdf, re.S)
    pages = [o for o in objects if re.search(rb"/Type\s*/Page(?!s)\b", o)]
    boxes = [re.search(rb"/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", p) for p in pages]
    assert all(boxes), "a page without its size"
    return [(float(b.group(3)) - float(b.group(1)), float(b.group(4)) - float(b.group(2))) for b in boxes]


def _packed(rows: list[list[float]]) -> int:
    """The pages rows of guide cards fill when none is split across two pages and none is sent on while
    it still fits: (height, space below) in mm."""
    pages, used = 1, 0.0
    for height, below in rows:
        if used and used + height > PAGE_MM:
            pages, used = pages + 1, 0.0
        used += height + below
    return pages


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_each_page_prints_on_a4_black_on_white_as_many_pages_as_expected(chromium, server, tournaments, scheme):
    ctx = chromium.new_context(viewport={"width": PAPER_WIDTH, "height": 1000}, color_scheme=scheme)
    ctx.set_default_timeout(10000)
    page = ctx.new_page()
    counts = {}
    for (fmt, path), expected in PAGES.items():
        page.goto(f"{server}/tournaments/{tournaments[fmt]}/{path}")
        page.emulate_media(media="print")
        printed = page.evaluate(PRINTED)
        name = f"paper-{fmt}-{path.replace('/', '-')}-{scheme}"
        page.screenshot(path=str(SCREENSHOTS / f"{name}-print.png"), full_page=True)
        pdf = page.pdf(format="A4")  # with the print styles, as the print dialog
        page.emulate_media(media="null")
        (SCREENSHOTS / f"{name}.pdf").write_bytes(pdf)
        assert printed["shown"] == [], f"{fmt} {path}: printed all the same: {printed['shown']}"
        assert printed["card"] == ["rgb(0, 0, 0)", "rgb(255, 255, 255)"], printed["card"]
        assert printed["body"] == "rgb(255, 255, 255)"
        assert set(printed["colours"]) == INK and set(printed["backgrounds"]) <= PAPER, printed
        sizes = _pdf_pages(pdf)
        assert all(abs(w - A4[0]) < 1 and abs(h - A4[1]) < 1 for w, h in sizes), sizes
        # the score cards: a page a sheet (two cards), none spilling over; the guide cards: rows packed
        laid_out = printed["sheets"] if "score" in path else _packed(printed["rows"])
        counts[fmt, path] = (len(sizes), laid_out)
    ctx.close()
    print(f"\nPDF pages, as laid out ({scheme}): {counts}")
    assert counts == {key: (pages, pages) for key, pages in PAGES.items()}
