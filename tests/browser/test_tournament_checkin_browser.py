"""Who plays a club night, in the browser on a phone (390 x 844, touch; docs/tournaments.md): the
organiser ticks who has come on the tournament's page, adds a walk-in, draws (only those ticked are
seated), gives a no-show's seat to a late player (refused first for a name seated already, beside the
field), and the replacement sits where the no-show was drawn.

Screenshots of the check-in list, a refused check-in and a refused replacement at 390 and 320 px,
light and dark, go to tests/browser/screenshots/checkin-*.png; no page scrolls sideways.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, SCREENSHOTS, serve_fresh

pytestmark = pytest.mark.browser

LIST = "Annemarie Bartholomäus Clara Dieter Emma Frank Gisela Heinz Ingrid Jürgen Karin Lothar".split()
CAME = ["Annemarie", "Bartholomäus", "Clara", "Emma", "Frank", "Gisela", "Ingrid"]  # and a walk-in: 8


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This file's own server on an empty archive."""
    yield from serve_fresh(tmp_path_factory)


def shoot(page, name: str) -> Path:
    """A full-page screenshot: tests/browser/screenshots/checkin-NAME.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"checkin-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def phone(browser, width: int = 390, scheme: str = "light"):
    ctx = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 844}}, color_scheme=scheme)
    ctx.set_default_timeout(10000)
    return ctx


def fits(page, what: str) -> None:
    width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= client, f"{what}: scrolls sideways ({width} > {client} px)"


def created(page, base: str, name: str, entrants: list[str], fmt: str = "Tables with a final") -> str:
    """New tournament → its form (Classic rules) → the organiser's page; its URL."""
    page.goto(base + "/tournaments/new")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label(fmt).check()
    page.get_by_label("Players or pairs, one a line").fill("\n".join(entrants))
    page.get_by_label("Rules", exact=True).select_option("classic")
    page.get_by_role("button", name="Create the tournament").tap()
    page.wait_for_url(re.compile(r"/tournaments/\d+$"))
    return page.url


def seat_of(page, name: str):
    """The line of the draw where ``name`` sits."""
    return page.locator(".t-replace > li").filter(
        has=page.locator(".t-seat", has_text=re.compile(rf"\b{re.escape(name)}$"))
    )


def test_ticked_a_walk_in_drawn_and_a_no_show_replaced_on_a_phone(chromium, server):
    ctx = phone(chromium)
    page = ctx.new_page()
    organiser = created(page, server, "Friday club", LIST)
    expect(page.get_by_role("heading", name="Who has come?")).to_be_visible()
    for name in CAME:
        page.get_by_label(name, exact=True).tap()
    page.get_by_label("Walk-ins, one a line").fill("Maximilian")
    fits(page, "the check-in at 390 px")
    page.get_by_role("button", name="Save who has come").tap()
    expect(page.locator(".flash")).to_contain_text("Saved: 8 checked in. The draw seats only them.")
    expect(page.locator(".t-checked")).to_have_text("8 of 13 have come: the draw seats only them.")
    for name in CAME + ["Maximilian"]:
        expect(page.get_by_label(name, exact=True)).to_be_checked()
    expect(page.get_by_label("Dieter", exact=True)).not_to_be_checked()

    page.get_by_role("button", name="Draw the seats").tap()
    expect(page.locator(".flash")).to_contain_text("The seats are drawn.")
    seated = [re.sub(r"^[\d.]+\s+", "", s) for s in page.locator(".t-replace .t-seat").all_inner_texts()]
    assert sorted(seated) == sorted(CAME + ["Maximilian"]), seated  # nobody who did not come
    expect(page.locator(".t-log li").first).to_contain_text(
        "left out (not checked in): Dieter, Heinz, Jürgen, Karin, Lothar"
    )
    fits(page, "the draw at 390 px")

    # Clara was ticked by mistake: her seat goes to Jürgen, who came late
    line = seat_of(page, "Clara")
    label = line.locator(".t-seat b").inner_text()
    line.get_by_text("Replace").tap()
    line.get_by_label("Who takes the seat").fill("emma")  # seated already: refused beside the field
    line.get_by_role("button", name="Give the seat").tap()
    line = seat_of(page, "Clara")
    expect(line.locator(".error")).to_have_text("Emma has a seat in this tournament already.")
    expect(line.get_by_label("Who takes the seat")).to_have_value("emma")
    line.get_by_label("Who takes the seat").fill("Jürgen")
    line.get_by_role("button", name="Give the seat").tap()
    expect(page.locator(".flash")).to_contain_text("Jürgen takes the seat of Clara.")
    expect(seat_of(page, "Jürgen").locator(".t-seat b")).to_have_text(label)  # the seat drawn for Clara
    expect(seat_of(page, "Clara")).to_have_count(0)
    expect(page.locator(".t-log li").first).to_contain_text("Jürgen took the seat of Clara")

    page.get_by_role("button", name="Start round 1").tap()
    expect(page.locator(".flash")).to_contain_text("Round 1 has started.")
    table = int(label.split(".")[0])
    page.goto(f"{organiser}/tables/{table}")  # the table's link: its game, Jürgen in Clara's seat
    expect(page.locator("body")).to_contain_text("Jürgen")
    expect(page.locator("body")).not_to_contain_text("Clara")
    ctx.close()


@pytest.fixture(scope="module")
def rooms(chromium, server):
    """A tournament with a check-in saved (7 of its 12 and a walk-in) and one of pairs drawn, not started."""
    ctx = phone(chromium, 1280)
    page = ctx.new_page()
    listed = created(page, server, "Saturday open", LIST[:-1] + ["Maximilian Alexander von Hohenberg"])
    for name in CAME:
        page.get_by_label(name, exact=True).check()
    page.get_by_label("Walk-ins, one a line").fill("Konstanze")
    page.get_by_role("button", name="Save who has come").click()
    expect(page.locator(".flash")).to_contain_text("Saved: 8 checked in.")
    pairs = [f"{LIST[i]} & {LIST[i + 1]}" for i in range(0, 8, 2)]
    drawn = created(page, server, "Pairs night", pairs, "Pairs moving between tables")
    page.get_by_role("button", name="Draw the seats").click()
    expect(page.locator(".flash")).to_contain_text("The seats are drawn.")
    ctx.close()
    return listed, drawn


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 320])
def test_screenshots_at_every_size(chromium, rooms, width, scheme):
    """checkin-list, checkin-refused (too few ticked: the message beside the list) and checkin-replace
    (a pair's player: a name seated already, the message beside the field), each at 390 and 320 px, light
    and dark."""
    listed, drawn = rooms
    ctx = phone(chromium, width, scheme)
    page = ctx.new_page()
    page.goto(listed)
    fits(page, f"the check-in at {width} px")
    page.locator(".t-checkin").scroll_into_view_if_needed()
    shoot(page, f"list-{width}-{scheme}")
    page.get_by_label("Emma", exact=True).uncheck()  # 7 ticked, and a walk-in who is on the list: refused
    page.get_by_label("Walk-ins, one a line").fill("Konstanze")
    page.get_by_role("button", name="Save who has come").tap()
    expect(page.locator("#walk_ins-error")).to_have_text("Konstanze is on the list already: tick the name above.")
    # the page opens at the field refused, in view and focused, not at its top with "Draw the seats"
    expect(page.get_by_label("Walk-ins, one a line")).to_be_focused()
    expect(page.locator("#walk_ins-error")).to_be_in_viewport()
    page.get_by_label("Walk-ins, one a line").fill("")
    page.get_by_role("button", name="Save who has come").tap()
    expect(page.locator("#present-error")).to_contain_text("7 players: tables seat four to six.")
    expect(page.locator(".t-present input").first).to_be_focused()
    expect(page.get_by_label("Emma", exact=True)).not_to_be_checked()  # what was ticked stays
    fits(page, f"a refused check-in at {width} px")
    shoot(page, f"refused-{width}-{scheme}")
    page.goto(drawn)
    line = seat_of(page, "Clara & Dieter")
    line.get_by_text("Replace").tap()
    line.get_by_label("Dieter").check()
    line.get_by_label("Who takes the seat").fill("Bartholomäus")
    line.get_by_role("button", name="Give the seat").tap()
    line = seat_of(page, "Clara & Dieter")
    expect(line.locator(".error")).to_have_text("Bartholomäus has a seat in this tournament already.")
    expect(line.get_by_label("Dieter")).to_be_checked()  # the player chosen stays chosen
    fits(page, f"a refused replacement at {width} px")
    shoot(page, f"replace-{width}-{scheme}")
    ctx.close()


AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]  # as tests/browser/test_accessibility.py


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_check_in_and_the_replacement_pass_axe(chromium, rooms, scheme):
    """axe-core (tests/browser/test_accessibility.py): WCAG 2 A and AA, contrast included, on the check-in
    and the draw's seats with a refusal beside its field."""
    if not AXE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("axe-core is missing: scripts/setup.sh test installs it with npm")
        pytest.skip("axe-core is not installed (bash scripts/setup.sh test)")
    listed, drawn = rooms
    ctx = chromium.new_context(**PHONE, color_scheme=scheme, bypass_csp=True)
    page = ctx.new_page()
    failures = {}
    for url, refuse in ((listed, "Save who has come"), (drawn, "Give the seat")):
        page.goto(url)
        if refuse == "Give the seat":
            line = seat_of(page, "Clara & Dieter")
            line.get_by_text("Replace").tap()
            line.get_by_label("Who takes the seat").fill("Emma")
            line.get_by_role("button", name=refuse).tap()
        else:
            page.get_by_label("Walk-ins, one a line").fill("Konstanze")
            page.get_by_role("button", name=refuse).tap()
        expect(page.locator(".error")).to_have_count(1)
        page.evaluate(AXE.read_text())
        result = page.evaluate(f"() => axe.run(document, {{runOnly: {{type: 'tag', values: {WCAG}}}}})")
        for v in result["violations"]:
            failures.setdefault(url, []).append((v["id"], [n["target"] for n in v["nodes"]][:3]))
    ctx.close()
    assert failures == {}
