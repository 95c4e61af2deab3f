// The live preview: each side's hand score and new total from the server's own scoring
// (POST /api/score), with the problems of its checks, and the sum of each side's folded row.
import { allSides, loneChoice } from "./entry.js";
import { showProblems } from "./problems.js";
import { signed, toInt } from "./text.js";

// What the folded row holds for each side, as its sum (penalties, unfinished melds, offences).
export function moreSums(form) {
  form.querySelectorAll("[data-more-sum]").forEach((out) => {
    const side = out.dataset.moreSum;
    let sum = 0;
    form.querySelectorAll('.pad-more [data-side="' + side + '"] input[data-points]').forEach((el) => {
      const points = toInt(el.dataset.points);
      if (el.type === "checkbox") { if (el.checked) sum += points; }
      else sum += toInt(el.value) * points;
    });
    out.textContent = signed(sum);
  });
}

function render(pad, data) {
  const form = pad.form;
  form.querySelectorAll("[data-score]").forEach((cell) => {
    const side = data.sides && data.sides[toInt(cell.dataset.score)];
    cell.textContent = side ? signed(side.score) + " \u2192\u00a0" + String(side.total).replace("-", "\u2212") : "\u2013";
  });
  if (!pad.edited && form.querySelector(".row-errors p, #out-error, .problem-list a")) return;  // the server's, for now
  showProblems(pad, data.errors || [], data.errors ? [] : data.warnings || []);
}

function ask(pad) {  // the server's scoring of the hand as typed now
  const form = pad.form;
  return fetch(form.dataset.previewUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": pad.csrf },
    body: JSON.stringify({
      variant: form.dataset.variant, layout: form.dataset.layout, settings: JSON.parse(form.dataset.settings || "{}"),
      target: toInt(form.dataset.target), totals_before: pad.totals, sides: allSides(pad), lone: loneChoice(form)
    }),
    credentials: "same-origin"
  }).then((r) => {
    if (!r.ok && r.status !== 422) throw new Error("preview " + r.status);
    return r.json();
  });
}

// Answers can come back out of order on a busy server or network: only the latest asked is shown.
// A lost answer is asked again (three times, a little later each time) unless newer typing has
// asked for a newer one meanwhile.
export function preview(pad, tries) {
  tries = typeof tries === "number" ? tries : 0;
  const form = pad.form;
  if (!form.isConnected) return;  // a form the page has let go of
  const mine = ++pad.asked;
  form.dataset.previewing = "1";  // until the answer is shown (the browser tests look before they tap, as a person does)
  ask(pad).then((data) => {
    if (mine === pad.asked) { render(pad, data); delete form.dataset.previewing; }
  }).catch(() => {
    // offline: the form still saves
    if (mine === pad.asked && tries < 3) {
      setTimeout(() => { if (mine === pad.asked) preview(pad, tries + 1); }, 700 * (tries + 1));
    } else if (mine === pad.asked) {
      delete form.dataset.previewing;
    }
  });
}

// A change typed or picked: the preview is asked for a moment later (typing goes on meanwhile).
export function schedule(pad, ms) {
  pad.edited = true;
  moreSums(pad.form);
  clearTimeout(pad.timer);
  pad.form.dataset.previewing = "1";
  pad.timer = setTimeout(() => preview(pad), ms);
}
