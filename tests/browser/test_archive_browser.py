"""An evening at the table in a real browser: start tonight's evening, play a game in it, look at
the standings, a player's record with its chart, and the game's chart."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.live import browser, live_url, phone, shot  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def test_an_evening_with_a_game_and_its_records(phone, live_url):
    page = phone
    page.goto(live_url + "/")
    page.get_by_role("link", name="Start tonight's evening").click()
    page.get_by_label("Place (optional)").fill("Anna's kitchen")
    page.get_by_label("New players, separated by commas").fill("Anna, Bert, Carl, Dora")
    page.get_by_role("button", name="Start the evening").click()
    expect(page.get_by_role("heading", name=re.compile("Tonight"))).to_be_visible()
    page.goto(live_url + "/")
    expect(page.get_by_role("link", name="Continue tonight's evening")).to_be_visible()
    page.get_by_role("link", name="New game tonight").click()
    page.locator('a.choice[href*="/games/new/classic-2p"]').click()
    assert page.get_by_label("Seat 1", exact=True).input_value() == "Anna"  # taken from the evening
    assert page.get_by_label("Seat 2", exact=True).input_value() == "Bert"
    page.get_by_label("Seat 2", exact=True).fill("Carl")
    page.get_by_role("button", name="Start game").click()
    # §4: Anna out with 2 natural canastas 1000 + 100 + 4 red threes 800 + melded 1100 = 3000, twice → 6000
    for number in (1, 2):
        page.get_by_role("link", name=f"Enter hand {number}").click()
        page.locator('section[data-side="0"]').get_by_text("Went out", exact=True).click()
        for _ in range(2):
            page.locator('section[data-side="0"]').get_by_role("button", name="Natural canastas plus one").click()
        for _ in range(4):
            page.locator('section[data-side="0"]').get_by_role("button", name="Red threes plus one").click()
        page.locator('input[name="sides-0-melded_points"]').fill("1100")
        page.locator('input[name="sides-1-melded_points"]').fill("60")
        page.locator('input[name="sides-1-hand_points"]').fill("10")
        page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.locator(".result.won")).to_contain_text("Anna wins by 5900 points")
    expect(page.locator("svg.chart polyline")).to_have_count(2)
    shot(page, "archive-1-game-with-chart")
    page.get_by_role("link", name=re.compile("Evening of")).click()
    expect(page.get_by_text("Carl pays Anna 5900")).to_be_visible()
    shot(page, "archive-2-evening")
    page.get_by_role("link", name="Anna", exact=True).click()
    expect(page.get_by_role("heading", name="Anna")).to_be_visible()
    expect(page.locator("svg.chart")).to_have_count(3)  # rating, balance, each game
    shot(page, "archive-3-player")
    page.goto(live_url + "/stats")
    shot(page, "archive-4-statistics")
    page.goto(live_url + "/history")
    expect(page.locator(".games li")).to_have_count(1)
    shot(page, "archive-5-history")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
