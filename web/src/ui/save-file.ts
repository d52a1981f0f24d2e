/** Saves fetched bytes as a file: a short-lived blob link with a download name, clicked once (CSP allows blob:). */
export function saveFile(data: Blob, filename: string) {
  const url = URL.createObjectURL(data);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = filename;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** The name in a Content-Disposition header (`attachment; filename="x.xml"`, or the RFC 5987 `filename*=UTF-8''…`), or null. */
export function filenameOf(disposition: string | null): string | null {
  const star = disposition?.match(/filename\*=UTF-8''([^;]+)/i);
  if (star) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the plain name
    }
  }
  const plain = disposition?.match(/filename="([^"]+)"/i) ?? disposition?.match(/filename=([^;]+)/i);
  return plain ? plain[1].trim() : null;
}
