// Every page: the installable app's service worker, and the queue of hands entered while the
// server could not be reached. Queued hands are shown as waiting and sent when the server is back,
// each with its own key, so a hand sent twice is stored once.
(function () {
  "use strict";
  var KEY = "canasta-queue";

  // The page's texts in the reader's language: base.html carries them as data-t-* attributes
  // with {name} holes, filled here (the scripts themselves hold no English).
  function text(name, values) {
    var key = "t" + name.charAt(0).toUpperCase() + name.slice(1);
    var template = document.body.dataset[key] || "";
    return template.replace(/\{(\w+)\}/g, function (all, hole) {
      return values && hole in values ? String(values[hole]) : all;
    });
  }
  window.scorekeeperText = text;

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* the app works without it */ });
  }

  // "Lock this phone": the pages the service worker kept (names, scores) go with the password; its
  // files and the offline page stay, and so do the hands waiting to be sent (kept apart, in localStorage)
  if (document.body.hasAttribute("data-forget-pages") && window.caches) {
    caches.keys().then(function (names) {
      return Promise.all(names.map(function (name) {
        return caches.open(name).then(function (cache) {
          return cache.keys().then(function (requests) {
            return Promise.all(requests.filter(function (request) {
              var path = new URL(request.url).pathname;
              return path.indexOf("/static/") !== 0 && path !== "/offline" && path !== "/manifest.webmanifest";
            }).map(function (request) { return cache.delete(request); }));
          });
        });
      }));
    }).then(function () { document.body.setAttribute("data-pages-forgotten", ""); }).catch(function () { /* nothing kept */ });
  }

  function load() {
    try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; }
  }
  function store(queue) { localStorage.setItem(KEY, JSON.stringify(queue)); }

  window.canastaQueue = {
    add: function (item) { var q = load(); q.push(item); store(q); },
    items: load,
    flush: flush,
    show: function () { show(); },
    remove: function (key) { store(load().filter(function (q) { return q.body.client_key !== key; })); show(); }
  };

  function show() {
    var old = document.getElementById("waiting-hands");
    if (old) old.remove();
    var queue = load();
    if (!queue.length) return;
    var main = document.querySelector("main");
    if (!main) return;
    var box = document.createElement("section");
    box.id = "waiting-hands";
    box.className = "warning";
    box.setAttribute("role", "status");
    var title = document.createElement("p");
    title.textContent = queue.length === 1 ? text("waitingOne") : text("waitingMany", { n: queue.length });
    box.appendChild(title);
    var list = document.createElement("ul");
    queue.forEach(function (item) {
      var li = document.createElement("li");
      li.textContent = text("queued", { number: item.number, game: item.game, time: item.savedAt }) + " " +
        (item.error ? text("refused", { error: item.error }) : text("willSend"));
      // the new totals the hand gives, as the pad's preview showed them (static/hand/send.js)
      if (!item.error && item.totals) li.textContent += " " + text("queuedTotals", { totals: item.totals.join(" · ").replace(/-/g, "\u2212") });
      // refused for good: open it in the form with its figures and why (static/hand/draft.js), or take it off
      if (item.error) {
        var again = document.createElement("button");
        again.type = "button";
        again.className = "btn small";
        again.textContent = text("reopen");
        again.addEventListener("click", function () {
          var form = item.url.replace(/hands\.json$/, "hands/new");
          try { sessionStorage.setItem("canasta-reopen", JSON.stringify({ form: form, item: item })); } catch (e) { /* private mode */ }
          if (!(window.canastaOpenHand && window.canastaOpenHand(form))) location.href = form;
        });
        li.appendChild(document.createTextNode(" "));
        li.appendChild(again);
        var remove = document.createElement("button");
        remove.type = "button";
        remove.className = "btn small";
        remove.textContent = text("remove");
        remove.addEventListener("click", function () {
          store(load().filter(function (q) { return q.body.client_key !== item.body.client_key; }));
          show();
        });
        li.appendChild(document.createTextNode(" "));
        li.appendChild(remove);
      }
      list.appendChild(li);
    });
    box.appendChild(list);
    main.insertBefore(box, main.firstChild);
  }

  // A queued hand whose form token has expired (the phone slept, the server's secret changed):
  // take a fresh token from the game's hand form and send it again at the next try.
  function renew(item) {
    var formUrl = item.url.replace(/hands\.json$/, "hands/new");
    return fetch(formUrl, { credentials: "same-origin", cache: "no-store", headers: BACKGROUND }).then(function (r) {
      return r.ok ? r.text() : "";
    }).then(function (page) {
      var match = /name="csrf_token"[^>]*\svalue="([^"]+)"/.exec(page);
      store(load().map(function (q) {
        if (q.body.client_key === item.body.client_key) {
          q.renewed = true;
          if (match) q.csrf = match[1];
        }
        return q;
      }));
    });
  }

  // a page fetched to be kept, not shown now: the server leaves its messages for the page shown next
  var BACKGROUND = { "X-Canasta-Background": "1" };
  var flushing = false;
  var reloading = false;
  // live.js asks before it refreshes the page: not while hands are being sent or the page reloads
  window.canastaSending = function () { return flushing || reloading; };
  function flush() {
    var queue = load();
    if (flushing || !queue.length) return Promise.resolve();
    flushing = true;
    var sent = false;
    var chain = Promise.resolve();
    queue.forEach(function (item) {
      chain = chain.then(function () {
        // as stored now: a hand refused before it in this round may have changed what it is based on
        var now = load().filter(function (q) { return q.body.client_key === item.body.client_key; })[0];
        if (!now || now.error) return;
        item = now;
        return fetch(item.url, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": item.csrf },
          body: JSON.stringify(item.body)
        }).then(function (r) {
          if (r.status === 200 || r.status === 201) {
            store(load().filter(function (q) { return q.body.client_key !== item.body.client_key; }));
            sent = true;
          } else if (r.status === 422 || r.status === 404 || r.status === 400 || r.status === 409) {
            return r.json().catch(function () { return {}; }).then(function (data) {
              var errors = data.errors || [];
              var expired = r.status === 400 && (!errors.length || errors.some(function (e) { return e.field === "csrf_token"; }));
              if (expired && !item.renewed) return renew(item);  // the phone's token expired: a fresh one, then again
              var message = errors.map(function (e) { return e.message; }).join(" ");
              // the hands of this game queued after it were based on it being stored: one hand fewer now
              var after = false;
              store(load().map(function (q) {
                if (q.body.client_key === item.body.client_key) { q.error = message || "refused"; after = true; }
                else if (after && q.url === item.url && !q.error && typeof q.body.based_on === "number") q.body.based_on -= 1;
                return q;
              }));
            });
          } else {
            // 503 (another program holds the archive, the disk is full or read-only: Retry-After)
            // or any other answer: nothing was stored; keep it queued and try again later
            throw new Error("server " + r.status);
          }
        });
      });
    });
    return chain.catch(function () { /* still offline: keep the rest for later */ }).then(function () {
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

  // Warm the cache with this game's hand form, so it opens when the network drops (again after
  // each live update, so the cached form is the one for the next hand).
  function warm() {
    var enter = document.querySelector('a[href$="/hands/new"]');
    if (enter && navigator.onLine) fetch(enter.href, { credentials: "same-origin", headers: BACKGROUND }).catch(function () {});
  }
  window.canastaWarm = warm;
  warm();
  // On the first visit the service worker takes control only after the page has loaded: then keep
  // this page and the hand form, so the game opens offline without a second visit.
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (!navigator.onLine) return;
      fetch(location.href, { credentials: "same-origin", headers: BACKGROUND }).catch(function () {});
      warm();
    });
  }

  // A double tap on Start game, Start the evening or any other button sends its form once
  // (the hand form has its own guard, in static/hand/send.js).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || (form.method || "").toLowerCase() !== "post" || form.classList.contains("hand-form")) return;
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
    if (form.dataset.busy) {  // a long restore: say so, with a bar, while the page waits for the answer
      var status = document.createElement("p");
      status.className = "busy";
      status.setAttribute("role", "status");
      status.textContent = form.dataset.busy + " ";
      status.appendChild(document.createElement("progress"));
      form.appendChild(status);
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    }
  });
  window.addEventListener("pageshow", function () {  // back to a page kept by the browser: it may send again
    document.querySelectorAll("form[data-sent]").forEach(function (form) { delete form.dataset.sent; });
  });

  // The New game form: once the names are typed, the first dealer is picked by name (each radio's
  // label follows its seat's name; an empty seat keeps its number, as without script).
  var newGame = document.querySelector("form.new-game");
  if (newGame) {
    var dealerNames = function () {
      newGame.querySelectorAll('input[name="first_dealer"]').forEach(function (radio, index) {
        var label = newGame.querySelector('label[for="' + radio.id + '"]');
        var seat = newGame.querySelector('input[name="players-' + index + '"]');
        if (!label || !seat) return;
        var name = seat.value.replace(/\s+/g, " ").trim();
        label.textContent = name || String(index + 1);
      });
    };
    newGame.addEventListener("input", dealerNames);
    newGame.addEventListener("change", dealerNames);  // a name picked from the list of known players
    window.addEventListener("pageshow", dealerNames);  // the names a browser puts back on "back"
    dealerNames();
  }

  show();
  flush();
  window.addEventListener("online", flush);
  setInterval(function () { if (load().some(function (q) { return !q.error; })) flush(); }, 4000);
})();
