// The hand's values in the form: read in the API's shape (POST /api/score, the queue's
// hands.json) and back, and kept on the phone as a draft until the hand is saved.
//
// ``pad`` is one hand form's state (form.js): its <form>, and its side-entry table (fields) from the
// page's data-fields (scorekeeper/core/entry.py): each field with its name in the API's entry, its
// kind, and for a figure that can be given in points or in card counts, the form's choice between
// them (mode) and the card inputs.
import { figure, text, toInt, wholeNumber } from "./text.js";
// The hand's one answer to "Who went out?" ("0", "1", …, "stock" or null) and how.
export function outChoice(form) {
  const el = form.querySelector('input[name="out"]:checked');
  return el ? el.value : null;
}

function howChoice(form) {
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
function sideEntry(pad, side) {
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
function draftOf(pad, body) {
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

// ---- the draft ----------------------------------------------------------------------------------
// What is typed is kept on the phone until it is saved: switching the language or the text size,
// going back to the score, a slip of the Back button or a closed tab reopens the form with it
// (localStorage, for a day). A new hand's typing comes back on its form also when another phone has
// saved a hand meanwhile (the form then counts one hand more: the page says another phone changed
// the game). A refused queued hand opened here keeps why it was refused with it.
const DRAFT = "canasta-draft:";
const DRAFT_DAYS = 1;

const KEEP = /^(sides-|out$|how$|mode$|lone$|confirm$)/;
const REOPEN = "canasta-reopen";  // a refused queued hand to open in its form (app.js puts it there)

function draftKey(pad) {  // this form's, as it opened
  if (!pad.draftKey) {
    const basedOn = pad.form.elements.based_on;
    pad.draftKey = DRAFT + pad.action + ":" + (basedOn ? basedOn.value : "");
  }
  return pad.draftKey;
}

function kept(el) {
  return el.name && KEEP.test(el.name);
}

function read(key) {
  try { return JSON.parse(sessionStorage.getItem(key) || "null"); } catch (e) { return null; }
}

function keptDraft(key) {  // a draft of this phone, unless a day old
  let draft = null;
  try { draft = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
  return draft && Date.now() - (draft._at || 0) < DRAFT_DAYS * 86400000 ? draft : null;
}

function draftsOf(pad) {  // every kept draft of this form's address, newest first: [key, draft]
  const prefix = DRAFT + pad.action + ":";
  const found = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      const draft = key && key.indexOf(prefix) === 0 ? keptDraft(key) : null;
      if (draft) found.push([key, draft]);
    }
  } catch (e) { /* nothing kept */ }
  return found.sort((a, b) => b[1]._at - a[1]._at);
}

function snapshot(pad) {  // the kept fields as they stand
  const draft = {};
  Array.prototype.forEach.call(pad.form.elements, (el) => {
    if (!kept(el)) return;
    if (el.type === "radio" || el.type === "checkbox") { if (el.checked) draft[el.name + "=" + el.value] = true; }
    else draft[el.name] = el.value;
  });
  return draft;
}

export function saveDraft(pad) {
  const draft = snapshot(pad);
  if (pad.reopened) draft._reopened = pad.reopened;
  draft._at = Date.now();
  try { localStorage.setItem(draftKey(pad), JSON.stringify(draft)); } catch (e) { /* private mode: nothing kept */ }
}

function applyDraft(pad, draft) {
  Array.prototype.forEach.call(pad.form.elements, (el) => {
    if (!kept(el)) return;
    if (el.type === "radio" || el.type === "checkbox") el.checked = !!draft[el.name + "=" + el.value];
    else if (el.name in draft) el.value = draft[el.name];
  });
  // black threes left in hand typed apart (a page before they went with the 7 to 4, or a queued hand
  // sent so) join the count that holds them on this pad (data-pool), rather than being dropped
  pad.form.querySelectorAll("input[data-pool]").forEach((el) => {
    el.dataset.pool.split(" ").forEach((card) => {
      const name = el.name.slice(0, el.name.length - el.dataset.card.length) + card;
      const more = wholeNumber(draft[name] || "");
      const here = el.value.trim() === "" ? 0 : wholeNumber(el.value);
      if (more > 0 && here !== null && !pad.form.elements.namedItem(name)) el.value = String(here + more);
    });
  });
}

function restoreDraft(pad) {
  let draft = keptDraft(draftKey(pad));
  // a new hand's typing kept while the game had fewer or more hands (another phone saved or deleted one)
  if (!draft && /\/hands\/new$/.test(pad.action)) draft = (draftsOf(pad)[0] || [])[1] || null;
  if (!draft) return;
  if (!pad.reopened && draft._reopened) pad.reopened = draft._reopened;
  if (pad.form.querySelector('[aria-invalid="true"], .has-error')) return;  // the server's page holds what was sent
  const before = JSON.stringify(snapshot(pad));
  applyDraft(pad, draft);
  if (JSON.stringify(snapshot(pad)) !== before) sayRestored(pad);
}

// Figures typed earlier and not saved come back with a word saying so, and a way to start afresh
// (the form as the page brought it: empty for a new hand, the hand's figures for a correction).
function sayRestored(pad) {
  const note = document.createElement("p");
  note.className = "draft-note";
  note.setAttribute("role", "status");
  note.textContent = text("draftBack") + " ";
  const clear = document.createElement("button");
  clear.type = "button";
  clear.className = "btn small";
  clear.textContent = text("draftClear");
  clear.addEventListener("click", () => {
    Array.prototype.forEach.call(pad.form.elements, (el) => {
      if (!kept(el)) return;
      if (el.type === "radio" || el.type === "checkbox") el.checked = el.defaultChecked;
      else if (el.options) Array.prototype.forEach.call(el.options, (o) => { o.selected = o.defaultSelected; });
      else el.value = el.defaultValue;
    });
    pad.form.dispatchEvent(new Event("change", { bubbles: true }));  // the preview follows
    removeDraft(pad);
    note.remove();
  });
  note.appendChild(clear);
  const head = pad.form.querySelector(".pad-head");
  if (head) head.parentNode.insertBefore(note, head);
  else pad.form.prepend(note);
}

export function removeDraft(pad) {  // this form's, and any older one of its address
  try {
    localStorage.removeItem(draftKey(pad));
    draftsOf(pad).forEach(([key]) => localStorage.removeItem(key));
  } catch (e) { /* nothing kept */ }
}

// The form as it was left: a refused queued hand to open here (the "Open in the form" button of the
// waiting list, app.js), or else the draft kept of this form.
export function restore(pad) {
  const pending = read(REOPEN);
  if (pending && pending.form === pad.action && pending.item && pending.item.body && pad.form.dataset.queueUrl) {
    try { sessionStorage.removeItem(REOPEN); } catch (e) { /* nothing kept */ }
    pad.reopened = { key: pending.item.body.client_key, error: pending.item.error || "" };
    applyDraft(pad, draftOf(pad, pending.item.body));
    saveDraft(pad);
  } else {
    restoreDraft(pad);
  }
}
