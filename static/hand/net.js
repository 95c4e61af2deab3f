// Talking to the server: a request that gives up after a while, and a page's <main> from its HTML.

// a page fetched to be kept, not shown now: the server leaves its messages for the page shown next
const BACKGROUND = { "X-Canasta-Background": "1" };
export const SEND_MS = 10000;  // a save with no answer by then is kept on the phone (its key makes a resend safe)
const FETCH_MS = 10000;

function answerOf(r) {
  if (r.type === "opaqueredirect" || (r.status >= 300 && r.status < 400)) {
    return { status: r.status, redirected: true, html: "", url: "" };
  }
  const saved = r.headers.get("X-Canasta-Saved");  // stored: the scoreboard is this answer
  return r.text().then((html) => ({ status: r.status, redirected: r.redirected, html: html, url: saved || r.url, saved: !!saved }));
}

// An answer from the server, or a rejection when there is none within ``ms`` (no network, server
// gone, connection cut): {status, redirected, html, url, saved}.
export function request(url, options, ms) {
  const abort = window.AbortController ? new AbortController() : null;
  if (abort) options.signal = abort.signal;
  const timer = abort ? setTimeout(() => abort.abort(), ms) : null;
  return fetch(url, options).then(answerOf).then((answer) => {
    clearTimeout(timer);
    return answer;
  }, (error) => {
    clearTimeout(timer);
    throw error;
  });
}

// A page fetched in the background, for keeping: {status, redirected, html, …}.
export function fetchPage(url) {
  return request(url, { credentials: "same-origin", cache: "no-store", headers: BACKGROUND }, FETCH_MS);
}

export function parse(html) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  return { main: doc.querySelector("main"), title: doc.title };
}
