// "Share the result": the result's picture (a PNG made on the server) handed to the phone's share
// sheet (Web Share API with files) where the browser can share files; elsewhere the link's own
// download attribute saves the picture, as a plain link would. No inline script (the CSP allows none).
function download(blob, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
}

function share(event) {
  const link = event.target.closest && event.target.closest("a[data-share-picture]");
  if (!link || !navigator.canShare || !window.File) return; // no file sharing: the link downloads
  event.preventDefault();
  const name = link.getAttribute("download") || "result.png";
  fetch(link.href, { credentials: "same-origin" }).then((response) => {
    if (!response.ok) throw new Error(response.status);
    return response.blob();
  }).then((blob) => {
    const file = new File([blob], name, { type: "image/png" });
    if (navigator.canShare({ files: [file] })) {
      return navigator.share({ files: [file], title: link.getAttribute("data-title") || "" }).catch((error) => {
        if (error && error.name !== "AbortError") download(blob, name); // closed by the user: nothing more
      });
    }
    download(blob, name);
    return null;
  }).catch(() => { window.location.href = link.href; });
}

document.addEventListener("click", share);
