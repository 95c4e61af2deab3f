// The live checks: each side's hand score and new total from the server's own scoring
// (POST /api/score), and what is wrong with the hand, said where it is: each problem once, beside its
// field (under the row, with the side it is about) and in the list at the Save button, which jumps
// to the field. The same sentence for several fields stands beside the first; the others are only
// marked.
import { allSides, loneChoice, modeChoice } from "./entry.js";
import { signed, toInt, wholeNumber } from "./text.js";

// ---- the problems -------------------------------------------------------------------------------
// The input a problem of the checks is about (the API names fields as the entry does).
function problemInput(pad, e) {
  const form = pad.form;
  if (e.field === "went_out" || e.field === "stock_out") return form.querySelector('input[name="out"]');
  if (e.side === null || e.side === undefined) return form.querySelector('[name="' + e.field + '"]');
  let name = e.field;
  let card = null;
  if (name.indexOf(".") > 0) { card = name.slice(name.indexOf(".") + 1); name = name.slice(0, name.indexOf(".")); }
  let field = pad.fields.filter((f) => f.name === name)[0];
  if (field && field.mode && field.kind !== "cards" && modeChoice(form) === "counts") {  // said where the counts are
    const group = field.group;
    field = pad.fields.filter((f) => f.kind === "cards" && f.group === group)[0];
    card = null;
  }
  if (field && field.kind === "cards") name = field.inputs[card] || field.inputs[Object.keys(field.inputs)[0]];
  return form.elements.namedItem("sides-" + e.side + "-" + name);
}

function clearProblems(form) {
  form.querySelectorAll(".row-errors p, #out-error, .live-error").forEach((p) => p.remove());
  form.querySelectorAll(".has-error").forEach((el) => el.classList.remove("has-error"));
  form.querySelectorAll('[aria-invalid="true"]').forEach((el) => {
    el.removeAttribute("aria-invalid");
    el.removeAttribute("aria-describedby");
  });
  const list = form.querySelector(".problem-list");
  if (list) list.textContent = "";
}

function line(className, message, id) {
  const p = document.createElement("p");
  p.className = className + " live-error";
  if (id) p.id = id;
  p.textContent = message;
  return p;
}

function jumpLink(input, row, who) {  // the list's entry for a problem beside its field
  const a = document.createElement("a");
  a.href = "#" + input.id;
  a.dataset.focus = input.id;
  const label = row ? row.querySelector(".pad-label") : null;
  a.textContent = who.replace(/: $/, " · ") + (label ? label.textContent.replace(/:$/, "") : input.name);
  return a;
}

function placeError(pad, e, k, said, list) {
  const input = problemInput(pad, e);
  if (!input) {  // about no field: in the list only
    if (said[e.message]) return;
    said[e.message] = true;
    if (list) list.appendChild(line("error", e.message));
    return;
  }
  const row = input.closest(".pad-row");
  const cell = input.closest(".cell") || row;
  if (cell) cell.classList.add("has-error");
  input.setAttribute("aria-invalid", "true");
  const names = pad.sideNames;
  const named = !(e.field === "went_out" || e.side === null || e.side === undefined || names.length < 2);
  if (e.shared && said[e.message]) {  // the same sentence about another side's field (the deck's cards in all): it names them all
    const first = said[e.message];
    if (first === true) return;  // said in the list only
    input.setAttribute("aria-describedby", first.id);
    if (named && first.sides.indexOf(e.side) < 0) {
      first.sides.push(e.side);
      const p = document.getElementById(first.id);
      if (p) p.textContent = first.sides.map((s) => names[s] || "").join(", ") + ": " + e.message;
    }
    return;
  }
  const id = "live-error-" + k;
  if (e.shared) said[e.message] = { id, sides: named ? [e.side] : [] };
  input.setAttribute("aria-describedby", id);
  const who = named ? (names[e.side] || "") + ": " : "";
  const place = row && (row.querySelector(".row-errors") || row);
  if (place) place.appendChild(line("error", who + e.message, id));
  if (list) list.appendChild(jumpLink(input, row, who));
}

function placeWarning(pad, w, said, list) {
  const names = pad.sideNames;
  const message = (w.side !== null && w.side !== undefined && names.length > 1 ? names[w.side] + ": " : "") + w.message;
  if (said[message] || !list) return;
  said[message] = true;
  list.appendChild(line("warning", message));
}

function placeProblems(pad, errors, warnings) {
  clearProblems(pad.form);
  const list = pad.form.querySelector(".problem-list");
  // an alert for the server's refusal only (said at once when the page comes back): the checks while
  // typing change it quietly, each problem described on its field, not read out mid-number
  if (list) list.removeAttribute("role");
  const said = {};
  errors.forEach((e, k) => placeError(pad, e, k, said, list));
  (warnings || []).forEach((w) => placeWarning(pad, w, said, list));
}

// A change of the page that keeps the field or button last used where the thumb left it: a line
// shown or gone above it scrolls the page, and the field stays.
function steady(pad, change) {
  const touched = pad.touched;
  const anchor = touched && touched.isConnected && pad.form.contains(touched) ? touched : null;
  const before = anchor ? anchor.getBoundingClientRect().top : 0;
  change();
  if (!anchor) return;
  const moved = anchor.getBoundingClientRect().top - before;
  if (moved) window.scrollBy(0, moved);
}

function showProblems(pad, errors, warnings) {
  const key = JSON.stringify([errors, warnings]);
  if (key === pad.shownProblems) return;  // nothing moves under the thumb
  pad.shownProblems = key;
  steady(pad, () => placeProblems(pad, errors, warnings));
}

export function wireProblems(pad) {
  const form = pad.form;
  form.addEventListener("pointerdown", (event) => { pad.touched = event.target; });
  form.addEventListener("focusin", (event) => { pad.touched = event.target; });
  form.addEventListener("click", (event) => {  // the list at the Save button jumps to the field
    const link = event.target.closest("a[data-focus]");
    if (!link) return;
    const el = document.getElementById(link.dataset.focus);
    if (!el) return;
    event.preventDefault();
    el.scrollIntoView({ block: "center" });
    el.focus({ preventScroll: true });
  });
}

// After a refused save, bring the first field with a message into view (above the save bar).
export function showFirstProblem(form) {
  const first = form.querySelector('[aria-invalid="true"], .has-error input');
  if (!first) return;
  first.scrollIntoView({ block: "center" });
  first.focus({ preventScroll: true });
}

// A message above the form, replacing an older one of its kind (none: the older one goes).
export function notice(form, id, message) {
  const old = document.getElementById(id);
  if (old) old.remove();
  if (!message) return;
  const box = document.createElement("div");
  box.id = id;
  box.className = "error-box";
  box.setAttribute("role", "alert");
  const p = document.createElement("p");
  p.textContent = message;
  box.appendChild(p);
  form.parentNode.insertBefore(box, form);
}

// ---- the preview --------------------------------------------------------------------------------
// The live preview: each side's hand score and new total from the server's own scoring
// (POST /api/score), with the problems of its checks, and the sum of each side's folded row.

// What the folded row holds for each side, as its sum (penalties, unfinished melds, offences).
function moreSums(form) {
  form.querySelectorAll("[data-more-sum]").forEach((out) => {
    const side = out.dataset.moreSum;
    let sum = 0;
    form.querySelectorAll('.pad-more [data-side="' + side + '"] input[data-points]').forEach((el) => {
      const points = toInt(el.dataset.points);
      if (el.type === "checkbox") { if (el.checked) sum += points; }
      else sum += (wholeNumber(el.value) || 0) * points;
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

function question(pad) {  // what the preview asks about: the hand as typed now, as JSON
  const form = pad.form;
  return JSON.stringify({
    variant: form.dataset.variant, layout: form.dataset.layout, settings: JSON.parse(form.dataset.settings || "{}"),
    values: JSON.parse(form.dataset.values || "{}"),
    target: toInt(form.dataset.target), totals_before: pad.totals, sides: allSides(pad), lone: loneChoice(form),
    hand: toInt(form.dataset.hand) || null  // minimums by the hand's number; a game of a number of hands
  });
}

function ask(pad, body) {  // the server's scoring of the hand as typed now
  return fetch(pad.form.dataset.previewUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": pad.csrf },
    body: body,
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
  const body = question(pad);
  ask(pad, body).then((data) => {
    if (mine === pad.asked) {
      render(pad, data);
      pad.previewed = { body: body, data: data };
      delete form.dataset.previewing;
    }
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

// The new totals the preview gave for the hand exactly as it stands, when the server would take it as
// it is (no problem, and no unlikely figure left unconfirmed): what the scoreboard can show at once,
// before the save's answer. Null otherwise (the save then shows the server's answer only).
export function previewTotals(pad) {
  const seen = pad.previewed;
  if (!seen || seen.body !== question(pad)) return null;  // (a change event on leaving the field asks again: the same)
  const data = seen.data;
  const confirmed = pad.form.elements.confirm && pad.form.elements.confirm.checked;
  if (!data.sides || (data.errors && data.errors.length) || (data.warnings && data.warnings.length && !confirmed)) return null;
  if (data.sides.length !== pad.totals.length) return null;
  return data.sides.map((side) => side.total);
}
