"""Paper when it is wanted, in Chromium (static/style.css, the print styles of a game and an evening): a game
of 30 hands and its evening, both built through the app, printed to PDF on A4 (page.pdf, as the print
dialog does) in light and dark colour schemes:

- the A4 size; the number of pages (30 hands with their breakdowns: more than one page, the sheet's head
  repeated on each); every hand's line present in the printed sheet, none split across two pages;
- under the print styles: no button, form, navigation, footer, hand form or share fold shown; black on
  white even when the phone is in dark mode; the game's name, players and date and the result sentence on
  top; the evening's games and standings.

The PDFs go to tests/browser/screenshots/print-*.pdf; with Ghostscript (gs) each page is also rendered to
print-*-N.png beside them, to look at."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tests.browser.conftest import SCREENSHOTS, serve_fresh
from tests.browser.test_tournament_paper_browser import A4, PAPER_WIDTH, _pdf_pages, _post, _token

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bernd", "Clara", "Dieter"]
HANDS = 30

# Under the print styles: what is still shown (the controls no paper needs), the colours, the sheet's rows
PRINTED = r"""
() => {
  const drawn = (el) => el.getClientRects().length > 0;
  const shown = (sel) => Array.from(document.querySelectorAll(sel)).filter(drawn).length;
  const hidden = ["header.top", "footer.prefs", "nav", "form", "button", ".btn", "input", "select", ".share",
    ".delete-game", "#hand-panel", ".link-line", "details.hand-line", ".qr-box"];
  const all = Array.from(document.querySelectorAll("main *")).filter(drawn);
  const styles = all.map((el) => getComputedStyle(el));
  const rows = Array.from(document.querySelectorAll(".print-sheet tbody.print-hand")).filter(drawn);
  const thead = document.querySelector(".print-sheet thead");
  return {
    shown: hidden.filter((sel) => shown(sel) > 0),
    body: [getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor],
    colours: Array.from(new Set(styles.map((s) => s.color))),
    backgrounds: Array.from(new Set(styles.map((s) => s.backgroundColor))),
    hands: rows.map((el) => Number(el.dataset.hand)),
    head: (document.querySelector(".print-head") || {}).innerText || "",
    thead: thead ? getComputedStyle(thead).display : null,
    text: document.querySelector("main").innerText,
  };
}
"""
INK = {"rgb(0, 0, 0)"}
PAPER = {"rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This file's own server on an empty archive."""
    yield from serve_fresh(tmp_path_factory)


@pytest.fixture(scope="module")
def evening(chromium, server) -> dict[str, str]:
    """An evening of four through its form; a game of 30 hands in it (won in the last) and a short one;
    their addresses."""
    ctx = chromium.new_context()
    try:
        request = ctx.request
        location = _post(
            request,
            server + "/evenings/new",
            server + "/evenings/new",
            {"date": "2026-11-27", "place": "Clara's kitchen", "new_players": ", ".join(NAMES)},
        )
        evening_id = int(location.rsplit("/", 1)[1])
        games = []
        for first in (0, 1):
            new = f"{server}/games/new/classic?evening={evening_id}"
            fields = {"evening": str(evening_id), "first_dealer": str(first)}
            fields.update({f"players-{i}": name for i, name in enumerate(NAMES[first:] + NAMES[:first])})
            location = _post(request, server + "/games/new/classic", new, fields)
            games.append(server + "/games/" + location.rstrip("/").rsplit("/", 1)[1])
        # the long game: 29 hands of 150 and 100 with the stock run out, then 700 and 100 (5050: over 5000)
        long_game, short_game = games
        token = _token(request, long_game)
        for number in range(HANDS):
            melded = [700, 100] if number == HANDS - 1 else [150, 100]
            answer = request.post(
                long_game + "/hands.json",
                data={
                    "client_key": f"p{number:08d}",
                    "stock_out": True,
                    "sides": [{"melded_points": melded[0]}, {"melded_points": melded[1]}],
                },
                headers={"X-CSRFToken": token},
            )
            assert answer.status == 201, answer.text()
        for number in range(3):
            answer = request.post(
                short_game + "/hands.json",
                data={
                    "client_key": f"s{number:08d}",
                    "stock_out": True,
                    "sides": [{"melded_points": 90}, {"melded_points": 120}],
                },
                headers={"X-CSRFToken": token},
            )
            assert answer.status == 201, answer.text()
        return {"game": long_game, "evening": f"{server}/evenings/{evening_id}"}
    finally:
        ctx.close()


def _render(pdf_path) -> list[str]:
    """Each page of a PDF as a PNG beside it (Ghostscript, when installed), to look at."""
    gs = shutil.which("gs")
    if not gs:
        return []
    for old in pdf_path.parent.glob(pdf_path.stem + "-*.png"):
        old.unlink()
    pattern = pdf_path.parent / (pdf_path.stem + "-%d.png")
    options = ["-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=png16m", "-r60", f"-sOutputFile={pattern}"]
    subprocess.run([gs, *options, str(pdf_path)], check=True)
    return sorted(str(p) for p in pdf_path.parent.glob(pdf_path.stem + "-*.png"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_game_and_its_evening_print_on_a4_black_on_white(chromium, server, evening, scheme):
    ctx = chromium.new_context(viewport={"width": PAPER_WIDTH, "height": 1000}, color_scheme=scheme)
    ctx.set_default_timeout(10000)
    page = ctx.new_page()
    counts = {}
    for what in ("game", "evening"):
        page.goto(evening[what])
        page.emulate_media(media="print", color_scheme=scheme)
        printed = page.evaluate(PRINTED)
        pdf = page.pdf(format="A4")  # with the print styles, as the print dialog
        page.emulate_media(media="null")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"print-{what}-{scheme}.pdf"
        path.write_bytes(pdf)
        pngs = _render(path)
        sizes = _pdf_pages(pdf)
        counts[what] = len(sizes)
        print(f"\n{what} ({scheme}): {len(sizes)} A4 pages; rendered: {pngs}")
        assert all(abs(w - A4[0]) < 1 and abs(h - A4[1]) < 1 for w, h in sizes), sizes
        assert printed["shown"] == [], f"{what}: printed all the same: {printed['shown']}"
        assert printed["body"] == ["rgb(0, 0, 0)", "rgb(255, 255, 255)"], printed["body"]
        assert set(printed["colours"]) == INK, f"{what}: colours {printed['colours']}"
        assert set(printed["backgrounds"]) <= PAPER, f"{what}: backgrounds {printed['backgrounds']}"
        if what == "game":
            assert printed["hands"] == list(range(1, HANDS + 1))  # every hand's line, in order
            assert printed["thead"] == "table-header-group"  # repeated on every page
            assert "Anna & Clara vs Bernd & Dieter" in printed["head"] and "2026-" in printed["head"]
            assert all(name in printed["head"] for name in NAMES) and "Evening of 2026-11-27" in printed["head"]
            assert re.search(r"Anna & Clara win", printed["text"]), printed["text"][:500]
            # the head and the result sentence come before the sheet
            assert printed["text"].index(" win ") < printed["text"].index("Total")
        else:
            assert "Evening: 2026-11-27" in printed["text"] and "Standings" in printed["text"]
            assert printed["text"].count(" vs ") == 2
            assert all(name in printed["text"] for name in NAMES)
            assert "edit" not in printed["text"] and "New game tonight" not in printed["text"]
    ctx.close()
    print(f"\nPDF pages ({scheme}): {counts}")
    assert counts["game"] >= 2 and counts["evening"] == 1, counts


def test_no_hand_line_is_split_across_pages(chromium, server, evening):
    """Each hand's block (its line and breakdown) lies on one page: laid out on A4 paper's height, none
    crosses a page's bottom edge (the page's printable height, 297 - 2 x 14 mm, as @page has it)."""
    ctx = chromium.new_context(viewport={"width": PAPER_WIDTH, "height": 1000})
    page = ctx.new_page()
    page.goto(evening["game"])
    page.emulate_media(media="print")
    heights = page.evaluate(
        "() => Array.from(document.querySelectorAll('.print-sheet tbody')).map((b) => b.getBoundingClientRect().height)"
    )
    ctx.close()
    page_px = (297 - 2 * 14) / 25.4 * 96
    assert heights and max(heights) < page_px / 4, (
        heights
    )  # a hand's block is small: break-inside avoid can keep it whole
