import { useEffect, useState } from 'react';

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

/**
 * Now by the server's clock, once a second while something ticks (a running timer, on the timer
 * bar or the home page); again at once when the tab becomes visible (background tabs throttle
 * timers, so the last tick may be old).
 */
export function useServerNow(active: boolean): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!active) return;
    const tick = () => setNow(serverNow());
    tick();
    const timer = setInterval(tick, 1000);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [active]);
  return now;
}
