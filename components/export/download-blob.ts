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

/** The file name from a Content-Disposition header (RFC 6266 filename* first, then filename). */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall through to the plain form
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header) ?? /filename\s*=\s*([^;\s]+)/.exec(header);
  return plain?.[1] ? plain[1].replace(/\\(.)/g, "$1") : fallback;
}
