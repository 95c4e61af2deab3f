"""A phone that loses the network for two hands: both are kept, shown as waiting and stored as two
hands in order when it is back; a typo is shown before anything is kept; "went out" and "the
stock ran out" exclude each other."""

import re
import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper import create_app
from tests.browser.live import browser, keep_for_offline, live_url, phone_context, start_classic  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def _keep_on_the_phone(page, game_url: str, melded: str) -> None:
    """A hand the stock ended (side A melded ``melded``, side B 60) entered on the cached form while
    the network is down: kept on the phone, back on the sheet."""
    page.locator('a[href$="/hands/new"]').first.click()
    page.locator('input[name="sides-0-melded_points"]').fill(melded)
    page.locator('input[name="sides-1-melded_points"]').fill("60")
    page.locator("#out-stock").check(force=True)
    page.locator('form.hand-form button[type="submit"]').last.click()
    page.wait_for_url(game_url)


def _stored(page, api: str, count: int) -> list:
    """The game's hands once the server holds ``count`` of them (the phone sends its queue by itself)."""
    for _ in range(100):
        hands = page.request.get(api).json()["hands"]
        if len(hands) == count:
            return hands
        page.wait_for_timeout(200)
    return hands


def test_two_hands_entered_offline_are_stored_as_two(browser, live_url):
    context, page = phone_context(browser)
    game_url = start_classic(page, live_url)
    keep_for_offline(page, game_url)

    # the two ways a hand ends exclude each other
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
    stock = page.locator("#out-stock")
    stock.check(force=True)
    page.locator('label[for="out-0"]').click()
    expect(page.locator("#out-0")).to_be_checked()
    expect(stock).not_to_be_checked()
    stock.check(force=True)
    expect(page.locator("#out-0")).not_to_be_checked()

    context.set_offline(True)
    # a typo is shown beside the field, and nothing is kept on the phone
    page.locator('input[name="sides-0-melded_points"]').fill("1O0")
    page.locator('input[name="sides-1-melded_points"]').fill("60")
    page.get_by_role("button", name="Save hand 1").click()
    page.wait_for_timeout(500)
    assert (
        page.evaluate("document.querySelector('input[name=\"sides-0-melded_points\"]').validationMessage")
        == "Enter a whole number."
    )
    assert page.evaluate("JSON.parse(localStorage.getItem('canasta-queue') || '[]').length") == 0
    # hand 1, corrected, then hand 2 from the cached form
    page.locator('input[name="sides-0-melded_points"]').fill("100")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
    kept = page.evaluate(
        "import('/static/app.js').then((app) => app.queue.items()[0].body)"
    )  # the stock ran out, nobody went out
    assert kept["stock_out"] is True and [side["went_out"] for side in kept["sides"]] == [None, None]
    page.locator('a[href$="/hands/new"]').first.click()
    page.locator('input[name="sides-0-melded_points"]').fill("50")
    page.locator('input[name="sides-1-melded_points"]').fill("90")
    page.locator("#out-stock").check(force=True)
    page.locator('form.hand-form button[type="submit"]').last.click()
    waiting = page.locator("#waiting-hands")
    expect(waiting).to_contain_text("2 hands are waiting to be sent")
    expect(waiting).to_contain_text("Hand 1 of")
    expect(waiting).to_contain_text("Hand 2 of")

    context.set_offline(False)
    expect(page.locator("#waiting-hands")).to_have_count(0, timeout=15000)
    game = page.request.get(live_url + "/api/games/" + game_url.rsplit("/", 1)[1]).json()
    assert len(game["hands"]) == 2 and game["totals"] == [150, 150]
    # the scoreboard again at its top, saying so with the last hand sent: no scrolling to find it
    confirmation = page.locator(".flash", has_text="Hand saved: it was waiting on this phone.")
    expect(confirmation).to_have_count(1, timeout=15000)
    expect(confirmation.locator('.saved-line[data-hand="2"]')).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    assert page.locator("p.total").all_inner_texts() == ["150", "150"]
    context.close()


def test_the_next_hands_form_offline_names_its_dealer_after_the_hands_waiting(browser, live_url):
    """A review saw "Hand 2 · Dealt by" hand 1's dealer, and hand 1's totals, on the form opened offline
    with hand 1 waiting on the phone. The dealer is the one the server names for hand 2 once hand 1 is
    stored; the totals, not known offline, are said to follow."""
    context, page = phone_context(browser)
    game_url = start_classic(page, live_url)
    keep_for_offline(page, game_url)
    first_dealer = page.locator(".dealer strong").first.inner_text()
    context.set_offline(True)
    _keep_on_the_phone(page, game_url, "100")
    page.locator('a[href$="/hands/new"]').first.click()
    form = page.locator("form.hand-form[data-ready]")
    expect(form.locator('button[type="submit"]').last).to_contain_text("2")
    offline_dealer = page.locator(".dealt").first.inner_text()
    assert first_dealer not in offline_dealer, offline_dealer
    heads = page.locator(".side-head .hint").all_inner_texts()
    assert heads == ["Total and opening meld once the hands waiting are sent"] * 2
    context.set_offline(False)
    api = live_url + "/api/games/" + game_url.rsplit("/", 1)[1]
    _stored(page, api, 1)
    look = context.new_page()
    look.goto(game_url + "/hands/new")
    assert look.locator(".dealt").first.inner_text() == offline_dealer
    context.close()


def test_a_hand_another_phone_saved_meanwhile_is_refused_and_can_be_removed(browser, live_url):
    phones = [phone_context(browser), phone_context(browser)]
    (offline_context, offline), (_, other) = phones
    game_url = start_classic(offline, live_url)
    offline.get_by_role("link", name="Enter hand 1").click()
    offline_context.set_offline(True)
    offline.locator('input[name="sides-0-melded_points"]').fill("100")
    offline.locator('input[name="sides-1-melded_points"]').fill("60")
    offline.locator("#out-stock").check(force=True)
    offline.get_by_role("button", name="Save hand 1").click()
    expect(offline.locator("#waiting-hands")).to_contain_text("1 hand is waiting to be sent")
    # meanwhile the other phone enters the same hand 1
    other.goto(game_url + "/hands/new")
    other.locator('input[name="sides-0-melded_points"]').fill("100")
    other.locator('input[name="sides-1-melded_points"]').fill("60")
    other.locator("#out-stock").check(force=True)
    other.get_by_role("button", name="Save hand 1").click()
    expect(other.locator("main[data-saved]")).to_have_count(1)  # saved: the scoreboard of the answer
    offline_context.set_offline(False)
    waiting = offline.locator("#waiting-hands")
    expect(waiting).to_contain_text("not accepted", timeout=15000)
    expect(waiting).to_contain_text("another phone saved hand 1")
    waiting.get_by_role("button", name="Remove from this phone").click()
    expect(offline.locator("#waiting-hands")).to_have_count(0)
    game = other.request.get(live_url + "/api/games/" + game_url.rsplit("/", 1)[1]).json()
    assert len(game["hands"]) == 1  # stored once
    for context, _ in phones:
        context.close()


def test_switching_the_language_mid_entry_keeps_what_was_typed(browser, live_url):
    context, page = phone_context(browser)
    start_classic(page, live_url)
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
    page.locator('label[for="out-0"]').click()
    page.locator('form.hand-form .cell[data-side="0"]').get_by_role("button", name="Natural canastas plus one").click()
    page.locator('input[name="sides-0-melded_points"]').fill("215")
    page.locator('input[name="sides-1-melded_points"]').fill("60")
    page.get_by_role("link", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator('input[name="sides-0-melded_points"]')).to_have_value("215")
    expect(page.locator('input[name="sides-1-melded_points"]')).to_have_value("60")
    expect(page.locator('input[name="sides-0-natural_canastas"]')).to_have_value("1")
    expect(page.locator("#out-0")).to_be_checked()
    expect(page.locator("#how-normal")).to_be_checked()
    # docs/rules.md#classic: 100 + 500 + 215 = 815, shown again in the preview
    expect(page.locator('[data-score="0"]')).to_contain_text("+815")
    # and it says so, in the page's language (a hand typed before must not be saved unawares)
    expect(page.locator(".draft-note")).to_contain_text("noch nicht gespeichert")
    page.locator('form.hand-form button[type="submit"]').last.click()
    expect(page.locator("main[data-saved]")).to_have_count(1)
    page.get_by_role("link", name=re.compile("Runde 2")).first.click()
    expect(page.locator('input[name="sides-0-melded_points"]')).to_have_value("")  # saved: no draft left
    expect(page.locator(".draft-note")).to_have_count(0)  # nothing came back, nothing said
    # a hand typed, left, and opened again: "Start afresh" empties it and forgets it
    page.locator('input[name="sides-1-melded_points"]').fill("90")
    page.get_by_role("link", name="English").click()
    expect(page.locator('input[name="sides-1-melded_points"]')).to_have_value("90")
    note = page.locator(".draft-note")
    expect(note).to_contain_text("What you typed before is back: it is not saved yet.")
    note.get_by_role("button", name="Start afresh").click()
    expect(page.locator('input[name="sides-1-melded_points"]')).to_have_value("")
    expect(page.locator('[data-score="1"]')).not_to_contain_text("90")
    expect(page.locator(".draft-note")).to_have_count(0)
    page.reload()
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
    expect(page.locator('input[name="sides-1-melded_points"]')).to_have_value("")  # the draft is gone too
    context.close()


def test_a_half_typed_hand_survives_a_closed_tab_and_another_phones_save(browser, live_url):
    """A review lost typing two ways: the tab closed (it was kept for the tab only), and a change of
    language after another phone saved hand 1 (the form, now hand 2, looked for hand 1's typing)."""
    context, page = phone_context(browser)
    game_url = start_classic(page, live_url)
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
    page.locator('input[name="sides-0-melded_points"]').fill("345")
    page.locator('input[name="sides-1-melded_points"]').fill("95")
    page.close()  # the tab closed
    page = context.new_page()
    page.goto(game_url + "/hands/new")
    expect(page.locator('input[name="sides-0-melded_points"]')).to_have_value("345")
    expect(page.locator(".draft-note")).to_contain_text("What you typed before is back")
    # another phone saves hand 1 meanwhile; this one changes its language: its typing is on hand 2's form
    other = context.browser.new_context().new_page()
    other.goto(game_url + "/hands/new")
    other.locator('input[name="sides-0-melded_points"]').fill("100")
    other.locator('input[name="sides-1-melded_points"]').fill("60")
    other.locator("#out-stock").check(force=True)
    other.get_by_role("button", name="Save hand 1").click()
    expect(other.locator("main[data-saved]")).to_have_count(1)
    page.get_by_role("link", name="Italiano").click()
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator('form.hand-form button[type="submit"]').last).to_contain_text("2")
    expect(page.locator('input[name="sides-0-melded_points"]')).to_have_value("345")
    expect(page.locator('input[name="sides-1-melded_points"]')).to_have_value("95")
    other.context.close()
    context.close()


def test_start_afresh_puts_a_list_of_ways_out_back_to_its_first(browser, live_url):
    """Modern's ways of going out are a list (more than three): "Start afresh" puts it back to its first
    choice, never to nothing (a hand sent without a way would be taken as a plain going out)."""
    context, page = phone_context(browser)
    page.goto(live_url + "/games/new/modern")
    for seat, name in enumerate(("Anna", "Bert", "Carla", "Dieter"), start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game = page.url
    page.goto(game + "/hands/new")
    expect(page.locator("form.hand-form[data-ready]")).to_have_count(1)
    first = page.locator("select#how").input_value()
    page.locator('label[for="out-0"]').click()
    page.locator("select#how").select_option(index=2)
    assert page.locator("select#how").input_value() != first
    page.goto(game + "/hands/new")  # left and opened again: it comes back, and says so
    expect(page.locator(".draft-note")).to_have_count(1)
    page.locator(".draft-note").get_by_role("button", name="Start afresh").click()
    expect(page.locator("select#how")).to_have_value(first)
    context.close()


def test_a_refused_queued_hand_does_not_take_the_next_one_down_and_an_expired_token_is_renewed(browser, live_url):
    context, page = phone_context(browser)
    game_url = start_classic(page, live_url)
    keep_for_offline(page, game_url)
    context.set_offline(True)
    # hand 1 with a miscount the phone cannot see (docs/rules.md › How a hand is scored: 12 is no multiple of 5), then a
    # good hand 2
    for melded in ("12", "100"):
        _keep_on_the_phone(page, game_url, melded)  # kept on the phone, back on the sheet
        expect(page.locator("#waiting-hands")).to_be_visible()
    # the phone's form token has expired meanwhile (the server was restarted with a new secret, say)
    page.evaluate("""() => {
        const q = JSON.parse(localStorage.getItem('canasta-queue'));
        q.forEach(item => { item.csrf = 'expired'; });
        localStorage.setItem('canasta-queue', JSON.stringify(q));
    }""")
    context.set_offline(False)
    waiting = page.locator("#waiting-hands")
    expect(waiting).to_contain_text("not accepted", timeout=20000)
    expect(waiting).to_contain_text("multiple of 5")
    # hand 2 waits for hand 1: sent now, it would be stored as hand 1 (a review found the order lost so)
    expect(waiting.locator("li").nth(1)).to_contain_text("waits for the hand before it")
    api = live_url + "/api/games/" + game_url.rsplit("/", 1)[1]
    assert page.request.get(api).json()["hands"] == []
    assert "Enter it again. Enter it again" not in waiting.inner_text()
    # hand 1 taken off the phone: hand 2 goes, as hand 1 now
    waiting.locator("li").first.get_by_role("button", name="Remove from this phone").click()
    expect(page.locator("#waiting-hands")).to_have_count(0, timeout=20000)
    game = page.request.get(api).json()
    assert len(game["hands"]) == 1 and game["totals"] == [100, 60]
    context.close()


def test_a_refused_queued_hand_entered_again_is_stored_before_the_one_it_held_back(browser, live_url):
    context, page = phone_context(browser)
    game_url = start_classic(page, live_url)
    keep_for_offline(page, game_url)
    context.set_offline(True)
    # docs/rules.md#classic › Card values: hand 1 with 12 melded (no multiple of 5), hand 2 with 100
    for melded in ("12", "100"):
        _keep_on_the_phone(page, game_url, melded)
    context.set_offline(False)
    waiting = page.locator("#waiting-hands")
    expect(waiting).to_contain_text("multiple of 5", timeout=20000)
    waiting.locator("li").first.get_by_role("button", name="Open it in the form").click()
    melded = page.locator('input[name="sides-0-melded_points"]')
    expect(melded).to_have_value("12")
    melded.fill("120")
    page.get_by_role("button", name="Save hand 1").click()
    api = live_url + "/api/games/" + game_url.rsplit("/", 1)[1]
    hands = _stored(page, api, 2)  # the hand it held back is sent once it is stored
    assert [hand["sides"][0]["score"] for hand in hands] == [120, 100]  # in the order played
    look = context.new_page()  # this page reloads itself once the hand is sent: another tab looks
    look.goto(game_url)
    expect(look.locator("#waiting-hands")).to_have_count(0)
    context.close()


def test_a_queued_hand_after_one_another_phone_saved_is_stored_as_the_next(browser, live_url):
    """Phone A keeps hands 1 and 2 offline; phone B saves hand 1 meanwhile (the same hand). A's hand 1
    is refused as saved by another phone; its hand 2 is stored as hand 2 (a review found both refused)."""
    phones = [phone_context(browser), phone_context(browser)]
    (offline_context, offline), (_, other) = phones
    game_url = start_classic(offline, live_url)
    keep_for_offline(offline, game_url)
    offline_context.set_offline(True)
    for melded in ("100", "200"):
        _keep_on_the_phone(offline, game_url, melded)
    other.goto(game_url + "/hands/new")
    other.locator('input[name="sides-0-melded_points"]').fill("100")
    other.locator('input[name="sides-1-melded_points"]').fill("60")
    other.locator("#out-stock").check(force=True)
    other.get_by_role("button", name="Save hand 1").click()
    expect(other.locator("main[data-saved]")).to_have_count(1)
    offline_context.set_offline(False)
    waiting = offline.locator("#waiting-hands")
    expect(waiting).to_contain_text("another phone saved hand 1", timeout=20000)
    expect(waiting.locator("li")).to_have_count(1, timeout=20000)  # hand 2 went through
    game = other.request.get(live_url + "/api/games/" + game_url.rsplit("/", 1)[1]).json()
    assert [hand["sides"][0]["score"] for hand in game["hands"]] == [100, 200]
    for context, _ in phones:
        context.close()


def test_a_service_worker_refused_once_is_registered_again_while_the_page_stays_open(browser, tmp_path):
    """The server busy (or the Wi-Fi gone) at the moment a page registers the service worker: the open
    page tries again a few seconds later and takes control, without being opened again."""
    app = create_app({"TESTING": True, "SECRET_KEY": "browser-test", "DATABASE": str(tmp_path / "sw.sqlite")})
    asked = []

    def busy_once(environ, start_response, inner=app.wsgi_app):
        if environ["PATH_INFO"] == "/sw.js":
            asked.append(len(asked) + 1)
            if len(asked) == 1:
                start_response("503 Service Unavailable", [("Content-Type", "text/plain"), ("Retry-After", "1")])
                return [b"busy"]
        return inner(environ, start_response)

    app.wsgi_app = busy_once
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    context, page = phone_context(browser)
    try:
        page.goto(f"http://127.0.0.1:{server.server_port}/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=12000)
        assert page.evaluate("location.pathname") == "/"  # the same page, never opened again
        assert len(asked) >= 2  # refused once, then registered
    finally:
        context.close()
        server.shutdown()
