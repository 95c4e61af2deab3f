// Every page: the installable app's service worker, and the queue of hands entered while the
// server could not be reached. Queued hands are shown as waiting and sent when the server is back,
// each with its own key, so a hand sent twice is stored once.
//
// An ES module, loaded once per page at /static/app.js (the page's script tag, live.js and the hand
// form's scripts import the same address, so they share this one instance). What the others use:
//   text(name, values)   the page's texts in the reader's language
//   queue                the phone's queue of hands (add, items, flush, show, remove)
//   sending()            hands being sent from the queue, or the page reloading after it (live.js waits)
//   warm()               fetch this game's hand form, so it is kept for when the network drops
//   setOpenHand(fn)      the hand panel's way to open a refused queued hand in place (hand/panel.js)
const KEY = "canasta-queue";
// a page fetched to be kept, not shown now: the server leaves its messages for the page shown next
const BACKGROUND = { "X-Canasta-Background": "1" };

// The page's texts in the reader's language: base.html carries them as data-t-* attributes
// with {name} holes, filled here (the scripts themselves hold no English).
export function text(name, values) {
  const key = "t" + name.charAt(0).toUpperCase() + name.slice(1);
  const template = document.body.dataset[key] || "";
  return template.replace(/\{(\w+)\}/g, (all, hole) => (values && hole in values ? String(values[hole]) : all));
}

// A registration that fails (the Wi-Fi gone for a moment, the server busy) is tried again while the
// page stays open (a table can keep one page open all evening), then left to the next page: the app
// works without it.
const WORKER_RETRIES = [3000, 15000];

function registerWorker(retry = 0) {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => {
    if (retry < WORKER_RETRIES.length) setTimeout(() => registerWorker(retry + 1), WORKER_RETRIES[retry]);
  });
}

// "Lock this phone": the pages the service worker kept (names, scores) go with the password; its
// files and the offline page stay, and so do the hands waiting to be sent (kept apart, in localStorage)
function forgetPages() {
  if (!document.body.hasAttribute("data-forget-pages") || !window.caches) return;
  const page = (request) => {
    const path = new URL(request.url).pathname;
    return path.indexOf("/static/") !== 0 && path !== "/offline" && path !== "/manifest.webmanifest";
  };
  caches.keys()
    .then((names) => Promise.all(names.map((name) => caches.open(name).then((cache) => cache.keys().then((requests) =>
      Promise.all(requests.filter(page).map((request) => cache.delete(request))))))))
    .then(() => { document.body.setAttribute("data-pages-forgotten", ""); })
    .catch(() => { /* nothing kept */ });
}

// --- the phone's queue of hands ---------------------------------------------------------------------

function load() {
  try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
}
function store(items) { localStorage.setItem(KEY, JSON.stringify(items)); }
function without(key) { store(load().filter((q) => q.body.client_key !== key)); }

export const queue = {
  add(item) { const q = load(); q.push(item); store(q); },
  items: load,
  flush: () => flush(),
  show: () => show(),
  remove(key) { without(key); show(); }
};

// The hand panel (hand/panel.js) opens a refused queued hand in place when it can; else its form's page.
let openHand = null;
export function setOpenHand(fn) { openHand = fn; }

// One waiting hand's line: what it is, and for a hand refused for good, why, with a button that
// opens it in the form with its figures (static/hand/draft.js) and one that takes it off.
function waitingLine(item) {
  const li = document.createElement("li");
  li.textContent = text("queued", { number: item.number, game: item.game, time: item.savedAt }) + " " +
    (item.error ? text("refused", { error: item.error }) : heldBack(item, load()) ? text("held") : text("willSend"));
  // the new totals the hand gives, as the pad's preview showed them (static/hand/send.js)
  if (!item.error && item.totals) li.textContent += " " + text("queuedTotals", { totals: item.totals.join(" · ").replace(/-/g, "\u2212") });
  if (!item.error) return li;
  li.appendChild(document.createTextNode(" "));
  li.appendChild(smallButton(text("reopen"), () => {
    const form = item.url.replace(/hands\.json$/, "hands/new");
    try { sessionStorage.setItem("canasta-reopen", JSON.stringify({ form: form, item: item })); } catch (e) { /* private mode */ }
    if (!(openHand && openHand(form))) location.href = form;
  }));
  li.appendChild(document.createTextNode(" "));
  li.appendChild(smallButton(text("remove"), () => {
    takenOff(item);
    show();
    flush();  // the hands it held back go now
  }));
  return li;
}

function smallButton(label, onClick) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn small";
  button.textContent = label;
  button.addEventListener("click", onClick);
  return button;
}

// The hands waiting on this phone, at the top of the page (none: no box).
function show() {
  const old = document.getElementById("waiting-hands");
  if (old) old.remove();
  const items = load();
  if (!items.length) return;
  const main = document.querySelector("main");
  if (!main) return;
  const box = document.createElement("section");
  box.id = "waiting-hands";
  box.className = "warning";
  box.setAttribute("role", "status");
  const title = document.createElement("p");
  title.textContent = items.length === 1 ? text("waitingOne") : text("waitingMany", { n: items.length });
  box.appendChild(title);
  const list = document.createElement("ul");
  items.forEach((item) => list.appendChild(waitingLine(item)));
  box.appendChild(list);
  main.insertBefore(box, main.firstChild);
}

// A queued hand whose form token has expired (the phone slept, the server's secret changed):
// take a fresh token from the game's hand form and send it again at the next try.
function renew(item) {
  const formUrl = item.url.replace(/hands\.json$/, "hands/new");
  return fetch(formUrl, { credentials: "same-origin", cache: "no-store", headers: BACKGROUND })
    .then((r) => (r.ok ? r.text() : ""))
    .then((page) => {
      const match = /name="csrf_token"[^>]*\svalue="([^"]+)"/.exec(page);
      store(load().map((q) => {
        if (q.body.client_key === item.body.client_key) {
          q.renewed = true;
          if (match) q.csrf = match[1];
        }
        return q;
      }));
    });
}

let flushing = false;
let reloading = false;
// live.js asks before it refreshes the page: not while hands are being sent or the page reloads
export function sending() { return flushing || reloading; }

// A hand refused for good: kept with why. Refused for what it says (its problems), the hands of this
// game queued after it wait for it (``blocks``): they were based on it being stored, and sending them
// now would put the next hand in its place. Entered again and saved, it is stored before them; taken
// off the phone, they go on one hand fewer. Refused because another phone saved that hand meanwhile
// (most likely the same hand), the hands after it go on as they are: their numbers still hold.
function refused(item, message, overtaken) {
  store(load().map((q) => {
    if (q.body.client_key === item.body.client_key) { q.error = message || "refused"; q.blocks = !overtaken; }
    return q;
  }));
}

// Whether an earlier hand of the same game, refused for its problems, holds this one back.
function heldBack(item, items) {
  for (const q of items) {
    if (q.body.client_key === item.body.client_key) return false;
    if (q.url === item.url && q.error && q.blocks) return true;
  }
  return false;
}

// A refused hand taken off the phone: the hands it held back go on, one hand fewer.
function takenOff(item) {
  let after = false;
  store(load().filter((q) => {
    if (q.body.client_key === item.body.client_key) { after = true; return false; }
    if (after && item.blocks && q.url === item.url && !q.error && typeof q.body.based_on === "number") q.body.based_on -= 1;
    return true;
  }));
}

// One queued hand sent: true when it was stored; its refusal kept with it; a throw when nothing was
// stored and it stays queued.
function sendOne(item) {
  return fetch(item.url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": item.csrf },
    body: JSON.stringify(item.body)
  }).then((r) => {
    if (r.status === 200 || r.status === 201) {
      without(item.body.client_key);
      return true;
    }
    if (r.status === 422 || r.status === 404 || r.status === 400 || r.status === 409) {
      return r.json().catch(() => ({})).then((data) => {
        const errors = data.errors || [];
        const expired = r.status === 400 && (!errors.length || errors.some((e) => e.field === "csrf_token"));
        if (expired && !item.renewed) return renew(item).then(() => false);  // the phone's token expired: a fresh one, then again
        refused(item, errors.map((e) => e.message).join(" "), r.status === 409 && errors.some((e) => e.field === "based_on"));
        return false;
      });
    }
    // 503 (another program holds the archive, the disk is full or read-only: Retry-After)
    // or any other answer: nothing was stored; keep it queued and try again later
    throw new Error("server " + r.status);
  });
}

function flush() {
  const items = load();
  if (flushing || !items.length) return Promise.resolve();
  flushing = true;
  let sent = false;
  let chain = Promise.resolve();
  items.forEach((item) => {
    chain = chain.then(() => {
      // as stored now: a hand refused before it in this round may have changed what it is based on
      const items = load();
      const now = items.filter((q) => q.body.client_key === item.body.client_key)[0];
      if (!now || now.error || heldBack(now, items)) return null;
      return sendOne(now).then((stored) => { if (stored) sent = true; });
    });
  });
  return chain.catch(() => { /* still offline: keep the rest for later */ }).then(() => {
    flushing = false;
    show();
    if (sent && document.querySelector("[data-live-game]") && !document.querySelector("form.hand-form")) {
      // the scoreboard again, at its top: the totals and the sent hand's line, with no scrolling
      // (live.js waits meanwhile: its own fetch of the page would take the confirmation)
      reloading = true;
      if ("scrollRestoration" in history) history.scrollRestoration = "manual";
      location.reload();
    }
  });
}

// --- kept for when the network drops --------------------------------------------------------------

// Warm the cache with this game's hand form, so it opens when the network drops (again after
// each live update, so the cached form is the one for the next hand).
export function warm() {
  const enter = document.querySelector('a[href$="/hands/new"]');
  if (enter && navigator.onLine) fetch(enter.href, { credentials: "same-origin", headers: BACKGROUND }).catch(() => {});
}

// On the first visit the service worker takes control only after the page has loaded: then keep
// this page and the hand form, so the game opens offline without a second visit.
function keepOnFirstControl() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!navigator.onLine) return;
    fetch(location.href, { credentials: "same-origin", headers: BACKGROUND }).catch(() => {});
    warm();
  });
}

// --- forms ----------------------------------------------------------------------------------------

// A double tap on Start game, Start the evening or any other button sends its form once
// (the hand form has its own guard, in static/hand/send.js).
function sendFormsOnce() {
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form || (form.method || "").toLowerCase() !== "post" || form.classList.contains("hand-form")) return;
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
    if (form.dataset.busy) showBusy(form);
  });
  window.addEventListener("pageshow", () => {  // back to a page kept by the browser: it may send again
    document.querySelectorAll("form[data-sent]").forEach((form) => { delete form.dataset.sent; });
  });
}

// A long restore: say so, with a bar, while the page waits for the answer.
function showBusy(form) {
  const status = document.createElement("p");
  status.className = "busy";
  status.setAttribute("role", "status");
  status.textContent = form.dataset.busy + " ";
  status.appendChild(document.createElement("progress"));
  form.appendChild(status);
  form.querySelectorAll("button").forEach((b) => { b.disabled = true; });
}

// The New game form: once the names are typed, the first dealer is picked by name (each radio's
// label follows its seat's name; an empty seat keeps its number, as without script).
function dealerNames(newGame) {
  const named = () => {
    newGame.querySelectorAll('input[name="first_dealer"]').forEach((radio, index) => {
      const label = newGame.querySelector('label[for="' + radio.id + '"]');
      const seat = newGame.querySelector('input[name="players-' + index + '"]');
      if (!label || !seat) return;
      const name = seat.value.replace(/\s+/g, " ").trim();
      label.textContent = name || String(index + 1);
    });
  };
  newGame.addEventListener("input", named);
  newGame.addEventListener("change", named);  // a name picked from the list of known players
  window.addEventListener("pageshow", named);  // the names a browser puts back on "back"
  named();
}

function start() {
  registerWorker();
  forgetPages();
  // a page with the hand panel (hand/panel.js) fetches the next hand's form itself and keeps it: warm
  // the cache only on a page without it (one fetch of the form, not two)
  if (!document.querySelector('script[src$="/hand.js"], script[src$="/hand/main.js"]')) warm();
  keepOnFirstControl();
  sendFormsOnce();
  const newGame = document.querySelector("form.new-game");
  if (newGame) dealerNames(newGame);
  show();
  flush();
  window.addEventListener("online", flush);
  setInterval(() => { if (load().some((q) => !q.error)) flush(); }, 4000);
}

if (typeof document !== "undefined") start();  // in a page (a script run elsewhere only reads its exports)
