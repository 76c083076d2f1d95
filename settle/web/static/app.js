// settle serve: the hand form's counters and what it shows (no build step; htmx does the requests).
(function () {
  "use strict";
  function update(form) {
    var how = (form.querySelector("input[name=how]:checked") || {}).value || "";
    var win = how === "self_draw" || how === "discard" || how === "robbed_kong";
    var winners = Array.prototype.map.call(form.querySelectorAll("input[name=winner]:checked"),
      function (e) { return e.value; });
    form.querySelectorAll("[data-when]").forEach(function (el) {
      var when = el.getAttribute("data-when").split(" ");
      var shown = when.indexOf(how) >= 0 || (when.indexOf("win") >= 0 && win);
      el.hidden = !shown;
    });
    form.querySelectorAll("[data-winner]").forEach(function (el) {
      el.hidden = !(win && winners.indexOf(el.getAttribute("data-winner")) >= 0);
    });
    var stated = form.querySelector("input[name=count]");
    form.querySelectorAll("[data-stated]").forEach(function (el) {
      el.hidden = !(stated && stated.checked);
    });
    form.querySelectorAll("[data-opens]").forEach(function (box) {
      var input = box.querySelector("input");
      var n = parseInt(input.value, 10) || 0;
      var feeders = box.parentNode.querySelectorAll("[data-feed]");
      feeders.forEach(function (sel) { sel.hidden = parseInt(sel.getAttribute("data-feed"), 10) >= n; });
    });
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-step]");
    if (!button) { return; }
    event.preventDefault();
    var input = button.parentNode.querySelector("input");
    var value = (parseInt(input.value, 10) || 0) + parseInt(button.getAttribute("data-step"), 10);
    var min = parseInt(input.getAttribute("min") || "0", 10);
    var max = parseInt(input.getAttribute("max") || "99", 10);
    input.value = String(Math.max(min, Math.min(max, value)));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  });
  document.addEventListener("change", function (event) {
    var form = event.target.closest("form.hand");
    if (form) { update(form); }
    var picker = event.target.closest("form[data-autosubmit]");  // set-up: region and seat count redraw the form
    if (picker) { picker.submit(); }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var confirmText = form.getAttribute("data-confirm");
    if (confirmText && !window.confirm(confirmText)) { event.preventDefault(); return; }
    if (form.getAttribute("data-once") !== null) {
      if (form.getAttribute("data-sent")) { event.preventDefault(); return; }
      form.setAttribute("data-sent", "1");
    }
  });
  window.addEventListener("pageshow", function () {  // back to a sent form (page cache): it may be sent again
    document.querySelectorAll("form[data-sent]").forEach(function (f) { f.removeAttribute("data-sent"); });
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form.hand").forEach(update);
  });
})();
