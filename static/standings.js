// The standings on a big screen: ask every second whether anything was saved (the archive's version),
// fetch the page again when it was and put its content in place; the round's clock counts down here.
(function () {
  "use strict";
  var polling = false;
  var shownAt = Date.now();

  function main() { return document.querySelector("main.standings"); }

  function refresh() {
    return fetch(location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("main.standings");
        var now = main();
        if (!fresh || !now) return;
        now.innerHTML = fresh.innerHTML;
        now.className = fresh.className;
        now.dataset.version = fresh.dataset.version;
        shownAt = Date.now();
        tick();
      });
  }

  function poll() {
    var root = main();
    if (polling || !root) return;
    polling = true;
    fetch(root.dataset.standingsUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data && String(data.version) !== String(main().dataset.version)) return refresh();
        return null;
      })
      .catch(function () { /* the server is away a moment: ask again at the next tick */ })
      .then(function () { polling = false; });
  }

  function tick() {
    var clock = document.querySelector(".s-clock[data-left]");
    if (!clock) return;
    var left = Math.max(0, Number(clock.dataset.left) - Math.floor((Date.now() - shownAt) / 1000));
    var time = clock.querySelector(".s-time");
    var note = clock.querySelector(".s-clock-note");
    time.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    var warn = left > 0 && left <= Number(clock.dataset.warn);
    clock.classList.toggle("warn", warn);
    clock.classList.toggle("up", left === 0);
    note.textContent = left === 0 ? clock.dataset.tUp : (warn ? clock.dataset.tWarn : "");
  }

  setInterval(poll, 1000);
  setInterval(tick, 1000);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
})();
