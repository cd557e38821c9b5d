/* The reader's time zone and language. The browser's zone (Intl) goes into a cookie the server reads
   to write times in it (config/locale.py); the language chooser submits as soon as a language is
   picked, so its button is hidden when this script runs; the scripts' own words are the page's
   (templates/_js_words.html, written in the reader's language), read by window.chronicleWords(). */
(function () {
  "use strict";
  var words = null;
  window.chronicleWords = function () {
    if (words === null) {
      var holder = document.getElementById("chronicle-words");
      try {
        words = holder ? JSON.parse(holder.textContent) : {};
      } catch (e) {
        words = {};
      }
    }
    return words;
  };
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // IANA names hold only letters, digits, "_", "-", "+" and "/": all allowed in a cookie as they are.
    if (zone && /^[A-Za-z0-9_+\/-]+$/.test(zone)) {
      document.cookie = "chronicle_tz=" + zone + "; path=/; max-age=31536000; SameSite=Lax";
    }
  } catch (e) {
    /* No Intl: times stay in UTC, said as such. */
  }

  document.addEventListener("DOMContentLoaded", function () {
    var forms = document.querySelectorAll("form.language-chooser");
    Array.prototype.forEach.call(forms, function (form) {
      var select = form.querySelector("select");
      var button = form.querySelector("button");
      if (!select || !button) return;
      button.hidden = true;
      select.addEventListener("change", function () { form.submit(); });
    });
  });
})();
