// Saves a Blob as a file from the browser: an object URL on a temporary <a download> element.
// The URL is revoked after the click has been handled so large exports do not stay in memory.

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.rel = "noopener";
  a.style.display = "none";
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoking synchronously can cancel the download in some browsers; a later tick is safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
