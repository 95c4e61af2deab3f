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
  // a page fetched to be kept, not shown now: the server leaves its messages for the page shown next
  var BACKGROUND = { "X-Canasta-Background": "1" };
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
        return { status: r.status, redirected: true, html: "", url: "" };
      }
      var saved = r.headers.get("X-Canasta-Saved");  // stored: the scoreboard is this answer
      return r.text().then(function (html) { return { status: r.status, redirected: r.redirected, html: html, url: saved || r.url, saved: !!saved }; });
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
    // One side's fields, from the side-entry table (scorekeeper/core/entry.py) the page puts in data-fields:
    // each with its name in the API's entry, its kind, and for a figure that can be given in points or
    // in card counts, the form's choice between them (mode) and the card inputs.
    var FIELDS = JSON.parse(form.dataset.fields || "[]");
    var action = form.getAttribute("action") || location.pathname;

    form.addEventListener("click", function (event) {
      var button = event.target.closest("button.step");
      if (!button) return;
      var input = document.getElementById(button.dataset.target);
      var max = toInt(input.dataset.max) || 99;
      var next = Math.min(max, Math.max(0, toInt(input.value) + toInt(button.dataset.delta)));
      input.value = next === 0 ? "" : String(next);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });

    // The hand's one answer to "Who went out?" ("0", "1", …, "stock" or null) and how.
    function outChoice() {
      var el = form.querySelector('input[name="out"]:checked');
      return el ? el.value : null;
    }
    function howChoice() {
      var el = form.querySelector('input[name="how"]:checked') || form.querySelector('select[name="how"], input[type=hidden][name="how"]');
      return el ? el.value : null;
    }
    function modeChoice() {  // points or card counts, for every side
      var el = form.querySelector('input[name="mode"]:checked');
      return el ? el.value : "points";
    }

    // Counting cards by typing: a count that cannot take another digit (it would pass what the deck
    // holds, or it is 0) moves on to the next count, down the side's column, then to the next side;
    // so does the keypad's Next (Enter). Passed over: the cards left in hand of the side that went
    // out, and melded black threes (melded only when going out, and seldom then: tap to give them).
    function nextCount(input) {
      var all = Array.prototype.slice.call(form.querySelectorAll("input[data-count]"));
      var order = [];
      ["melded", "hand"].forEach(function (part) {
        for (var i = 0; i < totals.length; i++) {
          all.forEach(function (el) {
            if (el.dataset.count === part && toInt(el.closest("[data-side]").dataset.side) === i) order.push(el);
          });
        }
      });
      var out = outChoice();
      var at = order.indexOf(input);
      for (var k = at + 1; k < order.length; k++) {
        var el = order[k];
        if (el.dataset.count === "hand" && out === el.closest("[data-side]").dataset.side) continue;
        if (el.dataset.count === "melded" && el.dataset.card === "black_threes") continue;
        return el;
      }
      return null;
    }
    form.addEventListener("keydown", function (event) {
      var input = event.target;
      if (event.key !== "Enter" || !input.dataset || !input.dataset.count) return;
      event.preventDefault();  // the keypad's Next: the next count, not a save
      var next = nextCount(input);
      if (next) { next.focus(); next.select(); }
    });
    form.addEventListener("input", function (event) {
      var input = event.target;
      // typed digits only: not a − / + tap (its input event has no inputType), not a deletion
      if (!input.dataset || !input.dataset.count || event.inputType !== "insertText") return;
      var value = input.value.trim();
      if (!/^[0-9]+$/.test(value)) return;
      var max = toInt(input.dataset.max) || 99;
      if (toInt(value) * 10 > max || value === "0") {
        var next = nextCount(input);
        if (next) { next.focus(); next.select(); }
      }
    });

    // One side's entry in the API's shape, field by field of the table.
    function sideEntry(side) {
      var prefix = "sides-" + side + "-";
      var entry = {};
      function input(name) { return form.elements.namedItem(prefix + name); }
      var out = outChoice();
      FIELDS.forEach(function (f) {
        if (f.mode && modeChoice() !== f.mode_value) return;  // given the other way
        if (f.kind === "choice") {  // how the hand ended is asked once for the hand
          entry[f.name] = out === String(side) ? howChoice() : null;
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
          if (f.mode) draft["mode=" + f.mode_value] = true;
          if (f.kind === "choice") { if (value) { draft["out=" + side] = true; draft["how=" + value] = true; draft["how"] = value; } }
          else if (f.kind === "flag") { if (value) draft[prefix + f.name + "=y"] = true; }
          else if (f.kind === "cards") {
            Object.keys(f.inputs).forEach(function (card) {
              draft[prefix + f.inputs[card]] = value && value[card] ? String(value[card]) : "";
            });
          } else draft[prefix + f.name] = value ? String(value) : "";
        });
      });
      if (body.stock_out) draft["out=stock"] = true;
      if (body.lone !== undefined) draft["lone=" + (body.lone === null ? "none" : body.lone)] = true;
      return draft;
    }

    var totals = form.dataset.totals.split(",").map(toInt);
    var sideNames = JSON.parse(form.dataset.sideNames || "[]");
    var timer = null;
    var csrf = form.elements.csrf_token ? form.elements.csrf_token.value : "";
    // The server's messages (a refused save) stay until the player changes something; then the
    // live checks take over.
    var edited = false;

    // The input a problem of the checks is about (the API names fields as the entry does).
    function problemInput(e) {
      if (e.field === "went_out" || e.field === "stock_out") return form.querySelector('input[name="out"]');
      if (e.side === null || e.side === undefined) return form.querySelector('[name="' + e.field + '"]');
      var name = e.field, card = null;
      if (name.indexOf(".") > 0) { card = name.slice(name.indexOf(".") + 1); name = name.slice(0, name.indexOf(".")); }
      var field = FIELDS.filter(function (f) { return f.name === name; })[0];
      if (field && field.mode && field.kind !== "cards" && modeChoice() === "counts") {  // said where the counts are
        field = FIELDS.filter(function (f) { return f.kind === "cards" && f.group === field.group; })[0];
        card = null;
      }
      if (field && field.kind === "cards") name = field.inputs[card] || field.inputs[Object.keys(field.inputs)[0]];
      return form.elements.namedItem("sides-" + e.side + "-" + name);
    }

    function clearProblems() {
      form.querySelectorAll(".row-errors p, #out-error, .live-error").forEach(function (p) { p.remove(); });
      form.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); });
      form.querySelectorAll('[aria-invalid="true"]').forEach(function (el) {
        el.removeAttribute("aria-invalid");
        el.removeAttribute("aria-describedby");
      });
      var list = form.querySelector(".problem-list");
      if (list) list.textContent = "";
    }

    // Each problem once: beside its field (under the row, with the side it is about) and in the list
    // at the Save button, which jumps to the field. The same sentence for several fields stands
    // beside the first; the others are only marked.
    var shownProblems = "";
    var touched = null;  // the field or button last used: it stays where the thumb left it
    form.addEventListener("pointerdown", function (event) { touched = event.target; });
    form.addEventListener("focusin", function (event) { touched = event.target; });
    function steady(change) {
      var anchor = touched && touched.isConnected && form.contains(touched) ? touched : null;
      var before = anchor ? anchor.getBoundingClientRect().top : 0;
      change();
      if (!anchor) return;
      var moved = anchor.getBoundingClientRect().top - before;
      if (moved) window.scrollBy(0, moved);  // a line shown or gone above it: the page scrolls, the field stays
    }
    function showProblems(errors, warnings) {
      var key = JSON.stringify([errors, warnings]);
      if (key === shownProblems) return;  // nothing moves under the thumb
      shownProblems = key;
      steady(function () { placeProblems(errors, warnings); });
    }
    function placeProblems(errors, warnings) {
      clearProblems();
      var list = form.querySelector(".problem-list");
      var said = {};
      errors.forEach(function (e, k) {
        var input = problemInput(e);
        if (!input) {
          if (said[e.message]) return;
          said[e.message] = true;
          var loose = document.createElement("p");
          loose.className = "error live-error";
          loose.textContent = e.message;
          if (list) list.appendChild(loose);
          return;
        }
        var row = input.closest(".pad-row");
        var cell = input.closest(".cell") || row;
        if (cell) cell.classList.add("has-error");
        input.setAttribute("aria-invalid", "true");
        if (said[e.message]) { input.setAttribute("aria-describedby", said[e.message]); return; }
        var id = "live-error-" + k;
        said[e.message] = id;
        input.setAttribute("aria-describedby", id);
        var p = document.createElement("p");
        p.className = "error live-error";
        p.id = id;
        var who = e.field === "went_out" || e.side === null || e.side === undefined || sideNames.length < 2 ? "" : (sideNames[e.side] || "") + ": ";
        p.textContent = who + e.message;
        var place = row && (row.querySelector(".row-errors") || row);
        if (place) place.appendChild(p);
        if (list) {
          var a = document.createElement("a");
          a.href = "#" + input.id;
          a.dataset.focus = input.id;
          var label = row ? row.querySelector(".pad-label") : null;
          a.textContent = who.replace(/: $/, " · ") + (label ? label.textContent.replace(/:$/, "") : input.name);
          list.appendChild(a);
        }
      });
      (warnings || []).forEach(function (w) {
        var text = (w.side !== null && w.side !== undefined && sideNames.length > 1 ? sideNames[w.side] + ": " : "") + w.message;
        if (said[text] || !list) return;
        said[text] = true;
        var note = document.createElement("p");
        note.className = "warning live-error";
        note.textContent = text;
        list.appendChild(note);
      });
    }

    // What the folded row holds for each side, as its sum (penalties, unfinished melds, offences).
    function moreSums() {
      form.querySelectorAll("[data-more-sum]").forEach(function (out) {
        var side = out.dataset.moreSum;
        var sum = 0;
        form.querySelectorAll('.pad-more [data-side="' + side + '"] input[data-points]').forEach(function (el) {
          var points = toInt(el.dataset.points);
          if (el.type === "checkbox") { if (el.checked) sum += points; }
          else sum += toInt(el.value) * points;
        });
        out.textContent = signed(sum);
      });
    }

    function render(data) {
      form.querySelectorAll("[data-score]").forEach(function (cell) {
        var i = toInt(cell.dataset.score);
        var side = data.sides && data.sides[i];
        cell.textContent = side ? signed(side.score) + " \u2192\u00a0" + String(side.total).replace("-", "\u2212") : "\u2013";
      });
      if (!edited && form.querySelector(".row-errors p, #out-error, .problem-list a")) return;  // the server's, for now
      showProblems(data.errors || [], data.errors ? [] : data.warnings || []);
    }

    form.addEventListener("click", function (event) {  // the list at the Save button jumps to the field
      var link = event.target.closest("a[data-focus]");
      if (!link) return;
      var el = document.getElementById(link.dataset.focus);
      if (!el) return;
      event.preventDefault();
      el.scrollIntoView({ block: "center" });
      el.focus({ preventScroll: true });
    });

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
      form.dataset.previewing = "1";  // until the answer is shown (the browser tests look before they tap, as a person does)
      var sides = [];
      for (var i = 0; i < totals.length; i++) sides.push(sideEntry(i));
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
        if (mine === asked) { render(data); delete form.dataset.previewing; }
      }).catch(function () {
        // offline: the form still saves
        if (mine === asked && tries < 3) {
          setTimeout(function () { if (mine === asked) preview(tries + 1); }, 700 * (tries + 1));
        } else if (mine === asked) {
          delete form.dataset.previewing;
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
    var KEEP = /^(sides-|out$|how$|mode$|lone$|confirm$)/;
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
      for (var i = 0; i < totals.length; i++) sides.push(sideEntry(i));
      var body = { client_key: keyField.value, sides: sides, stock_out: outChoice() === "stock" };
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

    // Saved: the top of the scoreboard, fresh from the server, with the totals, the next hand and
    // the saved hand's line in view. A new hand's save brings the scoreboard in its answer (the
    // redirect followed), shown in place (options.onSaved); a correction loads it.
    function saved(answer) {
      forget();
      removeDraft();
      var target = form.dataset.gameUrl || location.pathname;
      if (answer && answer.status === 200 && answer.html && options.onSaved) { options.onSaved(answer); return; }
      if (location.pathname + location.search === target) location.reload();  // the same document
      else location.replace(target);
    }

    function isGame(url) {  // the answer is the game's scoreboard: the hand was stored
      try { return new URL(url, location.href).pathname === form.dataset.gameUrl; } catch (e) { return false; }
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
      if (next) initForm(next, { onQueued: options.onQueued, onSaved: options.onSaved, reopened: reopened });
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
      var follow = !!options.onSaved;  // the scoreboard comes back in the same answer
      var sending = { method: "POST", body: body, credentials: "same-origin", redirect: follow ? "follow" : "manual" };
      if (follow) sending.headers = { "X-Canasta-Pad": "1" };
      request(action, sending, SEND_MS)
        .then(function (answer) {
          var stored = follow ? (answer.saved || answer.redirected) && isGame(answer.url) : answer.redirected;
          if (stored) { done(); saved(answer); }
          else answered(answer);
        }, unreachable);
    });

    form.addEventListener("input", function () {
      edited = true;
      moreSums();
      clearTimeout(timer);
      form.dataset.previewing = "1";
      timer = setTimeout(preview, 250);
      saveDraft();
    });
    form.addEventListener("change", function () {
      edited = true;
      moreSums();
      clearTimeout(timer);
      form.dataset.previewing = "1";
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
    fetching = request(url, { credentials: "same-origin", cache: "no-store", headers: BACKGROUND }, FETCH_MS).then(function (answer) {
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
    return request(gameUrl, { credentials: "same-origin", cache: "no-store", headers: BACKGROUND }, FETCH_MS).then(function (answer) {
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
    initForm(form, { onQueued: leave, onSaved: showSaved });
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

  // A hand saved: the scoreboard of the server's answer in place of the form, at its top (the
  // totals, the next dealer, "Enter hand N+1" and the saved hand's line with its confirmation).
  function showSaved(answer) {
    var page = parse(answer.html);
    if (!page.main || !page.main.querySelector(".totals")) { location.replace(gameUrl); return; }
    if (panel) { panel.remove(); panel = null; stash = null; main.hidden = false; }
    quietly(function () {  // the parsed nodes themselves, moved in (not parsed a second time)
      var nodes = document.createDocumentFragment();
      while (page.main.firstChild) nodes.appendChild(document.adoptNode(page.main.firstChild));
      main.replaceChildren(nodes);
    });
    if (page.main.dataset.liveVersion) main.dataset.liveVersion = page.main.dataset.liveVersion;  // live.js: ours
    mode = "score";
    kept = null;
    score = null;
    stale = false;
    scoreTitle = page.title;
    document.title = page.title;
    history.replaceState(null, "", gameUrl);
    pushed = false;
    setNext(gameUrl);
    showQueue();
    window.scrollTo(0, 0);
    focus(main.querySelector(".flash") || enterLink());
    main.dataset.saved = String(Date.now());  // the browser tests wait for this
    setTimeout(fetchForm, 100);  // the next hand's form, once the score is on the screen
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
    initForm(handForm, { onQueued: leave, onSaved: showSaved });
    fetchScore();
  } else {
    setNext(gameUrl);
    fetchForm().then(function (ok) {  // the panel's own address, loaded again: open it again
      if (ok && location.search === PANEL && !panel) openHand(false);
    });
  }
})();
