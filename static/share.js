// "Share the result": the result's picture (a PNG made on the server) handed to the phone's share
// sheet (Web Share API with files) where the browser can share files; elsewhere the link's own
// download attribute saves the picture, as a plain link would. No inline script (the CSP allows none).
(function () {
  "use strict";
  function download(blob, name) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-share-picture]");
    if (!link || !navigator.canShare || !window.File) return; // no file sharing: the link downloads
    event.preventDefault();
    var name = link.getAttribute("download") || "result.png";
    fetch(link.href, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(response.status);
      return response.blob();
    }).then(function (blob) {
      var file = new File([blob], name, { type: "image/png" });
      if (navigator.canShare({ files: [file] })) {
        return navigator.share({ files: [file], title: link.getAttribute("data-title") || "" }).catch(function (error) {
          if (error && error.name !== "AbortError") download(blob, name); // closed by the user: nothing more
        });
      }
      download(blob, name);
    }).catch(function () { window.location.href = link.href; });
  });
})();
