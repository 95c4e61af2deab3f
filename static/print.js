// The paper pages (guide cards, score cards): the Print button opens the browser's print dialog. It is
// hidden until this script runs, so a page without its script shows no button that does nothing.
(function () {
  "use strict";
  document.querySelectorAll("[data-print]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () { window.print(); });
  });
})();
