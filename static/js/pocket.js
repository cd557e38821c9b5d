// Chronicle in the pocket and at the table (loaded by base.html on every page):
// - registers the service worker (templates/pwa/sw.js, served at the site's root);
// - on a page the worker served from its copy (it marks it with <meta name="chronicle-offline-copy">),
//   says so at the top: "Offline copy from <time>";
// - on log-out, drops the worker's kept pages before the form is sent (a shared device keeps
//   nothing of the member; the worker and the server's Clear-Site-Data answer do so too);
// - the table screen holds a screen wake lock while its night runs (#table-panel data-night), and
//   takes it again when it comes back to the foreground (the browser lets it go when hidden);
// - a phone whose turn comes (#seat-panel data-my-turn turning to "yes") vibrates once and marks its
//   tab title, until its turn is over; the "Vibrate..." box on the seat page turns that off;
// - Copy and Share buttons beside a link (templates/_share_link.html).
// It follows the live panels through "live:morphed" (static/js/live.js) and htmx's own swaps.
(function () {
  "use strict";
  var script = document.currentScript;
  var PAGES = "chronicle-pages"; // the worker's cache of pages (templates/pwa/sw.js)
  var ALERTS_KEY = "chronicle.turnAlerts"; // "off" when the player turned the alerts off
  var TURN_MARK = "\u25cf Your turn \u2013 ";
  var VIBRATE_MS = 200;

  // ---- The service worker ------------------------------------------------------------------
  if ("serviceWorker" in navigator && script && script.getAttribute("data-service-worker")) {
    navigator.serviceWorker.register(script.getAttribute("data-service-worker"), { scope: "/" }).catch(function () {});
  }

  var NEEDS_THE_SERVER = "Not sent: this is an offline copy, and a change needs the server. Reload the page once the server answers.";
  var offlineCopy = false;
  function offlineCopyLine() {
    var mark = document.querySelector('meta[name="chronicle-offline-copy"]');
    var main = document.querySelector("main");
    if (!mark || !main || document.querySelector(".offline-copy")) return;
    offlineCopy = true;
    var when = new Date(mark.getAttribute("content"));
    var line = document.createElement("p");
    line.className = "offline-copy";
    line.setAttribute("role", "status");
    var time = isNaN(when.getTime())
      ? "an earlier visit"
      : when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    line.textContent =
      "Offline copy from " + time + ". The server did not answer: this is the page as it was then. Reload once the server answers.";
    main.insertBefore(line, main.firstChild);
  }

  // A form on an offline copy would only meet the browser's error page: it says why it was not sent
  // (before htmx or the form's own handlers see it). Log-out still forgets the kept pages.
  document.addEventListener(
    "submit",
    function (evt) {
      if (!offlineCopy) return;
      evt.preventDefault();
      evt.stopPropagation();
      if (isLogout(evt.target)) forgetPages();
      var line = document.querySelector(".offline-copy");
      if (line && !line.querySelector(".not-sent")) {
        var note = document.createElement("span");
        note.className = "not-sent";
        note.textContent = " " + NEEDS_THE_SERVER;
        line.appendChild(note);
      }
    },
    true
  );

  // The offline page lists the pages this device kept, to open them from there.
  function keptPages() {
    var list = document.querySelector("[data-kept-pages]");
    if (!list || !window.caches) return;
    caches
      .open(PAGES)
      .then(function (cache) {
        return cache.keys();
      })
      .then(function (requests) {
        requests.forEach(function (request) {
          var url = new URL(request.url);
          if (/\.svg$/.test(url.pathname)) return;
          var item = document.createElement("li");
          var link = document.createElement("a");
          link.href = url.pathname + url.search;
          link.textContent = url.pathname === "/" ? "Your campaigns" : url.pathname;
          item.appendChild(link);
          list.appendChild(item);
        });
        list.hidden = requests.length === 0;
      })
      .catch(function () {});
  }

  // ---- Log-out forgets the kept pages ---------------------------------------------------------
  function forgetPages() {
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ type: "forget" });
    return window.caches ? caches.delete(PAGES).catch(function () {}) : Promise.resolve();
  }
  function isLogout(form) {
    var logout = script && script.getAttribute("data-logout");
    return Boolean(logout && form && form.getAttribute && form.getAttribute("action") === logout);
  }
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (!isLogout(form) || form.hasAttribute("data-forgotten")) return;
    evt.preventDefault();
    form.setAttribute("data-forgotten", "");
    forgetPages().then(function () {
      form.submit();
    });
  });

  // ---- The table screen stays awake while its night runs -----------------------------------------
  var lock = null; // the WakeLockSentinel held, "asking" while asked, or null
  function nightRuns() {
    var panel = document.getElementById("table-panel");
    return Boolean(panel && panel.getAttribute("data-night") === "running");
  }
  function wakeLock() {
    if (!navigator.wakeLock) return;
    var wanted = nightRuns();
    if (wanted && lock === null && document.visibilityState === "visible") {
      lock = "asking";
      navigator.wakeLock.request("screen").then(
        function (sentinel) {
          lock = sentinel;
          sentinel.addEventListener("release", function () {
            if (lock === sentinel) lock = null; // hidden: the browser let it go
          });
          if (!nightRuns()) wakeLock();
        },
        function () {
          lock = null; // refused (battery saver, no permission): the screen may sleep
        }
      );
    } else if (!wanted && lock !== null && lock !== "asking") {
      var held = lock;
      lock = null;
      held.release().catch(function () {});
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") wakeLock();
  });

  // ---- A phone tells its player when their turn comes ----------------------------------------------
  var plainTitle = null;
  var wasMyTurn = null; // unknown until the first panel: a page opened on its turn does not buzz
  function alertsOn() {
    try {
      return window.localStorage.getItem(ALERTS_KEY) !== "off";
    } catch (e) {
      return true;
    }
  }
  function turnAlert() {
    var panel = document.getElementById("seat-panel");
    if (!panel) return;
    var mine = panel.getAttribute("data-my-turn") === "yes";
    var on = alertsOn();
    if (plainTitle === null) plainTitle = document.title;
    if (mine && wasMyTurn === false && on && navigator.vibrate) navigator.vibrate(VIBRATE_MS);
    wasMyTurn = mine;
    var title = mine && on ? TURN_MARK + plainTitle : plainTitle;
    if (document.title !== title) document.title = title;
  }
  function alertsSetting() {
    var box = document.querySelector("[data-turn-alerts]");
    if (!box) return;
    box.checked = alertsOn();
    var holder = box.closest("[hidden]");
    if (holder) holder.hidden = false;
    box.addEventListener("change", function () {
      try {
        window.localStorage.setItem(ALERTS_KEY, box.checked ? "on" : "off");
      } catch (e) {
        /* private mode: the setting lasts as long as the page */
      }
      turnAlert();
    });
  }

  // ---- Copy and Share --------------------------------------------------------------------------
  function say(tools, words) {
    var status = tools.querySelector("[data-share-status]");
    if (!status) return;
    status.textContent = words;
    window.clearTimeout(status.__timer);
    status.__timer = window.setTimeout(function () {
      status.textContent = "";
    }, 4000);
  }
  function copy(text) {
    if (navigator.clipboard && navigator.clipboard.writeText) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.appendChild(area);
      area.select();
      var done = document.execCommand("copy");
      document.body.removeChild(area);
      if (done) resolve();
      else reject(new Error("copy refused"));
    });
  }
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest ? evt.target.closest("[data-copy-link], [data-share-button]") : null;
    var tools = button && button.closest("[data-share-link]");
    if (!tools) return;
    var link = tools.getAttribute("data-share-link");
    if (button.hasAttribute("data-share-button") && navigator.share) {
      navigator.share({ title: tools.getAttribute("data-share-title") || document.title, url: link }).catch(function () {});
      return;
    }
    copy(link).then(
      function () {
        say(tools, "Copied");
      },
      function () {
        say(tools, "Could not copy: select the link and copy it by hand");
      }
    );
  });
  function shareButtons() {
    if (!navigator.share) return;
    document.querySelectorAll("[data-share-button][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function follow() {
    wakeLock();
    turnAlert();
    shareButtons();
  }
  document.addEventListener("live:morphed", follow);
  document.addEventListener("htmx:afterSettle", follow);
  function start() {
    offlineCopyLine();
    keptPages();
    alertsSetting();
    follow();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
