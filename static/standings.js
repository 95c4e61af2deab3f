// The standings on a big screen: ask every second whether anything was saved (the archive's version),
// fetch the page again when it was and put its content in place; the round's clock counts down here.
// On a screen wider than 1000 px the page is one screen: its text takes the largest size at which
// every table and every line of the ranking is in view and no name is cut (style.css: --fit).
let polling = false;
let endsAt = null; // when the round's time is up, by this screen's own clock

// The server counts whole seconds, so two of its pages may differ by a second or two from what is
// counted here: a fresh page within 3 s of the count keeps it (no jump, no pause after each saved
// hand); a round started or moved takes the page's time.
function takeClock() {
  const clock = document.querySelector(".s-clock[data-left]");
  if (!clock) { endsAt = null; return; }
  const ends = Date.now() + Number(clock.dataset.left) * 1000;
  if (endsAt === null || Math.abs(ends - endsAt) > 3000) endsAt = ends;
}

function main() { return document.querySelector("main.standings"); }

const WIDE = window.matchMedia ? window.matchMedia("(min-width: 1000px)") : null;

// 2: something is out of view (the page would scroll); 1: all is in view but a name is cut; 0: it fits.
function overflows(root) {
  if (root.scrollHeight > root.clientHeight + 1 || root.scrollWidth > root.clientWidth + 1) return 2;
  const cut = root.querySelectorAll(".s-names, .s-name, .s-head h1, .s-ranking ol");
  for (let i = 0; i < cut.length; i++) if (cut[i].scrollWidth > cut[i].clientWidth + 1) return 1;
  return 0;
}

// The largest scale (of the screen's own size, 1.4 down to 0.4) at which everything is in view and no
// name is cut, tried from the largest down, as a smaller text may put more tables on a row and so
// need more room; when none is, the largest at which everything is in view (a long name cut short).
function fit() {
  const root = main();
  if (!root) return;
  // a closed tournament's final standings scroll, its ranking first (tournaments.css: .final)
  if (!WIDE || !WIDE.matches || root.classList.contains("final")) { root.style.removeProperty("--fit"); return; }
  let inView = null;
  for (let scale = 1.4; scale >= 0.4 - 1e-9; scale = Math.round((scale - 0.05) * 100) / 100) {
    root.style.setProperty("--fit", String(scale));
    const state = overflows(root);
    if (state === 0) return;
    if (state === 1 && inView === null) inView = scale;
  }
  root.style.setProperty("--fit", String(inView === null ? 0.4 : inView));
}

function refresh() {
  return fetch(location.href, { credentials: "same-origin", cache: "no-store" })
    .then((r) => { return r.ok ? r.text() : null; })
    .then((html) => {
      if (!html) return;
      const fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main.standings");
      const now = main();
      if (!fresh || !now) return;
      now.innerHTML = fresh.innerHTML;
      now.className = fresh.className;
      now.dataset.version = fresh.dataset.version;
      takeClock();
      tick();
      fit();
    });
}

function poll() {
  const root = main();
  if (polling || !root) return;
  polling = true;
  fetch(root.dataset.standingsUrl, { credentials: "same-origin", cache: "no-store" })
    .then((r) => { return r.ok ? r.json() : null; })
    .then((data) => {
      if (data && String(data.version) !== String(main().dataset.version)) return refresh();
      return null;
    })
    .catch(() => { /* the server is away a moment: ask again at the next tick */ })
    .then(() => { polling = false; });
}

// Looked at four times a second, so that the seconds turn evenly whatever the timers' phase.
function tick() {
  const clock = document.querySelector(".s-clock[data-left]");
  if (!clock || endsAt === null) return;
  const left = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
  const shown = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
  const time = clock.querySelector(".s-time");
  const note = clock.querySelector(".s-clock-note");
  if (time.textContent !== shown) time.textContent = shown;
  const warn = left > 0 && left <= Number(clock.dataset.warn);
  clock.classList.toggle("warn", warn);
  clock.classList.toggle("up", left === 0);
  const said = left === 0 ? clock.dataset.tUp : (warn ? clock.dataset.tWarn : "");
  if (note.textContent !== said) note.textContent = said;
}

takeClock();
fit();
window.addEventListener("resize", fit);
if (document.fonts && document.fonts.ready) document.fonts.ready.then(fit);
setInterval(poll, 1000);
setInterval(tick, 250);
document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
