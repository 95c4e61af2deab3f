// Hand form: steppers for small counts, one side going out clears the other, a live preview of each
// side's hand score from the server's own scoring (POST /api/score), and saving by script.
//
// Entry that survives a dropped connection with or without a service worker (a phone on plain
// http:// gets none): the form is sent by script, and when the server cannot be reached the hand
// goes into the phone's queue (app.js), shown as waiting and sent when the connection is back. The
// scoreboard and the next hand's form are both kept in the page: the scoreboard fetches the form in
// the background and opens it as a panel (a second <main>, the scoreboard's hidden meanwhile); the
// hand form's page keeps the scoreboard. So moving between them needs no network either. Without
// script the form is an ordinary form and the links are ordinary links.
(function () {
  "use strict";
  var main = document.querySelector("main");
  if (!main) return;
  var SEND_MS = 10000;  // a save with no answer by then is kept on the phone (its key makes a resend safe)
  var FETCH_MS = 10000;

  function signed(n) {  // +20, −15 with a real minus sign, 0
    return n > 0 ? "+" + n : n < 0 ? "\u2212" + Math.abs(n) : "0";
  }

  function toInt(value) {
    var n = parseInt(value, 10);
    return isNaN(n) ? 0 : n;
  }

  // A typed figure as the server reads it: a whole number, 0 when empty, otherwise the text as typed,
  // so the server names the field ("3O0" is not 3, "abc" not 0).
  function figure(value) {
    var v = String(value).trim();
    if (v === "") return 0;
    return /^[0-9]+$/.test(v) ? parseInt(v, 10) : v;
  }

  function text(name, values) {
    return window.scorekeeperText ? window.scorekeeperText(name, values) : "";
  }

  function queue() { return window.canastaQueue || null; }

  // An answer from the server, or a rejection when there is none within ``ms`` (no network, server
  // gone, connection cut): {status, redirected, html}.
  function request(url, options, ms) {
    var abort = window.AbortController ? new AbortController() : null;
    if (abort) options.signal = abort.signal;
    var timer = abort ? setTimeout(function () { abort.abort(); }, ms) : null;
    return fetch(url, options).then(function (r) {
      if (r.type === "opaqueredirect" || (r.status >= 300 && r.status < 400)) {
        return { status: r.status, redirected: true, html: "" };
      }
      return r.text().then(function (html) { return { status: r.status, redirected: r.redirected, html: html }; });
    }).then(function (answer) {
      clearTimeout(timer);
      return answer;
    }, function (error) {
      clearTimeout(timer);
      throw error;
    });
  }

  function parse(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    return { main: doc.querySelector("main"), title: doc.title };
  }

  var anySending = false;

  // ---- one hand form ------------------------------------------------------------------------
  // options.onQueued: what the page does once a hand is kept on the phone (show the scoreboard);
  // options.reopened: a refused queued hand this form was opened for (kept across a refusal).
  function initForm(form, options) {
    options = options || {};
    // One side's fields, from the side-entry table (scorekeeper/entry.py) the page puts in data-fields:
    // each with its name in the API's entry, its kind, and for a figure that can be given in points or
    // in card counts, the form's choice between them (mode) and the card inputs.
    var FIELDS = JSON.parse(form.dataset.fields || "[]");
    var CHOICES = FIELDS.filter(function (f) { return f.kind === "choice"; }).map(function (f) { return f.name; });
    var action = form.getAttribute("action") || location.pathname;

    function sideName(name) {  // "went_out" of "sides-1-went_out"
      var match = /^sides-[0-9]+-(.+)$/.exec(name || "");
      return match ? match[1] : "";
    }
    function isWentOut(name) {  // a side's choice of how it went out (the "no" of each ends the others)
      return CHOICES.indexOf(sideName(name)) >= 0;
    }

    form.addEventListener("click", function (event) {
      var button = event.target.closest("button.step");
      if (!button) return;
      var input = document.getElementById(button.dataset.target);
      var max = toInt(input.dataset.max) || 99;
      var next = Math.min(max, Math.max(0, toInt(input.value) + toInt(button.dataset.delta)));
      input.value = next === 0 ? "" : String(next);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });

    // Only one side can go out: choosing it for one side sets the others to "No" and clears "the
    // stock ran out"; ticking that sets every side to "No".
    form.addEventListener("change", function (event) {
      var input = event.target;
      if (input.name === "stock_out" && input.checked) {
        form.querySelectorAll('input[type=radio][value=no]').forEach(function (no) {
          if (isWentOut(no.name)) no.checked = true;
        });
        return;
      }
      if (!isWentOut(input.name) || input.value === "no") return;
      form.querySelectorAll('input[type=radio][value=no]').forEach(function (no) {
        if (isWentOut(no.name) && no.name !== input.name) no.checked = true;
      });
      var stock = form.querySelector('input[name="stock_out"]');
      if (stock) stock.checked = false;
    });

    // One side's entry in the API's shape, field by field of the table.
    function sideEntry(side) {
      var prefix = "sides-" + side + "-";
      var entry = {};
      function input(name) { return form.elements.namedItem(prefix + name); }
      function checked(name) {  // the ticked value of a side's radio choice, or null
        var el = form.querySelector('input[type=radio][name="' + prefix + name + '"]:checked');
        return el ? el.value : null;
      }
      FIELDS.forEach(function (f) {
        if (f.mode && (checked(f.mode) || "points") !== f.mode_value) return;  // given the other way
        if (f.kind === "choice") {
          var value = checked(f.name);
          if (value !== null) entry[f.name] = value === "no" ? null : value;
        } else if (f.kind === "flag") {
          var box = input(f.name);
          if (box) entry[f.name] = box.checked;
        } else if (f.kind === "cards") {
          var counts = {};
          Object.keys(f.inputs).forEach(function (card) {
            var el = input(f.inputs[card]);
            if (el) counts[card] = figure(el.value);
          });
          entry[f.name] = counts;
        } else {
          var el = input(f.name);
          if (el) entry[f.name] = figure(el.value);
        }
      });
      return entry;
    }

    // The other way round: a kept entry (a refused queued hand) as a draft of this form's inputs.
    function draftOf(body) {
      var draft = {};
      (body.sides || []).forEach(function (entry, side) {
        var prefix = "sides-" + side + "-";
        FIELDS.forEach(function (f) {
          if (!(f.name in entry)) return;
          var value = entry[f.name];
          if (f.mode) draft[prefix + f.mode + "=" + f.mode_value] = true;
          if (f.kind === "choice") draft[prefix + f.name + "=" + (value === null ? "no" : value)] = true;
          else if (f.kind === "flag") { if (value) draft[prefix + f.name + "=y"] = true; }
          else if (f.kind === "cards") {
            Object.keys(f.inputs).forEach(function (card) {
              draft[prefix + f.inputs[card]] = value && value[card] ? String(value[card]) : "";
            });
          } else draft[prefix + f.name] = value ? String(value) : "";
        });
      });
      if (body.stock_out) draft["stock_out=y"] = true;
      if (body.lone !== undefined) draft["lone=" + (body.lone === null ? "none" : body.lone)] = true;
      return draft;
    }

    var previews = form.querySelectorAll("[data-preview]");
    var totals = form.dataset.totals.split(",").map(toInt);
    var timer = null;
    var csrf = form.elements.csrf_token ? form.elements.csrf_token.value : "";

    function row(label, points) {
      var tr = document.createElement("tr");
      var a = document.createElement("td");
      var b = document.createElement("td");
      a.textContent = label;
      b.textContent = signed(points);
      b.className = "num";
      tr.appendChild(a);
      tr.appendChild(b);
      return tr;
    }

    function render(data) {
      previews.forEach(function (box, i) {
        // a box whose answer has not changed is left as it is: nothing moves under the thumb
        var mine = JSON.stringify(data.errors
          ? data.errors.filter(function (e) { return e.side === i || e.side === null; })
          : [data.sides[i], (data.warnings || []).filter(function (w) { return w.side === i; })]);
        if (box.dataset.shown === mine) return;
        box.dataset.shown = mine;
        box.textContent = "";
        if (data.errors) {
          data.errors.filter(function (e) { return e.side === i || e.side === null; }).forEach(function (e) {
            var p = document.createElement("p");
            p.className = "error";
            p.textContent = e.message;
            box.appendChild(p);
          });
          return;
        }
        var side = data.sides[i];
        (data.warnings || []).filter(function (w) { return w.side === i; }).forEach(function (w) {
          var note = document.createElement("p");
          note.className = "warning";
          note.textContent = w.message;
          box.appendChild(note);
        });
        var p = document.createElement("p");
        p.className = "score";
        p.textContent = text("thisHand", { score: signed(side.score), total: String(side.total).replace("-", "\u2212") });
        box.appendChild(p);
        var table = document.createElement("table");
        side.breakdown.forEach(function (line) { table.appendChild(row(line.label, line.points)); });
        box.appendChild(table);
      });
    }

    function loneChoice() {
      var el = form.querySelector('input[name="lone"]:checked');
      if (!el) return undefined;
      return el.value === "none" ? null : toInt(el.value);
    }

    // Answers can come back out of order on a busy server or network: only the latest asked is shown.
    // A lost answer is asked again (three times, a little later each time) unless newer typing has
    // asked for a newer one meanwhile.
    var asked = 0;
    function preview(tries) {
      tries = typeof tries === "number" ? tries : 0;
      if (!form.isConnected) return;  // a form the page has let go of
      var mine = ++asked;
      var sides = [];
      for (var i = 0; i < previews.length; i++) sides.push(sideEntry(i));
      fetch(form.dataset.previewUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({
          variant: form.dataset.variant, layout: form.dataset.layout, settings: JSON.parse(form.dataset.settings || "{}"),
          target: toInt(form.dataset.target), totals_before: totals, sides: sides, lone: loneChoice()
        }),
        credentials: "same-origin"
      }).then(function (r) {
        if (!r.ok && r.status !== 422) throw new Error("preview " + r.status);
        return r.json();
      }).then(function (data) {
        if (mine === asked) render(data);
      }).catch(function () {
        // offline: the form still saves
        if (mine === asked && tries < 3) {
          setTimeout(function () { if (mine === asked) preview(tries + 1); }, 700 * (tries + 1));
        }
      });
    }

    // A fresh key for each entry: the same entry sent twice (double tap, resend, retry) is stored once.
    var keyField = form.elements.client_key || null;
    function freshKey() {
      if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
      return Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
    }
    if (keyField) keyField.value = freshKey();

    // What is typed is kept on the phone until it is saved: switching the language or the text size,
    // going back to the score, or a slip of the Back button reopens the form with it (sessionStorage:
    // this tab only). A refused queued hand opened here keeps why it was refused with it.
    var draftKey = "canasta-draft:" + action + ":" + (form.elements.based_on ? form.elements.based_on.value : "");
    var KEEP = /^(sides-|stock_out$|lone$|confirm$)/;
    var reopened = options.reopened || null;
    function saveDraft() {
      var draft = {};
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || !KEEP.test(el.name)) return;
        if (el.type === "radio" || el.type === "checkbox") { if (el.checked) draft[el.name + "=" + el.value] = true; }
        else draft[el.name] = el.value;
      });
      if (reopened) draft._reopened = reopened;
      try { sessionStorage.setItem(draftKey, JSON.stringify(draft)); } catch (e) { /* private mode: nothing kept */ }
    }
    function applyDraft(draft) {
      Array.prototype.forEach.call(form.elements, function (el) {
        if (!el.name || !KEEP.test(el.name)) return;
        if (el.type === "radio" || el.type === "checkbox") el.checked = !!draft[el.name + "=" + el.value];
        else if (el.name in draft) el.value = draft[el.name];
      });
    }
    function restoreDraft() {
      var draft;
      try { draft = JSON.parse(sessionStorage.getItem(draftKey) || "null"); } catch (e) { draft = null; }
      if (!draft) return;
      if (!reopened && draft._reopened) reopened = draft._reopened;
      if (form.querySelector('[aria-invalid="true"], .has-error')) return;  // the server's page holds what was sent
      applyDraft(draft);
    }
    function removeDraft() {
      try { sessionStorage.removeItem(draftKey); } catch (e) { /* nothing kept */ }
    }

    // A refused queued hand to open here (the "Open in the form" button of the waiting list, app.js)
    var pending = null;
    try { pending = JSON.parse(sessionStorage.getItem("canasta-reopen") || "null"); } catch (e) { pending = null; }
    if (pending && pending.form === action && pending.item && pending.item.body && form.dataset.queueUrl) {
      try { sessionStorage.removeItem("canasta-reopen"); } catch (e) { /* nothing kept */ }
      reopened = { key: pending.item.body.client_key, error: pending.item.error || "" };
      applyDraft(draftOf(pending.item.body));
      saveDraft();
    } else {
      restoreDraft();
    }

    function notice(id, message) {  // a message above the form, replacing an older one of its kind
      var old = document.getElementById(id);
      if (old) old.remove();
      if (!message) return;
      var box = document.createElement("div");
      box.id = id;
      box.className = "error-box";
      box.setAttribute("role", "alert");
      var p = document.createElement("p");
      p.textContent = message;
      box.appendChild(p);
      form.parentNode.insertBefore(box, form);
    }
    if (reopened) {
      notice("reopened", (form.dataset.tReopened || "").replace("{error}", reopened.error));
    }

    function queueHand() {
      var q = queue();
      var sides = [];
      for (var i = 0; i < previews.length; i++) sides.push(sideEntry(i));
      var stock = form.querySelector('input[name="stock_out"]');
      var body = { client_key: keyField.value, sides: sides, stock_out: !!(stock && stock.checked) };
      var lone = loneChoice();
      if (lone !== undefined) body.lone = lone;
      // Hands of this game already waiting come first: this one follows them (its number and what it
      // is based on), so two hands entered offline are stored as two hands, in order.
      var before = q.items().filter(function (item) { return item.url === form.dataset.queueUrl && !item.error; }).length;
      var basedOn = form.elements.based_on && /^[0-9]+$/.test(form.elements.based_on.value) ? toInt(form.elements.based_on.value) : null;
      if (basedOn !== null) body.based_on = basedOn + before;
      var now = new Date();
      q.add({
        url: form.dataset.queueUrl, csrf: csrf, body: body, number: toInt(form.dataset.handNumber) + before,
        game: form.dataset.gameName || "the game",
        savedAt: ("0" + now.getHours()).slice(-2) + ":" + ("0" + now.getMinutes()).slice(-2)
      });
      forget();
      removeDraft();
      if (options.onQueued) options.onQueued();
      else location.href = form.dataset.gameUrl;
    }

    function forget() {  // a refused hand entered again is no longer waiting for a decision
      if (reopened && queue() && queue().remove) queue().remove(reopened.key);
    }

    var sending = false;
    function done() {
      sending = false;
      anySending = false;
      form.removeAttribute("aria-busy");
    }

    // Saved: the score sheet, fresh from the server (one real navigation: the server just answered).
    function saved() {
      forget();
      removeDraft();
      var target = form.dataset.gameUrl || location.pathname;
      if (location.pathname + location.search === target) {  // the same document: load it again
        location.hash = "sheet";
        location.reload();
      } else {
        location.replace(target + "#sheet");
      }
    }

    // Not saved: the server's answer in place of the form (the form again with its messages and every
    // value as sent, or the password page, or an error page).
    function answered(answer) {
      done();
      var page = parse(answer.html);
      var view = form.closest("main") || main;
      if (!page.main) { location.reload(); return; }
      view.innerHTML = page.main.innerHTML;
      if (page.title) document.title = page.title;
      var next = view.querySelector("form.hand-form");
      if (next) initForm(next, { onQueued: options.onQueued, reopened: reopened });
      // the page now shows the server's answer, as after a form sent without script: tell the browser
      // (the same address, a fresh entry for it)
      history.replaceState(history.state, "", location.href);
    }

    // No answer: a new hand is kept on the phone; a correction, which only the server can check
    // against what it holds, stays here to be saved again.
    function unreachable() {
      done();
      if (!form.dataset.queueUrl || !queue()) {
        notice("unreachable", form.dataset.tUnreachable || "");
        return;
      }
      // Offline nobody checks the figures until later: a field that is not a whole number is
      // shown now, beside the field, before the hand is kept on the phone.
      var bad = Array.prototype.filter.call(form.querySelectorAll('input[type="text"][name^="sides-"]'), function (el) {
        return el.value.trim() !== "" && !/^[0-9]+$/.test(el.value.trim());
      });
      if (bad.length) {
        bad.forEach(function (el) {
          el.setCustomValidity(text("wholeNumber"));
          el.addEventListener("input", function () { el.setCustomValidity(""); }, { once: true });
        });
        form.reportValidity();
        return;
      }
      queueHand();
    }

    form.addEventListener("submit", function (event) {
      if (!window.fetch || !window.URLSearchParams || !window.FormData) {  // an old browser: sent as a page, once
        if (sending) event.preventDefault();
        sending = true;
        removeDraft();
        return;
      }
      event.preventDefault();
      if (sending) return;  // a double tap sends once
      sending = true;
      anySending = true;
      form.setAttribute("aria-busy", "true");
      notice("unreachable", "");
      var body = new URLSearchParams(new FormData(form));
      request(action, { method: "POST", body: body, credentials: "same-origin", redirect: "manual" }, SEND_MS)
        .then(function (answer) {
          if (answer.redirected) saved();
          else answered(answer);
        }, unreachable);
    });

    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(preview, 250);
      saveDraft();
    });
    form.addEventListener("change", function () {
      clearTimeout(timer);
      timer = setTimeout(preview, 50);
      saveDraft();
    });
    // After a refused save, bring the first field with a message into view (above the save bar).
    var firstError = form.querySelector('[aria-invalid="true"], .has-error input');
    if (firstError) {
      firstError.scrollIntoView({ block: "center" });
      firstError.focus({ preventScroll: true });
    }

    preview();
    form.dataset.ready = "1";  // every handler is in place (the browser tests wait for this)
    return form;
  }

  // Back to a page kept by the browser after it was sent: its key is used up, so a new entry there
  // would be taken for the same hand sent twice. Load it fresh instead.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && anySending) location.reload();
  });

  // ---- the scoreboard and the next hand's form, kept together -------------------------------
  var handForm = main.querySelector("form.hand-form");
  var startedAs = handForm && handForm.dataset.queueUrl ? "hand" : !handForm && main.dataset.liveGame ? "score" : null;
  if (!startedAs) {  // a correction (or no form): the form alone
    if (handForm) initForm(handForm);
    return;
  }

  var mode = startedAs;  // what the page's own <main> holds: "hand" (the form) or "score"
  var gameUrl = startedAs === "hand" ? handForm.dataset.gameUrl : location.pathname;
  var handPath = startedAs === "hand" ? location.pathname : null;
  var handSource = "";  // the form as the server sent it, without what the page's scripts put in since
  if (startedAs === "hand") {
    var copy = main.cloneNode(true);
    copy.querySelectorAll("#waiting-hands, #live-notice, #reopened, #unreachable, .flash").forEach(function (el) { el.remove(); });
    handSource = copy.innerHTML;
  }
  var handTitle = document.title;
  var kept = null;  // the next hand's form page: {url, html, title}
  var score = null;  // the scoreboard, on a page that opened as the form: {html, title}
  var scoreTitle = document.title;
  var panel = null;  // the form's <main>, shown instead of the scoreboard's
  var stash = null;  // the scoreboard's nodes while the panel is shown (out of the page, so nothing finds them)
  var pushed = false;  // the panel's history entry was added on top of the scoreboard's
  var stale = false;  // the game changed while the panel was shown
  var fetching = null;
  // The panel's address: the scoreboard's with a query (not a fragment), so that saving is a real
  // navigation to the sheet, and live.js, which reloads the scoreboard from location.href, still
  // gets the scoreboard.
  var PANEL = "?hand=new";

  function enterLink() { return main.querySelector('a[href$="/hands/new"]'); }

  var observer = new MutationObserver(changes);
  function quietly(change) {  // a change of <main> the page makes itself (not another phone's)
    observer.disconnect();
    change();
    observer.takeRecords();
    observer.observe(main, { childList: true });
  }

  function showQueue() {
    if (queue() && queue().show) queue().show();
  }

  // The footer's language and text-size links come back to the view shown (the form keeps its draft).
  function setNext(path) {
    document.querySelectorAll("footer a[href*='next=']").forEach(function (a) {
      var url = new URL(a.getAttribute("href"), location.href);
      url.searchParams.set("next", path);
      a.setAttribute("href", url.pathname + url.search);
    });
  }

  // The next hand's form, fetched in the background (again after each change of the game).
  function fetchForm() {
    if (mode !== "score" || panel) return Promise.resolve(false);
    var link = enterLink();
    if (!link) { kept = null; return Promise.resolve(false); }
    if (fetching) return fetching;
    var url = link.getAttribute("href");
    fetching = request(url, { credentials: "same-origin", cache: "no-store" }, FETCH_MS).then(function (answer) {
      fetching = null;
      if (answer.status !== 200 || answer.redirected) return false;
      var page = parse(answer.html);
      if (!page.main || !page.main.querySelector("form.hand-form")) return false;
      kept = { url: url, html: page.main.innerHTML, title: page.title };
      handPath = url;
      var now = enterLink();
      if (now && now.getAttribute("href") === url) now.dataset.kept = "1";  // the browser tests wait for this
      return true;
    }, function () {
      fetching = null;
      return false;
    });
    return fetching;
  }

  // The scoreboard, kept by a page that opened as the form (shown when the network is gone), and
  // brought up to date after another phone's change on such a page.
  function fetchScore() {
    return request(gameUrl, { credentials: "same-origin", cache: "no-store" }, FETCH_MS).then(function (answer) {
      if (answer.status !== 200 || answer.redirected) return;
      var page = parse(answer.html);
      if (!page.main || !page.main.querySelector(".totals")) return;
      score = { html: page.main.innerHTML, title: page.title };
      if (mode === "hand") {
        var form = main.querySelector("form.hand-form");
        if (form) form.dataset.scoreKept = "1";  // the browser tests wait for this
      } else if (panel) {
        stale = true;  // shown when the panel closes
      } else {
        quietly(function () { main.innerHTML = page.main.innerHTML; });
        showQueue();
        fetchForm();
      }
    }).catch(function () { /* offline: the scoreboard kept before is shown */ });
  }

  function renumber(view, form) {  // hands of this game waiting on the phone come before this one
    var q = queue();
    if (!q || !form.dataset.queueUrl) return;
    var before = q.items().filter(function (item) { return item.url === form.dataset.queueUrl && !item.error; }).length;
    if (!before) return;
    var number = toInt(form.dataset.handNumber);
    var pattern = new RegExp("(^|[^0-9])" + number + "(?![0-9])");
    [view.querySelector("h1"), form.querySelector('button[type="submit"]')].forEach(function (el) {
      if (el) el.textContent = el.textContent.replace(pattern, "$1" + (number + before));
    });
  }

  function changed() {  // another phone changed the game while the form is shown: say so, keep the entry
    stale = true;
    if (!panel || document.getElementById("live-notice")) return;
    var p = document.createElement("p");
    p.id = "live-notice";
    p.className = "warning";
    p.setAttribute("role", "status");
    p.textContent = text("changed");
    panel.insertBefore(p, panel.firstChild);
  }

  function openHand(push) {
    if (panel || mode !== "score") return;
    if (!kept) {
      var link = enterLink();
      fetchForm().then(function (ok) {
        if (ok) openHand(push);
        else if (link) location.href = link.href;  // as without script
      });
      return;
    }
    stash = document.createDocumentFragment();
    quietly(function () { while (main.firstChild) stash.appendChild(main.firstChild); });
    main.hidden = true;
    panel = document.createElement("main");
    panel.id = "hand-panel";
    panel.innerHTML = kept.html;
    main.parentNode.insertBefore(panel, main.nextSibling);
    document.title = kept.title;
    var form = panel.querySelector("form.hand-form");
    renumber(panel, form);
    initForm(form, { onQueued: leave });
    setNext(kept.url);
    if (push) {
      history.pushState(null, "", gameUrl + PANEL);
      pushed = true;
    }
    window.scrollTo(0, 0);
    focus(panel.querySelector("h1"));
  }

  function focus(el) {  // where a screen reader goes on with the view that replaced the other
    if (!el) return;
    if (!el.hasAttribute("tabindex") && !/^(A|BUTTON|INPUT)$/.test(el.tagName)) el.setAttribute("tabindex", "-1");
    el.focus({ preventScroll: true });
  }

  function closePanel() {
    if (!panel) return;
    panel.remove();
    panel = null;
    quietly(function () {
      main.textContent = "";
      if (stale && score && startedAs === "hand") main.innerHTML = score.html;
      else if (stash) main.appendChild(stash);
    });
    stash = null;
    main.hidden = false;
    document.title = scoreTitle;
    setNext(gameUrl);
    showQueue();
    focus(enterLink());
    if (stale) {  // catch up with what changed meanwhile
      stale = false;
      if (startedAs === "hand") fetchScore();
      else fetchForm();
    }
  }

  // The scoreboard in place of the form: the panel closed, or, on a page that opened as the form,
  // the kept scoreboard in its <main> (the form stays kept, to open again as a panel).
  function toScore() {
    if (mode === "hand") {
      if (!score) return false;
      quietly(function () { main.innerHTML = score.html; });
      mode = "score";
      scoreTitle = score.title;
      document.title = score.title;
      kept = { url: handPath, html: handSource, title: handTitle };
      var link = enterLink();
      if (link && link.getAttribute("href") === handPath) link.dataset.kept = "1";
      setNext(gameUrl);
      return true;
    }
    closePanel();
    return true;
  }

  function leave() {  // a hand kept on the phone: back on the scoreboard, where it is shown waiting
    if (!toScore()) { location.href = gameUrl; return; }
    history.replaceState(null, "", gameUrl);
    pushed = false;
    showQueue();
    window.scrollTo(0, 0);
  }

  function backToScore() {
    if (pushed) { history.back(); return; }  // popstate shows it
    if (!toScore()) { location.href = gameUrl; return; }
    history.pushState(null, "", gameUrl);
    showQueue();
    window.scrollTo(0, 0);
  }

  function wantsHand() {
    return location.search === PANEL || (handPath !== null && location.pathname === handPath);
  }

  window.addEventListener("popstate", function () {
    if (wantsHand()) {
      if (mode === "score" && !panel) { openHand(false); pushed = true; }
    } else if (mode === "hand" || panel) {
      pushed = false;
      if (toScore()) showQueue();
      else location.reload();
    }
  });

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest ? event.target.closest("a") : null;
    if (!link) return;
    if (link.classList.contains("back-to-score") && (mode === "hand" || panel)) {
      event.preventDefault();
      backToScore();
    } else if (mode === "score" && !panel && link === enterLink()) {
      event.preventDefault();
      openHand(true);
    }
  });

  // Another phone changed the game. On a page that opened as the scoreboard, its script (live.js)
  // reloads the scoreboard's <main> in place; on one that opened as the form it puts a notice there.
  // Either way the kept form (or scoreboard) is fetched again; while the panel is shown the new
  // scoreboard is kept out of the page and the panel says that the game changed, keeping what is typed.
  function changes(records) {
    var added = [];
    records.forEach(function (r) {
      Array.prototype.forEach.call(r.addedNodes, function (n) { if (n.nodeType === 1) added.push(n); });
    });
    var notice = added.filter(function (n) { return n.id === "live-notice"; })[0];
    if (mode === "hand") {  // the form in the page's own <main>: live.js's notice is right there
      if (notice) fetchScore();
      return;
    }
    if (panel) {
      if (!main.firstChild) return;
      var refreshed = !notice && added.some(function (n) { return n.id !== "waiting-hands"; });
      quietly(function () {
        if (refreshed) {  // live.js's new scoreboard
          stash = document.createDocumentFragment();
          while (main.firstChild) stash.appendChild(main.firstChild);
        } else {
          main.textContent = "";  // the waiting list (shown again on closing) or live.js's notice
        }
      });
      if (notice || refreshed) changed();
      return;
    }
    if (notice) {  // live.js of a page that opened as the form: fetch the scoreboard ourselves
      notice.remove();
      fetchScore();
      return;
    }
    var replaced = records.some(function (r) {
      return Array.prototype.some.call(r.removedNodes, function (n) { return n.nodeType === 1 && n.id !== "waiting-hands"; });
    });
    if (!replaced) return;
    showQueue();
    fetchForm();
  }
  observer.observe(main, { childList: true });

  // A refused queued hand of this game opens here (app.js asks before it goes to the form's page).
  window.canastaOpenHand = function (path) {
    var link = enterLink();
    if (mode !== "score" || panel || !path || !link || path !== link.getAttribute("href")) return false;
    if (kept && kept.url === path) openHand(true);
    else fetchForm().then(function (ok) { if (ok) openHand(true); else location.href = path; });
    return true;
  };

  if (mode === "hand") {
    initForm(handForm, { onQueued: leave });
    fetchScore();
  } else {
    setNext(gameUrl);
    fetchForm().then(function (ok) {  // the panel's own address, loaded again: open it again
      if (ok && location.search === PANEL && !panel) openHand(false);
    });
  }
})();
