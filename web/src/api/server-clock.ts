/**
 * The server's clock as the browser sees it: each response's Date header gives the
 * skew, so times shown (a running timer) come from the server, not the device.
 */
let skewMs = 0;

export function noteServerDate(header: string | null, receivedAt = Date.now()) {
  if (!header) return;
  const server = Date.parse(header);
  // The Date header has whole seconds: keep the first measure unless it is off by more than that.
  if (Number.isFinite(server) && Math.abs(server - receivedAt - skewMs) > 1000) skewMs = server - receivedAt;
}

/** Now, by the server's clock (milliseconds since the epoch). */
export function serverNow(): number {
  return Date.now() + skewMs;
}
