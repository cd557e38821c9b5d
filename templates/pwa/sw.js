{% load static %}// Chronicle's service worker, served at /sw.js (config/pwa.py) so that its scope is the whole site.
// Hand-written rather than Workbox: the project has no JavaScript build step (no npm, no bundler:
// htmx and its extensions are vendored files), and what it does fits on a page:
// - the static files: kept at installation, then network first (a new release is never hidden by
//   an old copy), the kept copy when the server cannot be reached;
// - the campaign pages a member reads (KEPT): network first, always the server's answer when it
//   answers; when it cannot be reached (or is silent for PATIENCE_MS), the copy kept at the
//   last read, marked for the page to say "Offline copy from <time>" (static/js/pocket.js);
//   a page never kept, or one that changes the campaign, gets the offline page instead of failing;
// - log-out (and a "forget" message from the page) drops every kept page: nothing of a member
//   stays on a shared device. A page the server now refuses (removed member) is dropped too.
// It caches, it never renders: the pages are the server's, as they were when read.
"use strict";
var VERSION = "{{ version }}";
var STATIC = "chronicle-static-" + VERSION;
var PAGES = "chronicle-pages";
var STATIC_PREFIX = "{% get_static_prefix %}";
var OFFLINE_URL = "{% url 'offline' %}";
var LOGOUT_URL = "{% url 'logout' %}";
var PRECACHED = [{% for url in precached %}"{{ url|escapejs }}", {% endfor %}OFFLINE_URL];
var KEPT = /^\/(campaigns\/\d+\/((history|chronicles|statistics)\/|houses\/\d+\/|games\/\d+\/story\/|(charts|statistics)\/[\w-]+\.svg)?)?$/;
var KEPT_AT = "X-Chronicle-Kept-At";
var PATIENCE_MS = 6000;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches
      .open(STATIC)
      .then(function (cache) {
        // One by one: a file missing from a deployment leaves only itself out, not the whole worker.
        return Promise.all(
          PRECACHED.map(function (url) {
            return cache.add(new Request(url, { cache: "reload", credentials: "same-origin" })).catch(function () {});
          })
        );
      })
      .then(function () {
        return self.skipWaiting();
      })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        var old = names.filter(function (name) {
          return name.indexOf("chronicle-static-") === 0 && name !== STATIC;
        });
        return Promise.all(old.map(function (name) { return caches.delete(name); }));
      })
      .then(function () {
        return self.clients.claim();
      })
  );
});

function forgetPages() {
  return caches.delete(PAGES);
}

self.addEventListener("message", function (event) {
  if (event.data && event.data.type === "forget") {
    event.waitUntil(
      forgetPages().then(function () {
        if (event.source) event.source.postMessage({ type: "forgotten" });
      })
    );
  }
});

function isHtml(response) {
  return (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
}

// The copy of a page, with the time it was read (the header the page reads back through the mark).
function keep(request, response) {
  return response.text().then(function (html) {
    var headers = new Headers({ "Content-Type": response.headers.get("Content-Type") });
    headers.set(KEPT_AT, new Date().toISOString());
    return caches.open(PAGES).then(function (cache) {
      return cache.put(request, new Response(html, { headers: headers }));
    });
  });
}

// A kept copy, marked as such in its <head> for the page to say so (base.html's <head> has no attributes).
function offlineCopy(kept) {
  var when = kept.headers.get(KEPT_AT) || "";
  return kept.text().then(function (html) {
    var mark = '<meta name="chronicle-offline-copy" content="' + when + '">';
    return new Response(html.replace("<head>", "<head>" + mark), {
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  });
}

// Its words are the reader's, so a reader who changes language gets another worker (its bytes
// changed), which keeps the offline page again, in the new language.
function offlinePage() {
  return caches.match(OFFLINE_URL, { ignoreVary: true }).then(function (page) {
    return page || new Response("{{ unreachable|escapejs }}", { status: 503, headers: { "Content-Type": "text/plain" } });
  });
}

function copyOf(request) {
  return caches.open(PAGES).then(function (cache) { return cache.match(request, { ignoreVary: true }); });
}

// Network first. A page kept here is shown as its copy when the server fails, or is silent for
// PATIENCE_MS; a page never kept waits for the server as long as the browser does.
function navigate(event, kept) {
  var request = event.request;
  var stored = Promise.resolve();
  var answer = fetch(request).then(function (response) {
    var storable = (response.headers.get("Cache-Control") || "").indexOf("no-store") === -1;
    if (kept && response.ok && !response.redirected && isHtml(response) && storable) {
      stored = keep(request, response.clone());
    } else if (kept) {
      // Refused, gone, or sent to log in: the server no longer shows it, so neither does the cache.
      stored = caches.open(PAGES).then(function (cache) { return cache.delete(request); });
    }
    return response;
  });
  // The worker lives until the page is kept, even when its copy was shown before the server answered.
  event.waitUntil(answer.then(function () { return stored; }, function () {}));
  if (!kept) return answer.catch(offlinePage);
  return new Promise(function (resolve) {
    var timer = setTimeout(function () {
      copyOf(request).then(function (copy) { if (copy) resolve(offlineCopy(copy)); });
    }, PATIENCE_MS);
    answer.then(
      function (response) { clearTimeout(timer); resolve(response); },
      function () {
        clearTimeout(timer);
        resolve(copyOf(request).then(function (copy) { return copy ? offlineCopy(copy) : offlinePage(); }));
      }
    );
  });
}

function networkFirst(event, cacheName) {
  var request = event.request;
  return fetch(request).then(
    function (response) {
      if (response.ok) {
        var copy = response.clone();
        event.waitUntil(caches.open(cacheName).then(function (cache) { return cache.put(request, copy); }));
      }
      return response;
    },
    function () {
      return caches.open(cacheName).then(function (cache) {
        return cache.match(request, { ignoreVary: true }).then(function (copy) { return copy || Response.error(); });
      });
    }
  );
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === LOGOUT_URL) {
    event.waitUntil(forgetPages());
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(networkFirst(event, STATIC));
  } else if (request.mode === "navigate") {
    event.respondWith(navigate(event, KEPT.test(url.pathname)));
  } else if (request.destination === "image" && KEPT.test(url.pathname)) {
    event.respondWith(networkFirst(event, PAGES));
  }
  // Everything else (htmx panels, the API, the live streams, the version polls): the server's alone.
});
