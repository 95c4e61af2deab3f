// The scoreboard and the next hand's form, kept together: the scoreboard fetches the form in the
// background and opens it as a panel (a second <main>, the scoreboard's hidden meanwhile); the hand
// form's page keeps the scoreboard. So moving between them needs no network. Without script the
// form is an ordinary form and the links are ordinary links.
import { setOpenHand } from "../app.js";
import { initForm } from "./form.js";
import { fetchPage, parse } from "./net.js";
import { queue, text, toInt, waitingBefore } from "./text.js";

// ---- the page's state ---------------------------------------------------------------------------
// The panel's address: the scoreboard's with a query (not a fragment), so that saving is a real
// navigation to the sheet, and live.js, which reloads the scoreboard from location.href, still
// gets the scoreboard.
const PANEL = "?hand=new";

const board = {
  main: null,  // the page's own <main>
  startedAs: null,  // what the page opened as: "hand" (the form) or "score"
  mode: null,  // what the page's own <main> holds now: "hand" or "score"
  gameUrl: "",
  handPath: null,  // the next hand's form's address
  handSource: "",  // the form as the server sent it, without what the page's scripts put in since
  handTitle: "",
  kept: null,  // the next hand's form page: {url, html, title}
  score: null,  // the scoreboard, on a page that opened as the form: {html, title}
  scoreTitle: "",
  panel: null,  // the form's <main>, shown instead of the scoreboard's
  stash: null,  // the scoreboard's nodes while the panel is shown (out of the page, so nothing finds them)
  pushed: false,  // the panel's history entry was added on top of the scoreboard's
  stale: false,  // the game changed while the panel was shown
  fetching: null,  // the next hand's form on its way
  observer: null,
  early: null  // the scoreboard shown with a hand's new totals before the server's answer: {number, note, rest, finish, undo}
};

// The form as the server sent it, from the page's own <main> (messages the scripts added left out).
function sourceOf(main) {
  const copy = main.cloneNode(true);
  copy.querySelectorAll("#waiting-hands, #live-notice, #reopened, #unreachable, .flash").forEach((el) => el.remove());
  return copy.innerHTML;
}

function setUp(main, startedAs) {
  const form = main.querySelector("form.hand-form");
  Object.assign(board, {
    main: main,
    startedAs: startedAs,
    mode: startedAs,
    gameUrl: startedAs === "hand" ? form.dataset.gameUrl : location.pathname,
    handPath: startedAs === "hand" ? location.pathname : null,
    handSource: startedAs === "hand" ? sourceOf(main) : "",
    handTitle: document.title,
    scoreTitle: document.title
  });
}

function enterLink() {
  return board.main.querySelector('a[href$="/hands/new"]');
}

// Changes of the page's own <main> are watched (another phone's, through live.js).
function watch(changes) {
  board.observer = new MutationObserver(changes);
  board.observer.observe(board.main, { childList: true });
}

function quietly(change) {  // a change of <main> the page makes itself (not another phone's)
  board.observer.disconnect();
  change();
  board.observer.takeRecords();
  board.observer.observe(board.main, { childList: true });
}

function showQueue() {
  if (queue() && queue().show) queue().show();
}

// The footer's language and text-size links come back to the view shown (the form keeps its draft).
function setNext(path) {
  document.querySelectorAll("footer a[href*='next=']").forEach((a) => {
    const url = new URL(a.getAttribute("href"), location.href);
    url.searchParams.set("next", path);
    a.setAttribute("href", url.pathname + url.search);
  });
}

function focus(el) {  // where a screen reader goes on with the view that replaced the other
  if (!el) return;
  if (!el.hasAttribute("tabindex") && !/^(A|BUTTON|INPUT)$/.test(el.tagName)) el.setAttribute("tabindex", "-1");
  el.focus({ preventScroll: true });
}

// ---- the other view, kept fresh -----------------------------------------------------------------
// The next hand's form on the scoreboard, the scoreboard on a page that opened as the form, fetched
// in the background and again after each change of the game.
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
function fetchForm() {
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
  board.score = { html: page.main.innerHTML, title: page.title, nodes: null };
  setTimeout(prepareScore, 0);
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
function fetchScore() {
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
function changes(records) {
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

// ---- moving between the views -------------------------------------------------------------------
function renumber(view, form) {  // hands of this game waiting on the phone come before this one
  if (!form.dataset.queueUrl) return;
  const before = waitingBefore(form.dataset.queueUrl);
  if (!before) return;
  const number = toInt(form.dataset.handNumber);
  const pattern = new RegExp("(^|[^0-9])" + number + "(?![0-9])");
  [view.querySelector("h1"), form.querySelector('button[type="submit"]')].forEach((el) => {
    if (el) el.textContent = el.textContent.replace(pattern, "$1" + (number + before));
  });
  ahead(view, form, before);
}

// The form's dealer and each side's total and opening minimum, as they stand after the hands waiting
// before it: the dealer from the deals the server gave the form (data-ahead), the totals from the
// waiting hands' own (their preview's, when it could be asked for), the minimum from the opening
// table by total; what the phone cannot know says so instead of showing the figures before them.
function ahead(view, form, before) {
  let plan = null;
  try { plan = JSON.parse(form.dataset.ahead || "null"); } catch (e) { plan = null; }
  if (!plan) return;
  const deal = plan.deals[before];
  const dealt = view.querySelector(".dealt");
  if (dealt) {
    dealt.textContent = deal ? form.dataset.tDealt.replace("{name}", deal[0]) +
      (deal[1].length ? " · " + form.dataset.tSittingOut.replace("{names}", deal[1].join(", ")) : "") : "";
  }
  const mine = queue().items().filter((item) => item.url === form.dataset.queueUrl && !item.error);
  const last = mine[before - 1];
  const totals = last && last.totals && mine.slice(0, before).every((item) => item.totals) ? last.totals : null;
  form.querySelectorAll(".side-head").forEach((head) => {
    const side = toInt(head.dataset.side);
    const hint = head.querySelector(".hint");
    if (!hint) return;
    if (!totals || !plan.minimums.length) { hint.textContent = form.dataset.tHeadWaiting; return; }
    let minimum = plan.minimums[0][1];
    plan.minimums.forEach(([low, value]) => { if (low === null || totals[side] >= low) minimum = value; });
    hint.textContent = form.dataset.tHead.replace("{total}", String(totals[side]).replace("-", "\u2212"))
      .replace("{minimum}", minimum);
  });
  if (totals) form.dataset.totals = totals.join(",");  // the preview scores the hand from them
}

function startForm(form) {  // the form of a new hand, saved and kept in place
  return initForm(form, { onQueued: leave, onSaved: showSaved, onEarly: showEarly, onEarlyUndone: undoEarly });
}

function showPanel(kept) {  // the kept form's page as a panel, the scoreboard's nodes put aside
  const main = board.main;
  board.stash = document.createDocumentFragment();
  quietly(() => { while (main.firstChild) board.stash.appendChild(main.firstChild); });
  main.hidden = true;
  const panel = board.panel = document.createElement("main");
  panel.id = "hand-panel";
  panel.innerHTML = kept.html;
  main.parentNode.insertBefore(panel, main.nextSibling);
  document.title = kept.title;
  const form = panel.querySelector("form.hand-form");
  renumber(panel, form);
  startForm(form);
  setNext(kept.url);
}

function openHand(push) {
  if (board.panel || board.mode !== "score") return;
  if (!board.kept) {
    const link = enterLink();
    fetchForm().then((ok) => {
      if (ok) openHand(push);
      else if (link) location.href = link.href;  // as without script
    });
    return;
  }
  showPanel(board.kept);
  if (push) {
    history.pushState(null, "", board.gameUrl + PANEL);
    board.pushed = true;
  }
  window.scrollTo(0, 0);
  focus(board.panel.querySelector("h1"));
}

function closePanel() {
  if (!board.panel) return;
  board.panel.remove();
  board.panel = null;
  if (!board.early) quietly(() => {  // (the scoreboard with a waiting hand's new totals is in place already)
    board.main.textContent = "";
    if (board.stale && board.score && board.startedAs === "hand") board.main.innerHTML = board.score.html;
    else if (board.stash) board.main.appendChild(board.stash);
  });
  board.stash = null;
  board.main.hidden = false;
  document.title = board.scoreTitle;
  setNext(board.gameUrl);
  showQueue();
  focus(enterLink());
  if (board.stale) {  // catch up with what changed meanwhile
    board.stale = false;
    if (board.startedAs === "hand") fetchScore();
    else fetchForm();
  }
}

// The scoreboard in place of the form: the panel closed, or, on a page that opened as the form,
// the kept scoreboard in its <main> (the form stays kept, to open again as a panel).
function toScore() {
  if (board.mode !== "hand") {
    closePanel();
    return true;
  }
  const score = board.score;
  if (!score) return false;
  if (!board.early) quietly(() => { board.main.innerHTML = score.html; });
  board.mode = "score";
  board.scoreTitle = score.title;
  document.title = score.title;
  board.kept = { url: board.handPath, html: board.handSource, title: board.handTitle };
  const link = enterLink();
  if (link && link.getAttribute("href") === board.handPath) link.dataset.kept = "1";
  setNext(board.gameUrl);
  return true;
}

function adopt(page) {  // the parsed nodes themselves, moved in (not parsed a second time)
  quietly(() => {
    const nodes = document.createDocumentFragment();
    while (page.main.firstChild) nodes.appendChild(document.adoptNode(page.main.firstChild));
    board.main.replaceChildren(nodes);
  });
  if (page.main.dataset.liveVersion) board.main.dataset.liveVersion = page.main.dataset.liveVersion;  // live.js: ours
}

// ---- the new totals at once ---------------------------------------------------------------------
// Tapping Save shows the scoreboard in the next frame with the new totals the pad's preview gave,
// marked as being saved; the server's answer then replaces it (saved: its scoreboard; refused: the
// pad again, with what was typed and why; no answer: the hand waits on the phone, its totals shown).
function showEarly(totals, number) {
  if (board.early) return false;
  const main = board.main;
  const panel = board.panel;
  const inPanel = !!(panel && board.stash);
  if (!inPanel && !(board.mode === "hand" && board.score)) return false;
  const nodes = inPanel ? board.stash : scoreNodes();
  const rest = restOf(nodes);
  const section = nodes.querySelector(".totals");
  const shown = Array.from(nodes.querySelectorAll(".totals p.total"));
  if (!section || shown.length !== totals.length) {  // not the scoreboard this expects: as before
    nodes.appendChild(rest);
    if (inPanel) board.stash = nodes;
    else board.score.nodes = nodes;
    return false;
  }
  const before = shown.map((p) => p.textContent);
  shown.forEach((p, i) => { p.textContent = String(totals[i]).replace("-", "\u2212"); });
  section.classList.add("pending");
  const note = document.createElement("p");
  note.className = "early-note";
  note.setAttribute("role", "status");
  note.textContent = text("beingSaved", { number: number });
  section.parentNode.insertBefore(note, section.nextSibling);
  window.scrollTo(0, 0);  // before the change, while the layout is clean (afterwards it would be laid out now)
  const pad = document.createDocumentFragment();  // the form's nodes, on a page that opened as the form
  quietly(() => {
    if (inPanel) {
      board.stash = null;
      panel.hidden = true;
      main.hidden = false;
    } else {
      while (main.firstChild) pad.appendChild(main.firstChild);
    }
    main.appendChild(nodes);
  });
  main.dataset.early = "1";  // live.js waits: the save's answer brings the scoreboard
  const title = document.title;
  document.title = inPanel ? board.scoreTitle : board.score.title;
  const early = board.early = {
    number: number,
    note: note,
    rest: rest,
    finish: () => {  // the rest of the scoreboard under the first screen
      if (!early.rest) return;
      const more = early.rest;
      early.rest = null;
      quietly(() => { main.appendChild(more); });
    },
    undo: () => {  // the scoreboard as it was, the pad back in its place
      early.finish();
      shown.forEach((p, i) => { p.textContent = before[i]; });
      section.classList.remove("pending");
      note.remove();
      document.title = title;
      quietly(() => {
        if (inPanel) {
          board.stash = document.createDocumentFragment();
          while (main.firstChild) board.stash.appendChild(main.firstChild);
          main.hidden = true;
          panel.hidden = false;
        } else {
          main.replaceChildren(pad);
          setTimeout(prepareScore, 0);
        }
      });
    }
  };
  // the first screen is drawn first; the sheet below it follows once that frame is out
  requestAnimationFrame(() => setTimeout(() => { if (board.early === early) early.finish(); }, 0));
  return true;
}

// What follows the first screen of a scoreboard's nodes (the sheet and everything after it), taken out.
function restOf(nodes) {
  const rest = document.createDocumentFragment();
  let first = nodes.querySelector("#sheet");
  while (first && first.parentNode !== nodes) first = first.parentNode;
  while (first) {
    const next = first.nextSibling;
    rest.appendChild(first);
    first = next;
  }
  return rest;
}

// The kept scoreboard as nodes, parsed ahead (a page that opened as the form): the tap on Save only
// moves them in.
function prepareScore() {
  const score = board.score;
  if (!score || score.nodes) return;
  const template = document.createElement("template");
  template.innerHTML = score.html;
  const nodes = document.createDocumentFragment();
  nodes.append(...template.content.childNodes);
  score.nodes = nodes;
}

function scoreNodes() {
  prepareScore();
  const nodes = board.score.nodes;
  board.score.nodes = null;
  return nodes;
}

function endEarly() {
  board.early = null;
  delete board.main.dataset.early;
}

function undoEarly() {  // refused: the pad again
  if (!board.early) return;
  board.early.undo();
  endEarly();
}

// A hand saved: the scoreboard of the server's answer in place of the form, at its top (the
// totals, the next dealer, "Enter hand N+1" and the saved hand's line with its confirmation).
function showSaved(answer) {
  const page = parse(answer.html);
  if (!page.main || !page.main.querySelector(".totals")) { location.replace(board.gameUrl); return; }
  endEarly();
  if (board.panel) { board.panel.remove(); board.panel = null; board.stash = null; board.main.hidden = false; }
  adopt(page);
  Object.assign(board, { mode: "score", kept: null, score: null, stale: false, scoreTitle: page.title, pushed: false });
  document.title = page.title;
  history.replaceState(null, "", board.gameUrl);
  setNext(board.gameUrl);
  showQueue();
  window.scrollTo(0, 0);
  focus(board.main.querySelector(".flash") || enterLink());
  board.main.dataset.saved = String(Date.now());  // the browser tests wait for this
  setTimeout(fetchForm, 100);  // the next hand's form, once the score is on the screen
}

function leave() {  // a hand kept on the phone: back on the scoreboard, where it is shown waiting
  const early = board.early;
  if (!toScore()) { location.href = board.gameUrl; return; }
  if (early) {  // its new totals stay, now as waiting to be sent
    early.finish();
    early.note.textContent = text("waitingTotals", { number: early.number });
    endEarly();
  }
  history.replaceState(null, "", board.gameUrl);
  board.pushed = false;
  showQueue();
  window.scrollTo(0, 0);
}

function backToScore() {
  if (board.pushed) { history.back(); return; }  // popstate shows it
  if (!toScore()) { location.href = board.gameUrl; return; }
  history.pushState(null, "", board.gameUrl);
  showQueue();
  window.scrollTo(0, 0);
}

function wantsHand() {
  return location.search === PANEL || (board.handPath !== null && location.pathname === board.handPath);
}

function onPopState() {
  if (wantsHand()) {
    if (board.mode === "score" && !board.panel) { openHand(false); board.pushed = true; }
  } else if (board.mode === "hand" || board.panel) {
    board.pushed = false;
    if (toScore()) showQueue();
    else location.reload();
  }
}

function onClick(event) {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target.closest ? event.target.closest("a") : null;
  if (!link) return;
  if (link.classList.contains("back-to-score") && (board.mode === "hand" || board.panel)) {
    event.preventDefault();
    backToScore();
  } else if (board.early && link === enterLink()) {
    event.preventDefault();  // the hand before it is being saved: its answer brings the next hand's link
  } else if (board.mode === "score" && !board.panel && link === enterLink()) {
    event.preventDefault();
    openHand(true);
  }
}

// A refused queued hand of this game opens here (app.js asks before it goes to the form's page).
function openQueued(path) {
  const link = enterLink();
  if (board.mode !== "score" || board.panel || !path || !link || path !== link.getAttribute("href")) return false;
  if (board.kept && board.kept.url === path) openHand(true);
  else fetchForm().then((ok) => { if (ok) openHand(true); else location.href = path; });
  return true;
}

// A page that opened as the new hand's form ("hand") or as the scoreboard ("score"): both views
// kept, moving between them by script, each fetched again after a change of the game.
export function startBoard(main, startedAs) {
  setUp(main, startedAs);
  window.addEventListener("popstate", onPopState);
  document.addEventListener("click", onClick);
  setOpenHand(openQueued);
  watch(changes);
  if (startedAs === "hand") {
    renumber(main, main.querySelector("form.hand-form"));  // hands waiting on the phone come first
    startForm(main.querySelector("form.hand-form"));
    fetchScore();
  } else {
    setNext(board.gameUrl);
    fetchForm().then((ok) => {  // the panel's own address, loaded again: open it again
      if (ok && location.search === PANEL && !board.panel) openHand(false);
    });
  }
}
