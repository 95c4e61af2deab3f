// Follow a game live: poll its version; when another phone changes the game, refresh the page's
// content in place (scoreboard, opening table) or say so (hand form, where typing must not be lost).
import { sending, text, warm } from "./app.js";
import { replaceKeeping } from "./keep.js";

const root = document.querySelector("[data-live-game]");
const url = root ? root.dataset.liveUrl : null;
let polling = false;

// The version this page shows: kept on the page, where the hand form's script puts the version of
// a scoreboard it shows after a save (so its own save is not taken for another phone's).
function shown() { return root.dataset.liveVersion; }
function editing() { return !!root.querySelector("form.hand-form"); }

// ``changed``: another phone changed the game's hands (not only its table's round state)
function refresh(changed) {
  // the page may move on while this is on its way (this phone's own save shows its scoreboard,
  // with its confirmation): then this older copy is dropped
  const before = shown();
  const savedBefore = root.dataset.saved;
  return fetch(location.href, { credentials: "same-origin", cache: "no-store" })
    .then((r) => r.text())
    .then((html) => {
      if (shown() !== before || root.dataset.saved !== savedBefore || busy()) return;
      const doc = new DOMParser().parseFromString(html, "text/html");
      const fresh = doc.querySelector("main");
      const main = document.querySelector("main");
      if (fresh && main) {
        replaceKeeping(main, fresh.innerHTML);
        if (changed) say(text("updated"));
      }
      const next = doc.querySelector("[data-live-game]");
      if (next) root.dataset.liveVersion = next.dataset.liveVersion;
      warm();
    });
}

// said to a screen reader (a polite status outside main, which a refresh replaces)
function say(words) {
  let status = document.getElementById("live-said");
  if (!status) {
    status = document.createElement("p");
    status.id = "live-said";
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    document.body.appendChild(status);
  }
  status.textContent = "";
  setTimeout(() => { status.textContent = words; }, 50);
}

function notice() {
  if (document.getElementById("live-notice")) return;
  const p = document.createElement("p");
  p.id = "live-notice";
  p.className = "warning";
  p.setAttribute("role", "status");
  p.textContent = text("changed");
  document.querySelector("main").insertBefore(p, document.querySelector("main").firstChild);
}

function busy() {  // a hand being sent from this page, or the phone's queue: their answers bring the new scoreboard
  return !!document.querySelector("form.hand-form[aria-busy], main[data-early]") || sending();
}

function poll() {
  if (polling || document.hidden || busy()) return;
  polling = true;
  fetch(url, { credentials: "same-origin", cache: "no-store" })
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => {
      if (!data || String(data.version) === String(shown())) return null;
      // a tournament table's round stopping ("12.p" → "12.s") is no change to this game: a hand being
      // typed is not told so; under the hand panel the sheet catches up once the panel is closed
      const sameGame = String(data.version).split(".")[0] === String(shown()).split(".")[0];
      if (editing()) {
        root.dataset.liveVersion = data.version;
        if (!sameGame) notice();
        return null;
      }
      if (sameGame && document.getElementById("hand-panel")) return null;
      return refresh(!sameGame);
    })
    .catch(() => { /* offline: try again at the next tick */ })
    .then(() => { polling = false; });
}

if (root) {
  setInterval(poll, 1500);
  document.addEventListener("visibilitychange", poll);
}
