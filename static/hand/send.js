// Saving by script. A stored hand brings the scoreboard in its answer; a refused one the form again
// with the server's messages; no answer (no network, server gone) keeps a new hand in the phone's
// queue (app.js), shown as waiting and sent when the connection is back, while a correction, which
// only the server can check against what it holds, stays in the form to be saved again.
import { notice, previewTotals } from "./checks.js";
import { allSides, loneChoice, outChoice, removeDraft } from "./entry.js";
import { parse, request, SEND_MS } from "./net.js";
import { queue, text, toInt, waitingBefore, wholeNumber } from "./text.js";

let anySending = false;  // a form of this page has been sent (its key is used up)

export function sentFromHere() {
  return anySending;
}

// A fresh key for each entry: the same entry sent twice (double tap, resend, retry) is stored once.
export function freshKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
  return Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
}

function forget(pad) {  // a refused hand entered again is no longer waiting for a decision
  if (pad.reopened && queue() && queue().remove) queue().remove(pad.reopened.key);
}

function done(pad) {
  pad.sending = false;
  anySending = false;
  pad.form.removeAttribute("aria-busy");
}

function clock() {
  const now = new Date();
  return ("0" + now.getHours()).slice(-2) + ":" + ("0" + now.getMinutes()).slice(-2);
}

function queueHand(pad, totals) {
  const form = pad.form;
  const body = { client_key: form.elements.client_key.value, sides: allSides(pad), stock_out: outChoice(form) === "stock" };
  const lone = loneChoice(form);
  if (lone !== undefined) body.lone = lone;
  if (form.elements.by) body.by = form.elements.by.value;  // the organiser's hand, from the director's grid
  // Hands of this game already waiting come first: this one follows them (its number and what it
  // is based on), so two hands entered offline are stored as two hands, in order.
  const before = waitingBefore(form.dataset.queueUrl);
  const basedOn = form.elements.based_on && /^[0-9]+$/.test(form.elements.based_on.value) ? toInt(form.elements.based_on.value) : null;
  if (basedOn !== null) body.based_on = basedOn + before;
  queue().add({
    url: form.dataset.queueUrl, csrf: pad.csrf, body: body, number: toInt(form.dataset.handNumber) + before,
    game: form.dataset.gameName || "the game", savedAt: clock(), totals: totals || null
  });
  forget(pad);
  removeDraft(pad);
  if (pad.options.onQueued) pad.options.onQueued();
  else location.href = form.dataset.gameUrl;
}

// Saved: the top of the scoreboard, fresh from the server, with the totals, the next hand and
// the saved hand's line in view. A new hand's save brings the scoreboard in its answer (the
// redirect followed), shown in place (options.onSaved); a correction loads it.
function saved(pad, answer) {
  forget(pad);
  removeDraft(pad);
  const target = pad.form.dataset.gameUrl || location.pathname;
  if (answer && answer.status === 200 && answer.html && pad.options.onSaved) { pad.options.onSaved(answer); return; }
  if (location.pathname + location.search === target) location.reload();  // the same document
  else location.replace(target);
}

function isGame(pad, url) {  // the answer is the game's scoreboard: the hand was stored
  try { return new URL(url, location.href).pathname === pad.form.dataset.gameUrl; } catch (e) { return false; }
}

// Not saved: the server's answer in place of the form (the form again with its messages and every
// value as sent, or the password page, or an error page).
function answered(pad, answer) {
  done(pad);
  const page = parse(answer.html);
  const view = pad.form.closest("main") || document.querySelector("main");
  if (!page.main) { location.reload(); return; }
  view.innerHTML = page.main.innerHTML;
  if (page.title) document.title = page.title;
  const next = view.querySelector("form.hand-form");
  if (next) pad.again(next);
  // the page now shows the server's answer, as after a form sent without script: tell the browser
  // (the same address, a fresh entry for it)
  history.replaceState(history.state, "", location.href);
}

// Offline nobody checks the figures until later: a field that is not a whole number is shown now,
// beside the field, before the hand is kept on the phone. False when there is one.
function wholeNumbers(form) {
  const bad = Array.prototype.filter.call(form.querySelectorAll('input[type="text"][name^="sides-"]'), (el) => {
    return el.value.trim() !== "" && wholeNumber(el.value) === null;
  });
  bad.forEach((el) => {
    el.setCustomValidity(text("wholeNumber"));
    el.addEventListener("input", () => el.setCustomValidity(""), { once: true });
  });
  if (bad.length) form.reportValidity();
  return !bad.length;
}

// No answer: a new hand is kept on the phone, its new totals still shown (now as waiting to be
// sent); a correction stays here to be saved again.
function unreachable(pad, totals) {
  done(pad);
  const form = pad.form;
  if (!form.dataset.queueUrl || !queue()) {
    if (totals) pad.options.onEarlyUndone();
    notice(form, "unreachable", form.dataset.tUnreachable || "");
    return;
  }
  if (totals) {
    queueHand(pad, totals);
    return;
  }
  if (wholeNumbers(form)) queueHand(pad, null);
}

// The benchmark's baseline (benchmarks/save_to_score.py): the phone's storage says to show the
// scoreboard only with the server's answer.
function waitForServer() {
  try { return localStorage.getItem("canasta-wait-for-server") === "1"; } catch (e) { return false; }
}

// The new totals at once: the scoreboard in place of the pad with the totals the preview gave for
// the hand as it stands, marked as being saved (options.onEarly), until the server answers. Not for
// a hand the preview has not scored as it stands, nor on a page without the scoreboard kept, nor
// while hands of this game wait on the phone (the preview's totals leave them out).
function showEarly(pad) {
  if (!pad.options.onEarly || waitForServer()) return null;
  if (waitingBefore(pad.form.dataset.queueUrl)) return null;
  const totals = previewTotals(pad);
  if (!totals) return null;
  return pad.options.onEarly(totals, toInt(pad.form.dataset.handNumber)) ? totals : null;
}

function send(pad) {
  const form = pad.form;
  pad.sending = true;
  anySending = true;
  form.setAttribute("aria-busy", "true");
  notice(form, "unreachable", "");
  const follow = !!pad.options.onSaved;  // the scoreboard comes back in the same answer
  const options = { method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin", redirect: follow ? "follow" : "manual" };
  if (follow) options.headers = { "X-Canasta-Pad": "1" };
  const early = showEarly(pad);  // after the form's values are read: the pad leaves the page now
  request(pad.action, options, SEND_MS).then((answer) => {
    const stored = follow ? (answer.saved || answer.redirected) && isGame(pad, answer.url) : answer.redirected;
    if (stored) { done(pad); saved(pad, answer); return; }
    if (early) pad.options.onEarlyUndone();  // refused: the pad again, with what was typed and why
    answered(pad, answer);
  }, () => unreachable(pad, early));
}

export function wireSending(pad) {
  pad.form.addEventListener("submit", (event) => {
    if (!window.fetch || !window.URLSearchParams || !window.FormData) {  // an old browser: sent as a page, once
      if (pad.sending) event.preventDefault();
      pad.sending = true;
      removeDraft(pad);
      return;
    }
    event.preventDefault();
    if (pad.sending) return;  // a double tap sends once
    send(pad);
  });
}
