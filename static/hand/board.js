// The page's state when it keeps the scoreboard and the next hand's form together (panel.js), and
// the small things both views need.
import { queue } from "./text.js";

// The panel's address: the scoreboard's with a query (not a fragment), so that saving is a real
// navigation to the sheet, and live.js, which reloads the scoreboard from location.href, still
// gets the scoreboard.
export const PANEL = "?hand=new";

export const board = {
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
  observer: null
};

// The form as the server sent it, from the page's own <main> (messages the scripts added left out).
function sourceOf(main) {
  const copy = main.cloneNode(true);
  copy.querySelectorAll("#waiting-hands, #live-notice, #reopened, #unreachable, .flash").forEach((el) => el.remove());
  return copy.innerHTML;
}

export function setUp(main, startedAs) {
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

export function enterLink() {
  return board.main.querySelector('a[href$="/hands/new"]');
}

// Changes of the page's own <main> are watched (another phone's, through live.js).
export function watch(changes) {
  board.observer = new MutationObserver(changes);
  board.observer.observe(board.main, { childList: true });
}

export function quietly(change) {  // a change of <main> the page makes itself (not another phone's)
  board.observer.disconnect();
  change();
  board.observer.takeRecords();
  board.observer.observe(board.main, { childList: true });
}

export function showQueue() {
  if (queue() && queue().show) queue().show();
}

// The footer's language and text-size links come back to the view shown (the form keeps its draft).
export function setNext(path) {
  document.querySelectorAll("footer a[href*='next=']").forEach((a) => {
    const url = new URL(a.getAttribute("href"), location.href);
    url.searchParams.set("next", path);
    a.setAttribute("href", url.pathname + url.search);
  });
}

export function focus(el) {  // where a screen reader goes on with the view that replaced the other
  if (!el) return;
  if (!el.hasAttribute("tabindex") && !/^(A|BUTTON|INPUT)$/.test(el.tagName)) el.setAttribute("tabindex", "-1");
  el.focus({ preventScroll: true });
}
