import { useEffect, useState } from 'react';
import { serverNow } from '../../api/server-clock.ts';

/**
 * Now by the server's clock, once a second while something ticks; again at once when the
 * tab becomes visible (background tabs throttle timers, so the last tick may be old).
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
