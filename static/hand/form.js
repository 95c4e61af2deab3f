// One hand form: steppers for small counts, counts that move on by themselves, a live preview of
// each side's hand score from the server's own scoring, the problems of its checks beside their
// fields, a draft kept on the phone, and saving by script (send.js).
import { restore, saveDraft } from "./draft.js";
import { wireCounts } from "./counts.js";
import { preview, schedule } from "./preview.js";
import { notice, showFirstProblem, wireProblems } from "./problems.js";
import { freshKey, wireSending } from "./send.js";
import { toInt } from "./text.js";

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
// options.reopened: a refused queued hand this form was opened for (kept across a refusal).
export function initForm(form, options) {
  options = options || {};
  const pad = padOf(form, options);
  // the form again, as the server sent it back after a refused save
  pad.again = (next) => initForm(next, { onQueued: options.onQueued, onSaved: options.onSaved, reopened: pad.reopened });
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
