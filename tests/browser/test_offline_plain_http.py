"""Entry through a dropped connection where phones run it: plain http:// on a name that is not
localhost, so not a secure context and no service worker (Chromium maps ``table.lan`` to this
machine with --host-resolver-rules). The connection is cut by a small TCP proxy between the
browser and the server that the test stops and starts (a truer cut than the browser's offline
switch: the browser still thinks it is online), or that lets the server store a hand and then loses
its answer. A hand saved during a cut is stored exactly once after it, and nothing typed is lost.

Also: a refused queued hand opens again in the form with its figures and why it was refused, and
without script the forms work as before."""

from __future__ import annotations

import json
import re
import threading
import urllib.request

import pytest
from cryptography import x509
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.network import tls
from tests.browser.cut import Cut
from tests.browser.live import ARGS, need_chromium, shot, start_classic

pytestmark = pytest.mark.browser

NAME = "table.lan"
WAIT = 30000  # a loaded two-core machine: generous, and every wait is for an explicit state


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app (CSRF on) on 127.0.0.1, answering to table.lan too, with the cut in front of it:
    yields (the browser's base URL through the cut, the server's own URL, the cut, the authority's
    certificate)."""
    folder = tmp_path_factory.mktemp("plain-http")
    tls.ensure(tls.files(folder), [NAME, "127.0.0.1"])  # as start.sh --https does, for the /trust page
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "plain-http",
            "DATABASE": str(folder / "scorekeeper.sqlite"),
            "EXTRA_HOSTS": [NAME],
            "TLS_FOLDER": str(folder / "tls"),
            "HTTPS_PORT": 8443,
        }
    )
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    cut = Cut(httpd.server_port)
    yield f"http://{NAME}:{cut.port}", f"http://127.0.0.1:{httpd.server_port}", cut, folder / "tls" / "ca.pem"
    cut.stop()
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium that finds table.lan at 127.0.0.1."""
    need_chromium()
    from playwright.sync_api import sync_playwright

    expect.set_options(timeout=WAIT)

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=[*ARGS, f"--host-resolver-rules=MAP {NAME} 127.0.0.1"]
        )
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser, server):
    """A phone-sized page; the cut is mended after each test."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.set_default_timeout(WAIT)
    page = context.new_page()
    yield page
    context.close()
    cut = server[2]
    cut.swallow = False
    if cut.listener is None:
        cut.start()


def hands(direct: str, game_url: str) -> list[dict]:
    """The game's hands as the server holds them (asked directly, not through the cut)."""
    with urllib.request.urlopen(f"{direct}/api/games/{game_url.rsplit('/', 1)[1]}", timeout=20) as answer:
        return json.load(answer)["hands"]


def fill(page, us: str, them: str, stock_out: bool = True) -> None:
    """Type a hand in the form shown (a hand where nobody went out)."""
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)  # its script is running
    page.locator('input[name="sides-0-melded_points"]').fill(us)
    page.locator('input[name="sides-1-melded_points"]').fill(them)
    if stock_out:
        page.locator("#out-stock").check(force=True)


def melded(page) -> list[str]:
    return [page.locator(f'input[name="sides-{i}-melded_points"]').input_value() for i in (0, 1)]


def test_not_a_secure_context(phone, server):
    base, _, _, _ = server
    phone.goto(base + "/")
    assert phone.evaluate("window.isSecureContext") is False
    assert phone.evaluate("'serviceWorker' in navigator") is False


def test_the_trust_page_offers_the_authority_over_plain_http(phone, server):
    base, _, _, ca_cert = server
    page = phone
    page.goto(base + "/")
    page.get_by_role("link", name="Install the app").click()
    expect(page.get_by_role("heading", name="Install the app on a phone")).to_be_visible()
    assert page.evaluate("window.isSecureContext") is False
    download = page.get_by_role("link", name="Download the certificate")
    assert download.get_attribute("href") == base + "/trust/ca.crt"
    expect(page.locator(".qr-box svg")).to_be_visible()
    expect(page.get_by_role("heading", name="Android (Chrome)")).to_be_visible()
    expect(page.get_by_role("heading", name="iPhone and iPad (Safari)")).to_be_visible()
    expect(page.get_by_role("link", name=f"https://{NAME}:8443/")).to_be_visible()
    assert page.locator("code.fingerprint").inner_text().count(":") == 31  # SHA-256, as phones show it
    shot(page, "plain-http-trust-page")
    with page.expect_download() as info:
        download.click()
    assert info.value.suggested_filename.endswith(".crt")
    with open(info.value.path(), "rb") as downloaded:
        assert x509.load_der_x509_certificate(downloaded.read()) == x509.load_pem_x509_certificate(ca_cert.read_bytes())


def test_a_hand_saved_during_a_cut_is_stored_once_after_it_and_nothing_typed_is_lost(phone, server):
    base, direct, cut, _ = server
    page = phone
    game_url = start_classic(page, base)
    expect(page.locator("a[data-kept]")).to_have_count(1)  # the next hand's form is kept in the page
    cut.stop()

    # to the form and back to the score and to the form again, with no network
    page.get_by_role("link", name="Enter hand 1").click()
    fill(page, "120", "65")
    page.get_by_role("link", name="Back to the score").click()
    expect(page.locator("p.total").first).to_have_text("0")
    expect(page.locator("form.hand-form")).to_have_count(0)
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
    assert melded(page) == ["120", "65"]  # nothing typed is lost
    assert page.locator("#out-stock").is_checked()

    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
    assert page.url == game_url  # the scoreboard, not a browser error page
    expect(page.locator("p.total").first).to_have_text("0")
    assert hands(direct, game_url) == []

    cut.start()  # the connection is back: the queue sends it (the browser never noticed it was gone)
    expect(page.locator("#waiting-hands")).to_have_count(0, timeout=WAIT)
    expect(page.locator("p.total").first).to_have_text("120", timeout=WAIT)
    assert page.locator("p.total").all_inner_texts() == ["120", "65"]
    stored = hands(direct, game_url)
    assert len(stored) == 1
    assert [side["melded_points"] for side in stored[0]["entry"]] == [120, 65] and stored[0]["stock_out"]
    assert page.evaluate("import('/static/app.js').then((app) => app.queue.items().length)") == 0
    page.wait_for_timeout(5000)  # a queue round later (every 4 s): nothing is sent again
    assert len(hands(direct, game_url)) == 1


def test_a_hand_whose_answer_is_lost_in_the_cut_is_stored_once(phone, server):
    base, direct, cut, _ = server
    page = phone
    game_url = start_classic(page, base)
    expect(page.locator("a[data-kept]")).to_have_count(1)
    page.get_by_role("link", name="Enter hand 1").click()
    fill(page, "90", "55")
    cut.swallow = True  # the server gets the hand and stores it; its answer never reaches the phone
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
    assert page.url == game_url
    assert len(hands(direct, game_url)) == 1  # stored already, the phone cannot know

    cut.swallow = False  # the queue sends it again with the same key: stored once
    expect(page.locator("#waiting-hands")).to_have_count(0, timeout=WAIT)
    expect(page.locator("p.total").first).to_have_text("90", timeout=WAIT)
    assert page.locator("p.total").all_inner_texts() == ["90", "55"]
    assert len(hands(direct, game_url)) == 1


def test_the_hand_form_opened_as_a_page_keeps_the_scoreboard(phone, server):
    base, direct, cut, _ = server
    page = phone
    game_url = start_classic(page, base)
    page.goto(game_url + "/hands/new")
    expect(page.locator("form.hand-form[data-score-kept]")).to_have_count(1)
    cut.stop()
    fill(page, "150", "70")
    page.get_by_role("link", name="Back to the score").click()
    expect(page.locator("p.total").first).to_have_text("0")
    assert page.url == game_url
    page.go_back()  # the browser's Back: the form again, as typed
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
    assert melded(page) == ["150", "70"]
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
    assert page.url == game_url
    # a second hand, from the kept form, follows the first
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.get_by_role("heading", name="Hand 2")).to_be_visible()
    fill(page, "50", "90")
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.locator("#waiting-hands")).to_contain_text("2 hands are waiting to be sent")

    cut.start()
    expect(page.locator("#waiting-hands")).to_have_count(0, timeout=WAIT)
    expect(page.locator("p.total").first).to_have_text("200", timeout=WAIT)
    assert page.locator("p.total").all_inner_texts() == ["200", "160"]
    assert len(hands(direct, game_url)) == 2


def test_a_refused_hand_opens_in_the_form_with_its_figures_and_why(phone, server):
    base, direct, cut, _ = server
    page = phone
    game_url = start_classic(page, base)
    expect(page.locator("a[data-kept]")).to_have_count(1)
    cut.stop()
    page.get_by_role("link", name="Enter hand 1").click()
    fill(page, "12", "60")  # 12 is no multiple of 5: only the server says so
    page.locator('form.hand-form .cell[data-side="0"]').get_by_role("button", name="Red threes plus one").click()
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
    cut.start()
    waiting = page.locator("#waiting-hands")
    expect(waiting).to_contain_text("not accepted", timeout=WAIT)
    expect(waiting).to_contain_text("multiple of 5")

    # from another page: the form's own page opens with the figures
    page.goto(base + "/")
    page.locator("#waiting-hands").get_by_role("button", name="Open it in the form").click()
    page.wait_for_url(re.compile(r"/hands/new$"))
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
    assert melded(page) == ["12", "60"]
    page.get_by_role("link", name="Back to the score").click()

    # on the scoreboard: the form opens in the page, filled, with why it was refused on top
    expect(page.locator("#waiting-hands")).to_contain_text("not accepted")
    page.locator("#waiting-hands").get_by_role("button", name="Open it in the form").click()
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
    reason = page.locator("#reopened")
    expect(reason).to_contain_text("not accepted")
    expect(reason).to_contain_text("multiple of 5; 12 is not")
    assert melded(page) == ["12", "60"]
    assert page.locator('input[name="sides-0-red_threes"]').input_value() == "1"
    assert page.locator("#out-stock").is_checked()
    shot(page, "plain-http-refused-hand-reopened")

    page.locator('input[name="sides-0-melded_points"]').fill("60")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("main[data-saved]")).to_have_count(1)  # the scoreboard of the answer, in place
    expect(page.locator(".flash")).to_contain_text("Hand saved.")
    assert page.url == game_url
    assert page.locator("p.total").all_inner_texts() == ["160", "60"]  # 60 + one red three 100
    expect(page.locator("#waiting-hands")).to_have_count(0)  # the refused hand is settled
    assert page.evaluate("import('/static/app.js').then((app) => app.queue.items().length)") == 0
    assert len(hands(direct, game_url)) == 1


def test_without_script_the_forms_work_as_before(browser, server):
    base, direct, _, _ = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    context.set_default_timeout(WAIT)
    page = context.new_page()
    page.goto(base + "/games/new/classic")
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game_url = page.url
    page.get_by_role("link", name="Enter hand 1").click()
    page.wait_for_url(game_url + "/hands/new")
    page.locator('input[name="sides-0-melded_points"]').fill("12")
    page.locator('input[name="sides-1-melded_points"]').fill("60")
    page.locator("#out-stock").check(force=True)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#sides-0-melded_points-error")).to_contain_text("multiple of 5")
    assert page.locator('input[name="sides-1-melded_points"]').input_value() == "60"
    page.locator('input[name="sides-0-melded_points"]').fill("55")
    page.get_by_role("button", name="Save hand 1").click()
    page.wait_for_url(game_url)
    expect(page.get_by_text("Hand saved.")).to_be_visible()
    assert len(hands(direct, game_url)) == 1
    context.close()


def test_a_queued_hand_refused_because_its_round_ended_is_kept_and_shown(phone, server):
    """A tournament table's phone saves a hand during a cut; meanwhile the organiser ends the round
    (docs/tournaments.md, "When a round ends"). When the connection is back the queue sends it, the
    server refuses it (the round is over at this table), and the phone keeps it, shown as not accepted
    with why: never dropped silently, and never stored."""
    from tests.test_tournament_evening import Phone

    base, direct, cut, _ = server
    organiser = Phone(direct)
    fields = dict(
        name="Cut night",
        format="final",
        rules="classic",
        round_end="target",
        entrants="\n".join(f"Cut{c}" for c in "ABCD"),
        season_points="10, 8",
    )
    status, _page, where = organiser.form("/tournaments/new", "/tournaments/new", **fields)
    assert status == 302
    tid = int(where.rsplit("/", 1)[1])
    for step in ("/draw", "/rounds"):
        assert organiser.form(f"/tournaments/{tid}", f"/tournaments/{tid}{step}")[0] == 302
    page = phone
    page.goto(f"{base}/tournaments/{tid}/tables/1")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game_url = page.url
    expect(page.locator("a[data-kept]")).to_have_count(1)
    cut.stop()
    page.get_by_role("link", name="Enter hand 1").click()
    fill(page, "150", "130")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
    assert organiser.form(f"/tournaments/{tid}", f"/tournaments/{tid}/rounds/1/end", sure="y")[0] == 302
    cut.start()
    waiting = page.locator("#waiting-hands")
    expect(waiting).to_contain_text("not accepted", timeout=WAIT)
    expect(waiting).to_contain_text("The round is over at this table")
    assert page.evaluate("import('/static/app.js').then((app) => app.queue.items().length)") == 1  # kept, not dropped
    page.reload()
    expect(page.locator("#waiting-hands")).to_contain_text("not accepted")  # still there after a reload
    assert hands(direct, game_url.replace(base, direct)) == []
