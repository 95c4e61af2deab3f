// One hand form: steppers for small counts, counts that move on by themselves, a live preview of
// each side's hand score from the server's own scoring, the problems of its checks beside their
// fields, a draft kept on the phone, and saving by script (send.js).
import { notice, preview, schedule, showFirstProblem, wireProblems } from "./checks.js";
import { modeChoice, outChoice, restore, saveDraft } from "./entry.js";
import { freshKey, wireSending } from "./send.js";
import { toInt, wholeNumber } from "./text.js";

// ---- the counts ---------------------------------------------------------------------------------
// Entering small numbers on a phone: the − / + steppers, and counting cards by typing, where a count
// that cannot take another digit (the deck has no more of its cards left) moves on to the next count
// by itself, a digit that would pass what is left starts the next count, and the + of the count where
// the typing is or goes next gives it and moves on. No timers.
function step(button) {
  const input = document.getElementById(button.dataset.target);
  const max = toInt(input.dataset.max) || 99;
  const next = Math.min(max, Math.max(0, (wholeNumber(input.value) || 0) + toInt(button.dataset.delta)));
  input.value = next === 0 ? "" : String(next);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

// The counts in the order they are typed: every side's melded counts, then every side's cards in hand.
function countOrder(pad) {
  const all = Array.from(pad.form.querySelectorAll("input[data-count]"));
  const order = [];
  ["melded", "hand"].forEach((part) => {
    for (let i = 0; i < pad.totals.length; i++) {
      all.forEach((el) => {
        if (el.dataset.count === part && toInt(el.closest("[data-side]").dataset.side) === i) order.push(el);
      });
    }
  });
  return order;
}

// Counts the typing passes over (tap their + to give them): melded black threes (melded only when
// going out, and seldom then), and the jokers and black threes left in a hand (a side caught with one
// is rare; an empty count to type "0" into would cost every other hand a keystroke).
const PASSED_OVER = { melded: ["black_threes"], hand: ["jokers", "black_threes"] };

// The count after this one, down the side's column, then to the next side. Passed over besides: the
// cards left in hand of the side that went out.
function nextCount(pad, input) {
  const order = countOrder(pad);
  const out = outChoice(pad.form);
  for (let k = order.indexOf(input) + 1; k < order.length; k++) {
    const el = order[k];
    if (el.dataset.count === "hand" && out === el.closest("[data-side]").dataset.side) continue;
    if ((PASSED_OVER[el.dataset.count] || []).indexOf(el.dataset.card) >= 0) continue;
    return el;
  }
  return null;
}

function moveOn(pad, input) {
  const next = nextCount(pad, input);
  if (next) { next.focus(); next.select(); }
}

// The most this count can be now: what the deck holds of its cards, less what the other counts
// already give (every side's, melded and in hand: docs/rules.md, "Card values"). A count that holds
// other cards besides its own (data-pool: the 7 to 4 left in hand hold the black threes too) takes
// them all from its own and every other count of them; from a count of its own cards alone it takes
// only what the other cards left in the deck cannot be (7 to 4 and black threes in hand 8, with no
// black three counted apart: at least 4 of them are 7 to 4).
function poolOf(el) {
  return (el.dataset.pool || "").split(" ").filter(Boolean);
}

function most(pad, input) {
  const extra = poolOf(input);
  const all = Array.from(pad.form.querySelectorAll("input[data-count]"));
  let left = toInt(input.dataset.max) || 99;
  let shared = 0, room = 0, others = [];
  all.forEach((el) => {
    if (el === input) return;
    const n = wholeNumber(el.value) || 0;
    if (!extra.length && el.dataset.card === input.dataset.card && el.dataset.pool) {
      shared += n;
      room = toInt(el.dataset.poolDeck);
      others = poolOf(el);
    } else if (el.dataset.card === input.dataset.card || extra.indexOf(el.dataset.card) >= 0) {
      left -= n;
    }
  });
  if (shared) {
    all.forEach((el) => {
      if (!el.dataset.pool && others.indexOf(el.dataset.card) >= 0) room -= wholeNumber(el.value) || 0;
    });
    left -= Math.max(0, shared - Math.max(room, 0));
  }
  return Math.max(left, 0);
}

// A count that cannot take another digit: it would pass what is left of the deck, or it is 0.
function full(pad, input) {
  const value = input.value.trim();
  if (!/^[0-9]+$/.test(value)) return false;
  return toInt(value) * 10 > most(pad, input) || value === "0";
}

// A digit that would make the count more than the deck has left starts the next count: "1" then
// "9" for 2s and aces, with 2 already counted, is 1, and 9 of the next. Only an empty next count
// takes it: a digit typed onto a count entered earlier (a correction) never changes another count;
// the count shows what was typed, and the checks say that it is more than the deck holds.
function overflow(pad, input) {
  const value = input.value.trim();
  if (!/^[0-9]{2,}$/.test(value) || toInt(value) <= most(pad, input)) return false;
  const next = nextCount(pad, input);
  if (!next || next.value.trim() !== "") return false;
  const digit = value.slice(-1);
  input.value = value.slice(0, -1);
  input.dispatchEvent(new Event("input", { bubbles: true }));
  next.focus();
  next.value = digit;
  next.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText", data: digit }));
  return true;
}

// A + tap on the count where the typing is, or on the count it goes to next, gives that count and
// moves the typing past it, as typing its digit would: a tap on the next row is the move (with a 7–4
// count of 3 waiting, since 30 fits the deck, the next count's 1 joker is its +, not a tap into it
// and a "1"). Any other − / + tap leaves the typing where it is.
function givenByPlus(pad, typing, input) {
  if (!typing || !typing.dataset || !typing.dataset.count || !pad.form.contains(typing)) return false;
  if (!input.dataset.count) return false;  // canastas and threes: the typing stays
  return input === typing || input === nextCount(pad, typing);
}

function wireCounts(pad) {
  const form = pad.form;
  form.addEventListener("click", (event) => {
    const button = event.target.closest("button.step");
    if (!button) return;
    const typing = document.activeElement;  // the − / + taps keep the typing where it is (below)
    step(button);
    const input = document.getElementById(button.dataset.target);
    if (toInt(button.dataset.delta) > 0 && givenByPlus(pad, typing, input)) moveOn(pad, input);
  });
  // a − / + tap while counting keeps the typing where it is (the keypad stays up)
  form.addEventListener("mousedown", (event) => {
    const active = document.activeElement;
    if (event.target.closest("button.step") && active && active.dataset && active.dataset.count && form.contains(active)) {
      event.preventDefault();
    }
  });
  // who went out is said first, counting the cards comes next: on the count pad, with nothing
  // counted yet, the typing starts at the first count (the + taps for canastas and threes keep it
  // there). Only after a tap: a keyboard's arrows move from one choice to the next, each a change,
  // and the focus stays on the choices until the reader moves on (WCAG 3.2.2, On Input).
  let tapped = 0;
  form.addEventListener("pointerdown", (event) => {
    const choice = event.target.closest("label, input");
    const input = choice && (choice.control || choice);
    tapped = input && input.name === "out" ? Date.now() : 0;
  });
  form.addEventListener("change", (event) => {
    if (event.target.name !== "out" || modeChoice(form) !== "counts") return;
    if (Date.now() - tapped > 1500) return;
    if (Array.prototype.some.call(form.querySelectorAll("input[data-count]"), (el) => el.value.trim() !== "")) return;
    const first = nextCount(pad, null);
    if (first) first.focus({ preventScroll: true });
  });
  form.addEventListener("keydown", (event) => {
    const input = event.target;
    if (event.key !== "Enter" || !input.dataset || !input.dataset.count) return;
    event.preventDefault();  // the keypad's Next: the next count, not a save
    moveOn(pad, input);
  });
  form.addEventListener("input", (event) => {
    const input = event.target;
    // typed digits only: not a − / + tap (its input event has no inputType), not a deletion
    if (!input.dataset || !input.dataset.count || event.inputType !== "insertText") return;
    if (overflow(pad, input)) return;
    if (full(pad, input)) moveOn(pad, input);
  });
}

// ---- the form ----------------------------------------------------------------------------------
// One form's state, shared by the functions of these modules.
function padOf(form, options) {
  return {
    form: form,
    options: options,
    fields: JSON.parse(form.dataset.fields || "[]"),  // the side-entry table (entry.js)
    action: form.getAttribute("action") || location.pathname,
    totals: form.dataset.totals.split(",").map(toInt),
    sideNames: JSON.parse(form.dataset.sideNames || "[]"),
    csrf: form.elements.csrf_token ? form.elements.csrf_token.value : "",
    // The server's messages (a refused save) stay until the player changes something; then the
    // live checks take over.
    edited: false,
    timer: null,  // the preview asked for a moment after typing
    asked: 0,  // the latest preview asked: only its answer is shown
    shownProblems: "",
    touched: null,  // the field or button last used: it stays where the thumb left it
    reopened: options.reopened || null,  // a refused queued hand this form was opened for: {key, error}
    sending: false,
    draftKey: null,
    again: null
  };
}

// options.onQueued: what the page does once a hand is kept on the phone (show the scoreboard);
// options.onSaved: what it does with the scoreboard a save brings back (show it in place);
// options.onEarly(totals, number): show the scoreboard at once with these totals, marked as being
// saved (false when it cannot); options.onEarlyUndone(): the pad back in its place (a refusal);
// options.reopened: a refused queued hand this form was opened for (kept across a refusal).
export function initForm(form, options) {
  options = options || {};
  const pad = padOf(form, options);
  // the form again, as the server sent it back after a refused save
  pad.again = (next) => initForm(next, Object.assign({}, options, { reopened: pad.reopened }));
  wireCounts(pad);
  wireProblems(pad);
  if (form.elements.client_key) form.elements.client_key.value = freshKey();
  restore(pad);
  if (pad.reopened) notice(form, "reopened", (form.dataset.tReopened || "").replace("{error}", pad.reopened.error));
  wireSending(pad);
  form.addEventListener("input", () => { schedule(pad, 250); saveDraft(pad); });
  form.addEventListener("change", () => { schedule(pad, 50); saveDraft(pad); });
  showFirstProblem(form);
  preview(pad);
  form.dataset.ready = "1";  // every handler is in place (the browser tests wait for this)
  return form;
}
