"""axe-core (from the npm registry, installed by scripts/setup.sh) checks every page in light and
dark mode against WCAG 2 A and AA: contrast, labels, names, landmarks."""

import os
import re
from pathlib import Path

import pytest

from scorekeeper.core import rulesets
from tests.browser.live import browser, live_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def axe_source():
    """The axe-core script."""
    if not AXE.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("axe-core is missing: scripts/setup.sh test installs it with npm")
        pytest.skip("axe-core is not installed (bash scripts/setup.sh test)")
    return AXE.read_text()


@pytest.fixture(scope="module")
def site(browser, live_url):
    """A small archive with an evening, games of several rule sets and a finished game; the URLs to check."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live_url + "/evenings/new")
    page.get_by_label("New players, separated by commas").fill("Anna, Bert, Carl, Dora")
    page.get_by_role("button", name="Start the evening").click()
    evening = page.url
    urls = {
        "home": "/",
        "rules": "/games/new",
        "evening": evening,
        "evenings": "/evenings",
        "new evening": "/evenings/new",
        "players": "/players",
        "history": "/history",
        "stats": "/stats",
        "backup": "/export",
        "offline": "/offline",
        "not found": "/games/999",
    }
    for variant in ("classic", "modern", "canadian", "austrian", "classic-3p", "six-3x2"):
        page.goto(f"{live_url}/games/new/{variant}?evening={evening.rsplit('/', 1)[1]}")
        urls[f"new {variant}"] = page.url
        page.get_by_role("button", name="Start game").click()
        page.wait_for_url(re.compile(r"/games/\d+$"))
        urls[f"game {variant}"] = page.url
        urls[f"hand {variant}"] = page.url + "/hands/new"
        urls[f"minimums {variant}"] = page.url + "/minimums"
    game = urls["game classic"]
    page.goto(game + "/hands/new")
    page.locator('input[name="sides-0-melded_points"]').fill("12")  # a page with errors
    page.get_by_role("button", name="Save hand 1").click()
    page.locator("#sides-0-melded_points-error").wait_for()
    urls["hand with errors"] = None
    errors_html = page.content()
    for rules in rulesets.RULE_SETS:
        urls[f"reference {rules}"] = f"/rules/{rules}"
    page.goto(live_url + "/players")
    urls["player"] = page.locator(".games a").first.get_attribute("href")
    context.close()
    return urls, errors_html


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_passes_axe(browser, live_url, site, axe_source, scheme):
    urls, errors_html = site
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True, color_scheme=scheme)
    page = context.new_page()
    failures = {}
    for name, url in urls.items():
        if url is None:
            page.set_content(errors_html.replace("<head>", f'<head><base href="{live_url}/">', 1))
        else:
            page.goto(url if url.startswith("http") else live_url + url)
        page.evaluate(axe_source)
        result = page.evaluate(
            "() => axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"
        )
        if result["violations"]:
            failures[name] = [
                (v["id"], v["nodes"][0]["target"], v["nodes"][0].get("failureSummary", "")[:160])
                for v in result["violations"]
            ]
    context.close()
    assert failures == {}
