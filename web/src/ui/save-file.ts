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
