/* The reader's theme: light, dark, or the system's (the default). Loaded in <head> without defer,
   so data-theme is set before the first paint and a dark room never sees a parchment flash. The
   choice lives in localStorage: it belongs to the device, like the room it is used in. */
(function () {
  "use strict";
  var KEY = "chronicle-theme";
  var root = document.documentElement;

  function stored() {
    try {
      var value = localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : "system";
    } catch (e) {
      return "system";
    }
  }

  function apply(choice) {
    if (choice === "light" || choice === "dark") root.setAttribute("data-theme", choice);
    else root.removeAttribute("data-theme");
  }

  apply(stored());

  document.addEventListener("DOMContentLoaded", function () {
    var select = document.getElementById("theme-choice");
    if (!select) return;
    select.value = stored();
    // Without this script the control could do nothing: it stays hidden then.
    select.closest(".theme-control").hidden = false;
    select.addEventListener("change", function () {
      try {
        if (select.value === "system") localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, select.value);
      } catch (e) { /* private mode: the choice holds for this page only */ }
      apply(select.value);
    });
  });
})();
