import { startEarly } from './api/early.ts';
import { timePageCalls } from './areas/time/early.ts';

/**
 * The page's first script (index.html loads it before main.tsx; issue 24): on a cold load
 * of a time page it asks at once for what that page's loaders will ask for (the session,
 * the running timer, the week), so the server works on them while the browser is still
 * evaluating the app's code. The app's client takes these answers (api/early.ts). Other
 * pages wait for the app as before.
 */
const { pathname, search } = window.location;
const sheet = timePageCalls(pathname, search);
if (sheet.length) startEarly(['/web/api/session', '/web/api/timer', ...sheet]);
