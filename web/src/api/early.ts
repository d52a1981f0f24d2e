/**
 * Requests a cold load sends before the app's code has run (issue 24). The page's own
 * script, web/src/early.ts, runs before the app's module graph is evaluated (half a second
 * of the main thread on a loaded machine) and asks for what the first page will ask for
 * anyway; the app's client (api/client.ts) then takes the answer already on its way instead
 * of sending the same request again. Only GETs, each answer used once, and only for a
 * moment: a request made later (a refetch) goes to the server as always.
 */

const pending = new Map<string, Promise<Response>>();
/** Date.now() when each early answer arrived: the server clock's skew is measured against it (server-clock.ts), not against when the app took it. */
const arrivals = new WeakMap<Response, number>();

/** How long an early answer waits for the app to take it; after that it is dropped (the app asks again itself). */
export const EARLY_LIFETIME_MS = 10_000;

/** Whether the app's client is loaded: from then on it asks for itself, and a late early script must not ask a second time. */
let appLoaded = false;

/** Called by the app's client when its module is evaluated (api/client.ts). */
export function noteAppLoaded() {
  appLoaded = true;
}

/**
 * Sends GETs for these same-origin paths (with their query) now, as the app's client would:
 * same origin, the session cookie. Nothing when the app's client is already loaded (the early
 * script is async, so it could in principle run after the app).
 */
export function startEarly(paths: readonly string[], base = location.href, fetcher: typeof fetch = fetch) {
  if (appLoaded) return;
  for (const path of paths) {
    const url = new URL(path, base).href;
    if (pending.has(url)) continue;
    const response = fetcher(url, { credentials: 'same-origin', redirect: 'follow' }).then((answer) => {
      arrivals.set(answer, Date.now());
      return answer;
    });
    // A failure is the app's to see when it takes the answer; unclaimed, it is nobody's.
    response.catch(() => {});
    pending.set(url, response);
  }
  setTimeout(() => pending.clear(), EARLY_LIFETIME_MS);
}

/** The answer already on its way to this request, once (a GET to the same URL); undefined when there is none. */
export function takeEarly(request: Request): Promise<Response> | undefined {
  if (request.method !== 'GET') return undefined;
  const response = pending.get(request.url);
  pending.delete(request.url);
  return response;
}

/** When an early answer arrived (Date.now()), for the server clock; undefined for any other response. */
export const arrivedAt = (response: Response): number | undefined => arrivals.get(response);

/** For tests: forgets every early request, and that the app was loaded. */
export const forgetEarly = () => {
  pending.clear();
  appLoaded = false;
};
