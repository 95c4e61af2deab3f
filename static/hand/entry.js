// The hand as the form holds it, in the API's shape (POST /api/score, the queue's hands.json), and
// back: a kept entry as a draft of the form's inputs.
//
// ``pad`` is one hand form's state (form.js): its <form>, and its side-entry table (fields) from the
// page's data-fields (scorekeeper/core/entry.py): each field with its name in the API's entry, its
// kind, and for a figure that can be given in points or in card counts, the form's choice between
// them (mode) and the card inputs.
import { figure, toInt } from "./text.js";

// The hand's one answer to "Who went out?" ("0", "1", …, "stock" or null) and how.
export function outChoice(form) {
  const el = form.querySelector('input[name="out"]:checked');
  return el ? el.value : null;
}

export function howChoice(form) {
  const el = form.querySelector('input[name="how"]:checked') || form.querySelector('select[name="how"], input[type=hidden][name="how"]');
  return el ? el.value : null;
}

export function modeChoice(form) {  // points or card counts, for every side
  const el = form.querySelector('input[name="mode"]:checked');
  return el ? el.value : "points";
}

export function loneChoice(form) {
  const el = form.querySelector('input[name="lone"]:checked');
  if (!el) return undefined;
  return el.value === "none" ? null : toInt(el.value);
}

function cardCounts(field, input) {
  const counts = {};
  Object.keys(field.inputs).forEach((card) => {
    const el = input(field.inputs[card]);
    if (el) counts[card] = figure(el.value);
  });
  return counts;
}

// One side's entry in the API's shape, field by field of the table.
export function sideEntry(pad, side) {
  const form = pad.form;
  const input = (name) => form.elements.namedItem("sides-" + side + "-" + name);
  const entry = {};
  const out = outChoice(form);
  const mode = modeChoice(form);
  pad.fields.forEach((f) => {
    if (f.mode && mode !== f.mode_value) return;  // given the other way
    if (f.kind === "choice") {  // how the hand ended is asked once for the hand
      entry[f.name] = out === String(side) ? howChoice(form) : null;
    } else if (f.kind === "flag") {
      const box = input(f.name);
      if (box) entry[f.name] = box.checked;
    } else if (f.kind === "cards") {
      entry[f.name] = cardCounts(f, input);
    } else {
      const el = input(f.name);
      if (el) entry[f.name] = figure(el.value);
    }
  });
  return entry;
}

export function allSides(pad) {
  const sides = [];
  for (let i = 0; i < pad.totals.length; i++) sides.push(sideEntry(pad, i));
  return sides;
}

function draftField(draft, f, side, value) {
  const prefix = "sides-" + side + "-";
  if (f.mode) draft["mode=" + f.mode_value] = true;
  if (f.kind === "choice") {
    if (value) { draft["out=" + side] = true; draft["how=" + value] = true; draft["how"] = value; }
  } else if (f.kind === "flag") {
    if (value) draft[prefix + f.name + "=y"] = true;
  } else if (f.kind === "cards") {
    Object.keys(f.inputs).forEach((card) => {
      draft[prefix + f.inputs[card]] = value && value[card] ? String(value[card]) : "";
    });
  } else {
    draft[prefix + f.name] = value ? String(value) : "";
  }
}

// The other way round: a kept entry (a refused queued hand) as a draft of this form's inputs.
export function draftOf(pad, body) {
  const draft = {};
  (body.sides || []).forEach((entry, side) => {
    pad.fields.forEach((f) => {
      if (f.name in entry) draftField(draft, f, side, entry[f.name]);
    });
  });
  if (body.stock_out) draft["out=stock"] = true;
  if (body.lone !== undefined) draft["lone=" + (body.lone === null ? "none" : body.lone)] = true;
  return draft;
}
