// Keeping the other view fresh in the background: the next hand's form on the scoreboard, the
// scoreboard on a page that opened as the form, each fetched again after a change of the game.
import { board, enterLink, quietly, showQueue } from "./board.js";
import { fetchPage, parse } from "./net.js";
import { text } from "./text.js";

function keepForm(url, answer) {
  if (answer.status !== 200 || answer.redirected) return false;
  const page = parse(answer.html);
  if (!page.main || !page.main.querySelector("form.hand-form")) return false;
  board.kept = { url: url, html: page.main.innerHTML, title: page.title };
  board.handPath = url;
  const now = enterLink();
  if (now && now.getAttribute("href") === url) now.dataset.kept = "1";  // the browser tests wait for this
  return true;
}

// The next hand's form, fetched in the background (again after each change of the game).
export function fetchForm() {
  if (board.mode !== "score" || board.panel) return Promise.resolve(false);
  const link = enterLink();
  if (!link) { board.kept = null; return Promise.resolve(false); }
  if (board.fetching) return board.fetching;
  const url = link.getAttribute("href");
  board.fetching = fetchPage(url).then((answer) => {
    board.fetching = null;
    return keepForm(url, answer);
  }, () => {
    board.fetching = null;
    return false;
  });
  return board.fetching;
}

function keepScore(page) {
  board.score = { html: page.main.innerHTML, title: page.title };
  if (board.mode === "hand") {
    const form = board.main.querySelector("form.hand-form");
    if (form) form.dataset.scoreKept = "1";  // the browser tests wait for this
  } else if (board.panel) {
    board.stale = true;  // shown when the panel closes
  } else {
    quietly(() => { board.main.innerHTML = page.main.innerHTML; });
    showQueue();
    fetchForm();
  }
}

// The scoreboard, kept by a page that opened as the form (shown when the network is gone), and
// brought up to date after another phone's change on such a page.
export function fetchScore() {
  return fetchPage(board.gameUrl).then((answer) => {
    if (answer.status !== 200 || answer.redirected) return;
    const page = parse(answer.html);
    if (page.main && page.main.querySelector(".totals")) keepScore(page);
  }).catch(() => { /* offline: the scoreboard kept before is shown */ });
}

function changed() {  // another phone changed the game while the form is shown: say so, keep the entry
  board.stale = true;
  if (!board.panel || document.getElementById("live-notice")) return;
  const p = document.createElement("p");
  p.id = "live-notice";
  p.className = "warning";
  p.setAttribute("role", "status");
  p.textContent = text("changed");
  board.panel.insertBefore(p, board.panel.firstChild);
}

// While the panel is shown, <main> stays empty: live.js's new scoreboard is kept out of the page
// (shown when the panel closes) and the panel says that the game changed.
function underPanel(added, notice) {
  const main = board.main;
  if (!main.firstChild) return;
  const refreshed = !notice && added.some((n) => n.id !== "waiting-hands");
  quietly(() => {
    if (refreshed) {  // live.js's new scoreboard
      board.stash = document.createDocumentFragment();
      while (main.firstChild) board.stash.appendChild(main.firstChild);
    } else {
      main.textContent = "";  // the waiting list (shown again on closing) or live.js's notice
    }
  });
  if (notice || refreshed) changed();
}

function elements(records, which) {
  const found = [];
  records.forEach((r) => {
    Array.prototype.forEach.call(r[which], (n) => { if (n.nodeType === 1) found.push(n); });
  });
  return found;
}

// Another phone changed the game. On a page that opened as the scoreboard, its script (live.js)
// reloads the scoreboard's <main> in place; on one that opened as the form it puts a notice there.
// Either way the kept form (or scoreboard) is fetched again; while the panel is shown the new
// scoreboard is kept out of the page and the panel says that the game changed, keeping what is typed.
export function changes(records) {
  const added = elements(records, "addedNodes");
  const notice = added.filter((n) => n.id === "live-notice")[0];
  if (board.mode === "hand") {  // the form in the page's own <main>: live.js's notice is right there
    if (notice) fetchScore();
    return;
  }
  if (board.panel) { underPanel(added, notice); return; }
  if (notice) {  // live.js of a page that opened as the form: fetch the scoreboard ourselves
    notice.remove();
    fetchScore();
    return;
  }
  if (!elements(records, "removedNodes").some((n) => n.id !== "waiting-hands")) return;
  showQueue();
  fetchForm();
}
