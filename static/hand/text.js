// Small helpers for the hand form's scripts: numbers as the pad shows and reads them, the page's
// texts in the reader's language (app.js) and the phone's queue of hands (app.js).

export function signed(n) {  // +20, −15 with a real minus sign, 0
  return n > 0 ? "+" + n : n < 0 ? "\u2212" + Math.abs(n) : "0";
}

export function toInt(value) {
  const n = parseInt(value, 10);
  return isNaN(n) ? 0 : n;
}

// A typed figure as the server reads it: a whole number, 0 when empty, otherwise the text as typed,
// so the server names the field ("3O0" is not 3, "abc" not 0).
export function figure(value) {
  const v = String(value).trim();
  if (v === "") return 0;
  return /^[0-9]+$/.test(v) ? parseInt(v, 10) : v;
}

export function text(name, values) {
  return window.scorekeeperText ? window.scorekeeperText(name, values) : "";
}

export function queue() {
  return window.canastaQueue || null;
}

// How many hands of this game wait on the phone (not refused): the next one follows them.
export function waitingBefore(queueUrl) {
  const q = queue();
  if (!q) return 0;
  return q.items().filter((item) => item.url === queueUrl && !item.error).length;
}
