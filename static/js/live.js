// Live updates of a table or phone page (games/events.py; README "Live updates").
//
// The panel's "Live" link (templates/games/_live.html) names the page's event stream, its session
// and the version it shows. This file keeps ONE event stream per page (htmx's SSE extension on a
// hidden element outside the panel, so swapping the panel never reconnects) and:
// - on a nudge with a newer version (or a stream-reset), fetches the page's own panel;
// - while the stream is open, skips the version poll (every 2 s by default) ("Live"); while it is down, lets
//   the poll run ("Live · polling"); on reconnecting, checks the version once (catch-up);
// - retries a tap whose request could not be sent (no network) when the network is back, with
//   the same form, so its Idempotency-Key ("key") makes the server apply it once;
// - says "Offline" as soon as the browser loses the network, and treats a stream silent for longer
//   than the server's keep-alive (20 s) as down (a Wi-Fi that died without a word), reconnecting it;
// - when the stream is refused (429: too many for this seat, table, account or address; 503: for
//   this server), says which in the label ("Live · polling · too many live streams for this seat"):
//   EventSource hides the answer, so the stream's address is asked once more with fetch (at most
//   every PROBE_MS, and let go at once if it opens).
(function () {
  "use strict";
  var STREAM_ID = "live-stream";
  var RETRY_MS = 1000;
  var SILENCE_MS = 25000; // django-eventstream sends "keep-alive" every 20 s
  var WATCH_MS = 2000;
  var offline = navigator.onLine === false;
  var lastHeard = Date.now();
  var pushing = false;
  var wasDown = false;
  var wanted = 0; // the newest version a nudge announced
  var checking = false; // let one version check through while pushing
  var unsent = null; // the tap that could not be sent: {elt, path, values}
  var taps = 0; // taps on their way: their answer is the new panel, so a nudge waits for it
  var tapSince = 0; // when the taps on their way began
  var overdue = 0; // the timer that refreshes the page if a tap's answer never comes
  var TAP_PATIENCE_MS = 10000;
  var answers = 0; // taps' answers morphed in so far
  var refused = ""; // the server's words for the refused stream (config/streams.py), or ""
  var probedAt = 0;
  var PROBE_MS = 30000;

  function liveLink() {
    return document.querySelector("[data-live-stream]");
  }
  function shownVersion() {
    var link = liveLink();
    return link ? Number(link.getAttribute("data-live-version")) : 0;
  }
  function pollSeconds(link) {
    return Number(link.getAttribute("data-live-poll-ms") || 2000) / 1000;
  }
  // The label changes the page only when its words change: a write of the same words would still
  // make the browser lay the header out again after every nudge.
  function label() {
    var link = liveLink();
    if (!link) return;
    var text, title;
    if (unsent) {
      text = "Offline · your tap will be sent when you are back online";
      title = link.title;
    } else if (offline) {
      text = "Offline · changes will appear when you are back online";
      title = "This device has no network. Tap to reload.";
    } else {
      var cause = pushing ? "" : refused.split(":")[0];
      text = pushing ? "Live" : "Live · polling" + (cause ? " · " + cause.charAt(0).toLowerCase() + cause.slice(1) : "");
      title = pushing
        ? "Changes appear as they happen. Tap to reload."
        : (refused ? refused + " " : "") + "Checking for changes every " + pollSeconds(link) + " seconds. Tap to reload.";
    }
    var away = Boolean(unsent || offline);
    if (link.classList.contains("is-offline") !== away) link.classList.toggle("is-offline", away);
    if (link.textContent !== text) link.textContent = text;
    if (link.title !== title) link.title = title;
  }
  // A refresh (a nudge, or the version poll's "session-changed"): the page fetches its own panel
  // and morphs it in place (Idiomorph): only the nodes that changed are touched, so a phone
  // re-lays and repaints a few lines, not the whole panel, and keeps its scroll. It runs outside
  // htmx's request pipeline, the heaviest part of a refresh; the new controls are then given to
  // htmx (htmx.process). One refresh at a time; a nudge during one asks for another after it.
  var fetching = false;
  var again = false;
  function reload() {
    var link = document.querySelector("[data-live-reload]");
    if (!link) return;
    // A tap on its way: its answer is the new panel, and a refresh now could take its form away
    // (htmx would then drop a tap queued behind it). sync() fetches after the answer if still behind;
    // a tap whose answer is long overdue (a network that died under it) holds the page no longer.
    if (taps > 0 && Date.now() - tapSince < TAP_PATIENCE_MS) {
      if (!overdue) {
        overdue = window.setTimeout(function () {
          overdue = 0;
          if (wanted > shownVersion()) reload();
        }, TAP_PATIENCE_MS);
      }
      return;
    }
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    var answersBefore = answers;
    fetch(link.getAttribute("href"), { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (response) {
        var refresh = response.headers.get("HX-Refresh") === "true";
        var redirect = response.headers.get("HX-Redirect");
        if (refresh || redirect) {
          if (redirect) window.location.href = redirect;
          else window.location.reload();
          return null;
        }
        // Refused (the server busy, its database away): asked again below, as a network failure is.
        if (response.status !== 200) throw new Error("the panel answered " + response.status);
        return response.text();
      })
      .then(function (html) {
        // A tap's answer that came in meanwhile is at least as new, and says what became of the tap.
        var overtaken = answers !== answersBefore ? !newer(html) : older(html);
        if (html !== null && !overtaken) morph(link.getAttribute("data-live-reload"), html);
      })
      .catch(function () {
        // The network failed, or the server refused: ask again in a moment, while the panel is still behind.
        window.setTimeout(function () {
          if (wanted > shownVersion()) reload();
        }, RETRY_MS);
      })
      .then(function () {
        fetching = false;
        if (again) {
          again = false;
          if (wanted > shownVersion()) reload();
        }
      });
  }
  // A panel older than the one shown (a refresh or a tap's answer overtaken by a newer one) is not
  // put back: the page never goes back in time.
  function versionOf(html) {
    var match = /\sdata-version="(\d+)"/.exec(html);
    return match === null ? null : Number(match[1]);
  }
  function older(html) {
    var version = versionOf(html);
    return version !== null && version < shownVersion();
  }
  function newer(html) {
    var version = versionOf(html);
    return version === null || version > shownVersion();
  }
  // The "Live" link keeps its words (label() owns them) and takes the new version it names.
  function keepLabel(old, next) {
    if (!old.hasAttribute || !old.hasAttribute("data-live-stream") || !next.getAttribute) return true;
    ["data-live-version", "data-live-stream", "data-live-session", "hx-get", "href"].forEach(function (name) {
      var value = next.getAttribute(name);
      if (value !== null && old.getAttribute(name) !== value) old.setAttribute(name, value);
    });
    return false;
  }
  // ``fresh``: a tap's answer, which starts fresh (what was typed for the tap is not put back).
  function morph(targetId, html, fresh) {
    var target = document.getElementById(targetId);
    if (!target) return;
    if (fresh) kept = null;
    else keep(target);
    if (window.Idiomorph) {
      Idiomorph.morph(target, html, { morphStyle: "outerHTML", callbacks: { beforeNodeMorphed: keepLabel } });
      var panel = document.getElementById(targetId);
      if (panel) htmx.process(panel);
    } else {
      htmx.swap(target, html, { swapStyle: "outerHTML" });
    }
    restore();
    sync();
    document.dispatchEvent(new CustomEvent("live:morphed", { detail: { id: targetId } })); // static/js/pocket.js
  }
  // The version poll says the session moved on (its detail names the version).
  document.addEventListener("session-changed", function (evt) {
    var version = evt.detail && typeof evt.detail.version === "number" ? evt.detail.version : shownVersion() + 1;
    // A poll sent before the last refresh landed: the page has that version already (a second
    // refresh would only put back what it shows, and reset what is being typed).
    if (version <= shownVersion()) return;
    if (version > wanted) wanted = version;
    reload();
  });
  // A tap's answer is the new panel (or the panel with its refusal): it is morphed in as a refresh
  // is, not swapped whole, so only what changed is touched and re-laid out.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var detail = evt.detail;
    var cfg = detail.requestConfig;
    var target = detail.target;
    if (!detail.shouldSwap || !window.Idiomorph || !cfg || String(cfg.verb).toLowerCase() !== "post") return;
    if (!target || !target.id || !document.querySelector('[data-live-reload="' + target.id + '"]')) return;
    detail.shouldSwap = false;
    var html = detail.serverResponse;
    // Once htmx has finished with the request (its element's lock, its disabled buttons). Until
    // then the answer counts as a tap on its way: a nudge of its version waits for it.
    taps += 1;
    window.setTimeout(function () {
      taps -= 1;
      if (older(html)) return sync();
      answers += 1;
      morph(target.id, html, true);
    }, 0);
  });
  function checkVersion() {
    var link = liveLink();
    if (!link) return;
    checking = true;
    htmx.trigger(link, "live-check");
  }

  // Keep one stream for the session the page shows; close it when the page stops being live.
  function sync() {
    var link = liveLink();
    var conn = document.getElementById(STREAM_ID);
    var session = link ? link.getAttribute("data-live-session") : null;
    if (conn && conn.getAttribute("data-live-session") !== session) {
      htmx.remove(conn);
      conn = null;
      pushing = false;
    }
    if (link && !conn && window.EventSource) {
      conn = document.createElement("div");
      conn.id = STREAM_ID;
      conn.hidden = true;
      conn.setAttribute("data-live-session", session);
      conn.setAttribute("hx-ext", "sse");
      conn.setAttribute("sse-connect", link.getAttribute("data-live-stream"));
      var sink = document.createElement("span");
      // Triggers, not swaps: a message is an event to read, never HTML (a swap would parse it, and
      // settle the page, on every nudge and keep-alive).
      sink.setAttribute("hx-trigger", "sse:session_version, sse:stream-reset, sse:keep-alive");
      conn.appendChild(sink);
      document.body.appendChild(conn);
      htmx.process(conn);
    }
    if (taps === 0 && wanted > shownVersion()) reload();
    label();
  }

  document.addEventListener("htmx:sseMessage", function (evt) {
    var message = evt.detail;
    lastHeard = Date.now();
    if (message && message.type === "keep-alive") return;
    if (!message || message.type === "stream-reset") {
      checkVersion();
      return;
    }
    var nudge;
    try {
      nudge = JSON.parse(message.data);
    } catch (e) {
      return;
    }
    if (typeof nudge.version !== "number" || nudge.version <= shownVersion()) return;
    if (nudge.version > wanted) {
      var idle = wanted <= shownVersion() && taps === 0;
      wanted = nudge.version;
      if (idle) reload(); // else the panel on its way is checked again when it lands
    }
  });
  document.addEventListener("htmx:sseOpen", function () {
    pushing = true;
    refused = "";
    lastHeard = Date.now();
    label();
    if (wasDown) checkVersion(); // the stream resumes from its id too; this also covers a lost fetch
    wasDown = false;
    retryUnsent();
  });
  function down() {
    pushing = false;
    wasDown = true;
    label();
  }
  // Why the stream was refused: its address asked once with fetch (a 429 or 503 names its cap in
  // plain text); a stream that opens instead is let go at once.
  function probe() {
    var link = liveLink();
    if (!link || !window.fetch || !window.AbortController || Date.now() - probedAt < PROBE_MS) return;
    probedAt = Date.now();
    var stop = new AbortController();
    fetch(link.getAttribute("data-live-stream"), { cache: "no-store", credentials: "same-origin", signal: stop.signal })
      .then(function (response) {
        if (response.status !== 429 && response.status !== 503) {
          stop.abort();
          return;
        }
        return response.text().then(function (words) {
          refused = words.slice(0, 200);
          label();
        });
      })
      .catch(function () {});
  }
  document.addEventListener("htmx:sseError", function () {
    down();
    probe();
  });
  document.addEventListener("htmx:sseClose", down);

  // A tap's answer is the new panel (one request per tap): the nudge of its own change, which
  // may arrive first, waits for it and then finds nothing newer to fetch. A tap is counted once
  // its request is really sent (htmx:beforeSend), so that a request another listener cancels
  // never leaves a tap counted that no answer will end.
  document.addEventListener("htmx:beforeSend", function (evt) {
    var cfg = evt.detail.requestConfig;
    if (!cfg || String(cfg.verb).toLowerCase() !== "post" || !evt.detail.xhr) return;
    if (taps === 0) tapSince = Date.now();
    taps += 1;
    evt.detail.xhr.addEventListener("loadend", function () {
      taps -= 1;
      window.setTimeout(sync, 0); // after htmx swapped the answer in
    });
  });
  // While pushed, the poll is not needed: skip it (its timer keeps running for when push drops).
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = evt.detail.elt;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-live-stream")) return;
    if (pushing && !checking) evt.preventDefault();
    checking = false;
  });

  // A tap that never reached the server (or whose answer was lost): send it again, same key.
  document.addEventListener("htmx:sendError", function (evt) {
    var cfg = evt.detail.requestConfig;
    if (!cfg || String(cfg.verb).toLowerCase() !== "post") return;
    unsent = { elt: evt.detail.elt, path: cfg.path, values: cfg.formData };
    if (navigator.onLine) {
      window.setTimeout(retryUnsent, RETRY_MS); // the answer was lost: ask again, same key
    } else {
      label();
    }
  });
  function retryUnsent() {
    if (!unsent) return;
    var tap = unsent;
    unsent = null;
    var source = document.body.contains(tap.elt) ? tap.elt : document.querySelector("[data-live-reload]");
    if (!source) return;
    htmx.ajax("POST", tap.path, { source: source, values: tap.values });
  }
  window.addEventListener("online", function () {
    offline = false;
    label();
    retryUnsent();
    checkVersion();
  });
  window.addEventListener("offline", function () {
    offline = true;
    label();
  });
  // A stream that stays silent past its keep-alive is gone: drop it, poll, and open a new one.
  window.setInterval(function () {
    if (!pushing || Date.now() - lastHeard < SILENCE_MS) return;
    var conn = document.getElementById(STREAM_ID);
    if (conn) htmx.remove(conn);
    down();
    sync();
  }, WATCH_MS);

  // A live refresh keeps what the person was doing: folds they opened stay open, text they typed
  // stays typed (matched by id), and the field they were in keeps the focus.
  var kept = null;
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    var cfg = evt.detail.requestConfig;
    kept = null;
    // Only a refresh (GET); a tap's answer is the form's own outcome and starts fresh.
    if (!target || !target.querySelectorAll || !cfg || String(cfg.verb).toLowerCase() !== "get") return;
    keep(target);
  });
  function keep(target) {
    kept = { open: [], typed: {}, focus: null };
    target.querySelectorAll("details[id][open]").forEach(function (d) {
      kept.open.push(d.id);
    });
    target.querySelectorAll("input[id], textarea[id]").forEach(function (f) {
      if (f.type !== "hidden" && f.type !== "checkbox" && f.type !== "radio" && f.value !== f.defaultValue) {
        kept.typed[f.id] = f.value;
      }
    });
    var active = document.activeElement;
    if (active && active.id && target.contains(active)) kept.focus = active.id;
  }
  document.addEventListener("htmx:afterSettle", restore);
  function restore() {
    if (!kept) return;
    var was = kept;
    kept = null;
    was.open.forEach(function (id) {
      var d = document.getElementById(id);
      if (d && d.tagName === "DETAILS") d.open = true;
    });
    Object.keys(was.typed).forEach(function (id) {
      var f = document.getElementById(id);
      if (f && f.value === f.defaultValue) f.value = was.typed[id];
    });
    var focus = was.focus && document.getElementById(was.focus);
    if (focus && focus.focus && document.activeElement !== focus) focus.focus();
  }

  document.addEventListener("htmx:load", sync);
  document.addEventListener("htmx:afterSettle", sync);
})();
