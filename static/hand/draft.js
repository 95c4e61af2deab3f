// What is typed is kept on the phone until it is saved: switching the language or the text size,
// going back to the score, or a slip of the Back button reopens the form with it (sessionStorage:
// this tab only). A refused queued hand opened here keeps why it was refused with it.
import { draftOf } from "./entry.js";

const KEEP = /^(sides-|out$|how$|mode$|lone$|confirm$)/;
const REOPEN = "canasta-reopen";  // a refused queued hand to open in its form (app.js puts it there)

function draftKey(pad) {  // this form's, as it opened
  if (!pad.draftKey) {
    const basedOn = pad.form.elements.based_on;
    pad.draftKey = "canasta-draft:" + pad.action + ":" + (basedOn ? basedOn.value : "");
  }
  return pad.draftKey;
}

function kept(el) {
  return el.name && KEEP.test(el.name);
}

function read(key) {
  try { return JSON.parse(sessionStorage.getItem(key) || "null"); } catch (e) { return null; }
}

export function saveDraft(pad) {
  const draft = {};
  Array.prototype.forEach.call(pad.form.elements, (el) => {
    if (!kept(el)) return;
    if (el.type === "radio" || el.type === "checkbox") { if (el.checked) draft[el.name + "=" + el.value] = true; }
    else draft[el.name] = el.value;
  });
  if (pad.reopened) draft._reopened = pad.reopened;
  try { sessionStorage.setItem(draftKey(pad), JSON.stringify(draft)); } catch (e) { /* private mode: nothing kept */ }
}

function applyDraft(pad, draft) {
  Array.prototype.forEach.call(pad.form.elements, (el) => {
    if (!kept(el)) return;
    if (el.type === "radio" || el.type === "checkbox") el.checked = !!draft[el.name + "=" + el.value];
    else if (el.name in draft) el.value = draft[el.name];
  });
}

function restoreDraft(pad) {
  const draft = read(draftKey(pad));
  if (!draft) return;
  if (!pad.reopened && draft._reopened) pad.reopened = draft._reopened;
  if (pad.form.querySelector('[aria-invalid="true"], .has-error')) return;  // the server's page holds what was sent
  applyDraft(pad, draft);
}

export function removeDraft(pad) {
  try { sessionStorage.removeItem(draftKey(pad)); } catch (e) { /* nothing kept */ }
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
