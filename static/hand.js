// Hand form: steppers for small counts, one side going out clears the other, and a live
// preview of each side's hand score from the server's own scoring (POST /api/score).
(function () {
  "use strict";
  var form = document.querySelector("form.hand-form");
  if (!form) return;
  // One side's fields, from the side-entry table (scorekeeper/entry.py) the page puts in data-fields:
  // each with its name in the API's entry, its kind, and for a figure that can be given in points or
  // in card counts, the form's choice between them (mode) and the card inputs.
  var FIELDS = JSON.parse(form.dataset.fields || "[]");
  var CHOICES = FIELDS.filter(function (f) { return f.kind === "choice"; }).map(function (f) { return f.name; });

  function sideName(name) {  // "went_out" of "sides-1-went_out"
    var match = /^sides-[0-9]+-(.+)$/.exec(name || "");
    return match ? match[1] : "";
  }
  function isWentOut(name) {  // a side's choice of how it went out (the "no" of each ends the others)
    return CHOICES.indexOf(sideName(name)) >= 0;
  }

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
      p.textContent = window.scorekeeperText("thisHand", { score: signed(side.score), total: String(side.total).replace("-", "\u2212") });
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
  var keyField = document.getElementById("client_key");
  function freshKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    return Date.now().toString(36) + Math.random().toString(36).slice(2, 12);
  }
  if (keyField) keyField.value = freshKey();

  function reachable() {
    var live = document.querySelector("[data-live-url]");
    if (!live || !window.AbortController) return Promise.resolve(navigator.onLine);
    var abort = new AbortController();
    var timer = setTimeout(function () { abort.abort(); }, 2500);
    return fetch(live.dataset.liveUrl, { cache: "no-store", signal: abort.signal })
      .then(function (r) { clearTimeout(timer); return r.ok; })
      .catch(function () { clearTimeout(timer); return false; });
  }

  function queueHand() {
    var sides = [];
    for (var i = 0; i < previews.length; i++) sides.push(sideEntry(i));
    var stock = form.querySelector('input[name="stock_out"]');
    var body = { client_key: keyField.value, sides: sides, stock_out: !!(stock && stock.checked) };
    var lone = loneChoice();
    if (lone !== undefined) body.lone = lone;
    // Hands of this game already waiting come first: this one follows them (its number and what it
    // is based on), so two hands entered offline are stored as two hands, in order.
    var before = window.canastaQueue.items().filter(function (q) { return q.url === form.dataset.queueUrl && !q.error; }).length;
    var basedOn = form.elements.based_on && /^[0-9]+$/.test(form.elements.based_on.value) ? toInt(form.elements.based_on.value) : null;
    if (basedOn !== null) body.based_on = basedOn + before;
    var now = new Date();
    window.canastaQueue.add({
      url: form.dataset.queueUrl, csrf: csrf, body: body, number: toInt(form.dataset.handNumber) + before,
      game: form.dataset.gameName || "the game",
      savedAt: ("0" + now.getHours()).slice(-2) + ":" + ("0" + now.getMinutes()).slice(-2)
    });
    location.href = form.dataset.gameUrl;
  }

  var sending = false;
  // Back to this form from the browser's cache after it was sent: its key is used up, so a new
  // entry here would be taken for the same hand sent twice. Load it fresh instead.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && sending) { location.reload(); return; }
    sending = false;
  });
  form.addEventListener("submit", function (event) {
    if (!form.dataset.queueUrl || !window.canastaQueue) {  // corrections go straight to the server, once
      if (sending) event.preventDefault();
      sending = true;
      return;
    }
    event.preventDefault();
    if (sending) return;  // a double tap sends once
    sending = true;
    reachable().then(function (ok) {
      if (ok) { form.submit(); return; }
      // Offline nobody checks the figures until later: a field that is not a whole number is
      // shown now, beside the field, before the hand is kept on the phone.
      var bad = Array.prototype.filter.call(form.querySelectorAll('input[type="text"][name^="sides-"]'), function (el) {
        return el.value.trim() !== "" && !/^[0-9]+$/.test(el.value.trim());
      });
      if (bad.length) {
        bad.forEach(function (el) {
          el.setCustomValidity(window.scorekeeperText("wholeNumber"));
          el.addEventListener("input", function () { el.setCustomValidity(""); }, { once: true });
        });
        sending = false;
        form.reportValidity();
        return;
      }
      queueHand();
    });
  });

  // What is typed is kept on the phone until it is saved: switching the language or the text size,
  // or a slip of the Back button, reopens the form with it (sessionStorage: this tab only).
  var draftKey = "canasta-draft:" + location.pathname + ":" + (form.elements.based_on ? form.elements.based_on.value : "");
  var KEEP = /^(sides-|stock_out$|lone$|confirm$)/;
  function saveDraft() {
    var draft = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || !KEEP.test(el.name)) return;
      if (el.type === "radio" || el.type === "checkbox") { if (el.checked) draft[el.name + "=" + el.value] = true; }
      else draft[el.name] = el.value;
    });
    try { sessionStorage.setItem(draftKey, JSON.stringify(draft)); } catch (e) { /* private mode: nothing kept */ }
  }
  function restoreDraft() {
    if (form.querySelector('[aria-invalid="true"], .has-error')) return;  // the server's page holds what was sent
    var draft;
    try { draft = JSON.parse(sessionStorage.getItem(draftKey) || "null"); } catch (e) { draft = null; }
    if (!draft) return;
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || !KEEP.test(el.name)) return;
      if (el.type === "radio" || el.type === "checkbox") el.checked = !!draft[el.name + "=" + el.value];
      else if (el.name in draft) el.value = draft[el.name];
    });
  }
  restoreDraft();
  form.addEventListener("submit", function () {
    try { sessionStorage.removeItem(draftKey); } catch (e) { /* nothing kept */ }
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
})();
