// The installable app's service worker (a browser runs it only in a secure context: https:// or
// localhost; on plain http:// the pages keep the hand form themselves, see static/hand/panel.js).
// The shell is cached on install; pages and files are fetched from the network first and kept, so
// the open game and its hand form load when the computer cannot be reached.
// Filled in by the address that serves this file, /sw.js (scorekeeper/web/staticfiles.py,
// service_worker_script): SHELL lists the pages and every script, style sheet and icon of static/
// (the hand form's modules one by one, and in one file as the pages load them: /hand.js); CACHE is
// named from those files' contents, so a changed file makes a new cache and the old one goes.
// Each stays one line. As written here (static/sw.js itself), the worker keeps only the pages.
var CACHE = "canasta-unnamed";
var SHELL = ["/", "/offline", "/manifest.webmanifest", "/hand.js"];
// A computer that is switched off or asleep may take a minute to be given up on: a page kept here is
// shown after this long without an answer (the network's answer still refreshes what is kept).
var NAVIGATION_MS = 4000;

// Active at once, the shell cached alongside: the first visit's pages are looked after (and kept)
// without waiting for ten downloads on a busy Wi-Fi; pages and files are kept as they are fetched anyway.
// The install waits on nothing: skipWaiting's promise may be ignored, and it was the one thing the
// install waited on when WebKit, under load, kept a worker "installing" for more than 30 s.
self.addEventListener("install", function () {
  caches.open(CACHE).then(function (cache) { return cache.addAll(SHELL); }).catch(function () { /* kept on use */ });
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim().then(function () { return caches.keys(); }).then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }));
});

function kept(request) {
  return caches.match(request).then(function (hit) {
    if (hit) return hit;
    if (request.mode === "navigate") return caches.match("/offline");
    return Response.error();
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  // what the pages poll (a game's or the standings' version) is never kept: an old answer helps nobody
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.indexOf("/api/") === 0 ||
      /\/version$/.test(url.pathname)) return;
  var network = fetch(request).then(function (response) {
    // a redirected answer is never kept: given back for a page, the browser would refuse it
    if (response.ok && !response.redirected && response.type === "basic") {
      var copy = response.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(request, copy); }));
    }
    return response;
  });
  if (request.mode !== "navigate") {
    event.respondWith(network.catch(function () { return kept(request); }));
    return;
  }
  event.respondWith(new Promise(function (resolve) {
    var settled = false;
    function answer(response) {
      if (!settled) { settled = true; resolve(response); }
    }
    var timer = setTimeout(function () {
      caches.match(request).then(function (hit) { if (hit) answer(hit); });
    }, NAVIGATION_MS);
    network.then(function (response) {
      clearTimeout(timer);
      answer(response);
    }, function () {
      clearTimeout(timer);
      kept(request).then(answer);
    });
  }));
});
