// The paper pages (guide cards, score cards): the Print button opens the browser's print dialog. It is
// hidden until this script runs, so a page without its script shows no button that does nothing.
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => { window.print(); });
});
