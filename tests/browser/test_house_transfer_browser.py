"""A table's own rule set passed to the next table, in headless Chromium at 390 x 844: make "Thursday
rules" from Classic (natural canastas 600), open its page, follow the address of its QR code (the
import opens with the rules filled in), be refused beside the name (this table has them already, the
text kept), give another name, import, and find it in the list with its values. Screenshots of the
rule set page's section and of the import page, light and dark."""

import json
import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, SCREENSHOTS, serve_fresh

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """This file's own server: its list holds only the rule sets made here."""
    yield from serve_fresh(tmp_path_factory)


def fits(page) -> bool:
    """Nothing scrolls sideways."""
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_a_rule_set_passed_by_its_qr_link_and_imported(phone_page, live_server, screenshot):
    page = phone_page
    page.goto(live_server + "/house-rules/new/classic")
    page.get_by_label("Name", exact=True).fill("Thursday rules")
    page.get_by_label("Natural canastas: bonus each", exact=True).fill("600")
    page.get_by_role("button", name="Keep these rules").click()
    expect(page.get_by_text("Kept: Thursday rules.")).to_be_visible()
    page.get_by_role("link", name=re.compile("Thursday rules")).first.click()

    section = page.locator("section.house-transfer")
    expect(section.get_by_role("heading", name="Pass to another table")).to_be_visible()
    expect(section.locator(".qr-box svg")).to_be_visible()
    download_href = section.get_by_role("link", name="Download the file (JSON)").get_attribute("href")
    assert re.fullmatch(r"/house-rules/\d+/export\.json", download_href)
    assert fits(page)
    section.scroll_into_view_if_needed()
    section.screenshot(path=str(_shot("house-transfer-01-section")))

    # the QR code's link names the address phones use; this test's server listens on 127.0.0.1 only
    link = urlsplit(section.get_by_role("link", name="The link itself").get_attribute("href"))
    assert link.path == "/house-rules/import" and link.query.startswith("rules=")
    page.goto(f"{live_server}{link.path}?{link.query}")
    expect(page.get_by_role("heading", name="Import a rule set")).to_be_visible()
    pasted = json.loads(page.get_by_label("Or its text").input_value())
    assert pasted["name"] == "Thursday rules" and pasted["values"] == {"canasta_natural": 600}
    expect(page.get_by_label("Name", exact=True)).to_have_value("Thursday rules")
    expect(page.get_by_text("From Classic Canasta (4 players, 2 partnerships); 1 value changed.")).to_be_visible()
    assert fits(page)
    screenshot(page, "house-transfer-02-import-light")

    # this table has them already: refused beside the name, the text kept
    page.get_by_role("button", name="Import these rules").click()
    expect(page.locator("#name-error")).to_have_text("A rule set of that name exists.")
    assert json.loads(page.get_by_label("Or its text").input_value()) == pasted
    screenshot(page, "house-transfer-03-refused-beside-the-name")

    page.get_by_label("Name", exact=True).fill("Thursday at the next table")
    page.get_by_role("button", name="Import these rules").click()
    expect(page.get_by_text("Kept: Thursday at the next table.")).to_be_visible()
    page.get_by_role("link", name=re.compile("Thursday at the next table")).click()
    expect(page.get_by_label(re.compile("Natural canastas: bonus each"))).to_have_value("600")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_section_and_the_import_page_in_light_and_dark(chromium, live_server, scheme):
    context = chromium.new_context(**PHONE, color_scheme=scheme)
    context.set_default_timeout(5000)
    page = context.new_page()
    try:
        page.goto(live_server + "/house-rules")
        page.get_by_role("link", name="Import a rule set").click()
        page.get_by_label("Or its text").fill('{"format": "canasta-rule-set", "version": 2}')
        page.get_by_role("button", name="Import these rules").click()
        expect(page.locator("#document-error")).to_contain_text("version: This file is of version 2")
        assert fits(page)
        page.screenshot(path=str(_shot(f"house-transfer-04-import-refused-{scheme}")), full_page=True)
        # a rule set of its own, pasted, and its page's section
        document = {
            "format": "canasta-rule-set",
            "version": 1,
            "name": f"Colours {scheme}",
            "base": "modern",
            "layout": "4",
            "values": {"going_out_bonus": 200},
        }
        page.get_by_label("Or its text").fill(json.dumps(document))
        page.get_by_label("Name", exact=True).fill("")
        page.get_by_role("button", name="Import these rules").click()
        expect(page.get_by_text(f"Kept: Colours {scheme}.")).to_be_visible()
        page.get_by_role("link", name=re.compile(f"Colours {scheme}")).click()
        section = page.locator("section.house-transfer")
        section.scroll_into_view_if_needed()
        assert fits(page)
        section.screenshot(path=str(_shot(f"house-transfer-05-section-{scheme}")))
    finally:
        context.close()


def _shot(name: str):
    """Where a screenshot goes (tests/browser/screenshots, as the ``screenshot`` fixture's)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"
