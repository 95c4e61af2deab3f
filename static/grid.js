// The director's grid follows every save by itself, as the standings on a big screen do: it asks every
// second whether anything was saved (the standings' version), fetches the page again when it was and
// puts its grid in place, keeping where the grid's own box was scrolled. A round's time running out
// changes the grid without a save: the page says when (data-refresh-in, seconds) and is fetched then.
// The control with the keyboard's focus keeps it (keep.js).
import { replaceKeeping } from "./keep.js";

let polling = false;
let timer = null;

function live() { return document.querySelector(".grid-live"); }
function box() { return document.querySelector(".grid-scroll"); }

// The round being played in view: a phone shows two rounds at a time, the grid opens at the current one.
function showCurrent() {
  const scroller = box();
  const now = scroller && scroller.querySelector("th.g-now");
  const first = scroller && scroller.querySelector("th.g-corner");
  if (!now || !first) return;
  // measured as drawn: the round's column starts where the tables' column (sticky, on top) ends
  const shift = now.getBoundingClientRect().left - first.getBoundingClientRect().right;
  if (shift > scroller.clientWidth / 2) scroller.scrollLeft += shift;
}

function schedule() {
  if (timer) clearTimeout(timer);
  timer = null;
  const root = live();
  const seconds = root && Number(root.dataset.refreshIn);
  if (seconds > 0) timer = setTimeout(later, seconds * 1000);
}

function later() {  // the server away a moment when the time ran out: try again shortly
  refresh().catch(() => { timer = setTimeout(later, 5000); });
}

function refresh() {
  return fetch(location.href, { credentials: "same-origin", cache: "no-store" })
    .then((r) => (r.ok ? r.text() : null))
    .then((html) => {
      const root = live();
      const fresh = html && new DOMParser().parseFromString(html, "text/html").querySelector(".grid-live");
      if (!fresh || !root) return;
      let scroller = box();
      const at = scroller ? [scroller.scrollLeft, scroller.scrollTop] : null;
      replaceKeeping(root, fresh.innerHTML);
      root.dataset.version = fresh.dataset.version;
      if (fresh.dataset.refreshIn) root.dataset.refreshIn = fresh.dataset.refreshIn;
      else delete root.dataset.refreshIn;
      scroller = box();
      if (scroller && at) { scroller.scrollLeft = at[0]; scroller.scrollTop = at[1]; }
      schedule();
    });
}

function poll() {
  const root = live();
  if (polling || !root || document.hidden) return;
  polling = true;
  fetch(root.dataset.versionUrl, { credentials: "same-origin", cache: "no-store" })
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => {
      if (data && String(data.version) !== String(live().dataset.version)) return refresh();
      return null;
    })
    .catch(() => { /* the server is away a moment: ask again at the next tick */ })
    .then(() => { polling = false; });
}

showCurrent();
schedule();
setInterval(poll, 1000);
document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
