// The scoreboard and the next hand's form, kept together: the scoreboard fetches the form in the
// background and opens it as a panel (a second <main>, the scoreboard's hidden meanwhile); the hand
// form's page keeps the scoreboard. So moving between them needs no network. Without script the
// form is an ordinary form and the links are ordinary links.
import { board, enterLink, focus, PANEL, quietly, setNext, showQueue } from "./board.js";
import { initForm } from "./form.js";
import { fetchForm, fetchScore } from "./kept.js";
import { parse } from "./net.js";
import { toInt, waitingBefore } from "./text.js";

function renumber(view, form) {  // hands of this game waiting on the phone come before this one
  if (!form.dataset.queueUrl) return;
  const before = waitingBefore(form.dataset.queueUrl);
  if (!before) return;
  const number = toInt(form.dataset.handNumber);
  const pattern = new RegExp("(^|[^0-9])" + number + "(?![0-9])");
  [view.querySelector("h1"), form.querySelector('button[type="submit"]')].forEach((el) => {
    if (el) el.textContent = el.textContent.replace(pattern, "$1" + (number + before));
  });
}

export function startForm(form) {  // the form of a new hand, saved and kept in place
  return initForm(form, { onQueued: leave, onSaved: showSaved });
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

export function openHand(push) {
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
  quietly(() => {
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
  quietly(() => { board.main.innerHTML = score.html; });
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

// A hand saved: the scoreboard of the server's answer in place of the form, at its top (the
// totals, the next dealer, "Enter hand N+1" and the saved hand's line with its confirmation).
function showSaved(answer) {
  const page = parse(answer.html);
  if (!page.main || !page.main.querySelector(".totals")) { location.replace(board.gameUrl); return; }
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
  if (!toScore()) { location.href = board.gameUrl; return; }
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

export function wireNavigation() {
  window.addEventListener("popstate", onPopState);
  document.addEventListener("click", onClick);
  window.canastaOpenHand = openQueued;
}
