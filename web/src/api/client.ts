import createClient from 'openapi-fetch';
import type { paths } from './schema';
import { isReplayable, NetworkError } from './call.ts';
import { arrivedAt, noteAppLoaded, takeEarly } from './early.ts';
import { noteServerDate } from './server-clock.ts';

/** The header that carries the session's CSRF token on every mutation (the server's contract). */
export const CSRF_HEADER = 'X-CSRF-Token';

// The token of the current session: in memory only, never in web storage (WEB-STYLE 7).
let csrfToken = '';
let onSessionEnded: () => void = () => {};

/** Remembers the CSRF token of the session just received ('' when signed out). */
export function rememberCsrfToken(token: string) {
  csrfToken = token;
}

/** What happens when a signed-in call answers 401 (the session may have expired or been signed out elsewhere). */
export function whenSessionEnds(handler: () => void) {
  onSessionEnded = handler;
}

/** The one client of the API: same origin, the session cookie, typed by the generated schema. */
export const api = createClient<paths>({
  baseUrl: '/',
  credentials: 'same-origin',
  // A cold load's first GETs may already be on their way (web/src/early.ts): take that answer instead of asking again.
  fetch: (request: Request) => takeEarly(request) ?? fetch(request),
});

// From here on the app asks for itself: an early script that runs only now sends nothing.
noteAppLoaded();

api.use({
  onRequest({ request }) {
    if (csrfToken && !['GET', 'HEAD'].includes(request.method)) request.headers.set(CSRF_HEADER, csrfToken);
    return request;
  },
  onResponse({ response }) {
    noteServerDate(response.headers.get('date'), arrivedAt(response));
    // Only a call made while signed in can find the session gone; a wrong password's 401 is an answer, not an ending.
    // The token stays until the session itself is found gone (session.ts sessionHasEnded): a workspace call's 401
    // (a membership just deactivated) can arrive after a fresh session and must not strip its token.
    if (response.status === 401 && csrfToken) onSessionEnded();
    return response;
  },
  onError({ request, error }) {
    if (error instanceof DOMException && error.name === 'AbortError') return error;
    return new NetworkError(error, isReplayable(request));
  },
});
