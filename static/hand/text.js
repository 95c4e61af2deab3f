// Small helpers for the hand form's scripts: numbers as the pad shows and reads them, the page's
// texts in the reader's language (app.js) and the phone's queue of hands (app.js).
import { queue as phoneQueue, text as pageText } from "../app.js";

export function signed(n) {  // +20, −15 with a real minus sign, 0
  return n > 0 ? "+" + n : n < 0 ? "\u2212" + Math.abs(n) : "0";
}

export function toInt(value) {
  const n = parseInt(value, 10);
  return isNaN(n) ? 0 : n;
}

// The "0" of every run of ten decimal digits (0-9, Arabic-Indic, Devanagari, full-width …): the
// digits the server reads as their values, and nothing else (scorekeeper/core/numbers.py).
const ZEROS = [
  0x30, 0x660, 0x6f0, 0x7c0, 0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0xde6, 0xe50, 0xed0,
  0xf20, 0x1040, 0x1090, 0x17e0, 0x1810, 0x1946, 0x19d0, 0x1a80, 0x1a90, 0x1b50, 0x1bb0, 0x1c40, 0x1c50, 0xa620,
  0xa8d0, 0xa900, 0xa9d0, 0xa9f0, 0xaa50, 0xabf0, 0xff10, 0x104a0, 0x10d30, 0x11066, 0x110f0, 0x11136, 0x111d0,
  0x112f0, 0x11450, 0x114d0, 0x11650, 0x116c0, 0x11730, 0x118e0, 0x11950, 0x11c50, 0x11d50, 0x11da0, 0x16a60,
  0x16ac0, 0x16b50, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6, 0x1e140, 0x1e2f0, 0x1e950, 0x1fbf0
];

// A typed count or figure as the server reads it: decimal digits of any script ("１２", "١٢" are 12),
// spaces around them ignored; null for anything else ("²", "1 000", "-5", empty) and for more digits
// than a figure has.
export function wholeNumber(value) {
  return digitsOf(value, 15);
}

function digitsOf(value, most) {  // decimal digits of any script, at most ``most`` of them
  const digits = Array.from(String(value).trim());
  if (!digits.length || digits.length > most) return null;
  let n = 0;
  for (const ch of digits) {
    const code = ch.codePointAt(0);
    const zero = ZEROS.find((z) => code >= z && code <= z + 9);
    if (zero === undefined) return null;
    n = n * 10 + (code - zero);
  }
  return n;
}

// A typed figure for the server, read as the form reads it (scorekeeper/core/numbers.py): a whole
// number with a sign or without ("-5" is −5, which the checks refuse as negative, as they do on Save;
// "+5" is 5; sixteen digits are a number far too large), 0 when empty, otherwise the text as typed,
// so the server names the field ("3O0" is not 3, "abc" not 0).
const SIGNS = { "-": -1, "\u2212": -1, "+": 1 };
export function figure(value) {
  const v = String(value).trim();
  if (v === "") return 0;
  const sign = SIGNS[v[0]];
  const n = digitsOf(sign ? v.slice(1) : v, 30);
  return n === null ? v : (sign || 1) * n;
}

export function text(name, values) {
  return pageText(name, values);
}

export function queue() {
  return phoneQueue;
}

// How many hands of this game wait on the phone (not refused): the next one follows them.
export function waitingBefore(queueUrl) {
  const q = queue();
  if (!q) return 0;
  let before = 0;
  for (const item of q.items()) {
    if (item.url !== queueUrl) continue;
    if (item.error && item.blocks) break;  // the hands after a refused one wait for it (app.js)
    if (!item.error) before += 1;
  }
  return before;
}
