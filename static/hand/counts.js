// Entering small numbers on a phone: the − / + steppers, and counting cards by typing, where a count
// that cannot take another digit moves on to the next count by itself.
import { outChoice } from "./entry.js";
import { toInt } from "./text.js";

function step(button) {
  const input = document.getElementById(button.dataset.target);
  const max = toInt(input.dataset.max) || 99;
  const next = Math.min(max, Math.max(0, toInt(input.value) + toInt(button.dataset.delta)));
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

// The count after this one, down the side's column, then to the next side. Passed over: the cards
// left in hand of the side that went out, and melded black threes (melded only when going out, and
// seldom then: tap to give them).
function nextCount(pad, input) {
  const order = countOrder(pad);
  const out = outChoice(pad.form);
  for (let k = order.indexOf(input) + 1; k < order.length; k++) {
    const el = order[k];
    if (el.dataset.count === "hand" && out === el.closest("[data-side]").dataset.side) continue;
    if (el.dataset.count === "melded" && el.dataset.card === "black_threes") continue;
    return el;
  }
  return null;
}

function moveOn(pad, input) {
  const next = nextCount(pad, input);
  if (next) { next.focus(); next.select(); }
}

// A count that cannot take another digit: it would pass what the deck holds, or it is 0.
function full(input) {
  const value = input.value.trim();
  if (!/^[0-9]+$/.test(value)) return false;
  const max = toInt(input.dataset.max) || 99;
  return toInt(value) * 10 > max || value === "0";
}

export function wireCounts(pad) {
  const form = pad.form;
  form.addEventListener("click", (event) => {
    const button = event.target.closest("button.step");
    if (button) step(button);
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
    if (full(input)) moveOn(pad, input);
  });
}
