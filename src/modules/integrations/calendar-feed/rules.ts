/**
 * A person's calendar feed (issue 27 item 4): an iCalendar file of their own time
 * entries and planned work at a secret URL a calendar program subscribes to. The
 * token (256 random bits, base64url: 43 characters) is the only credential, so it is
 * in the URL's path (calendar programs send nothing else) and stored only hashed.
 */

/** The public route's prefix: `/calendar/<token>.ics`. */
export const CALENDAR_FEED_PATH = '/calendar';

/** The shape of a token; anything else is unknown without a lookup. */
export const isFeedToken = (token: unknown): token is string => typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token);

/** The token of a feed file name (`<token>.ics`), or null. */
export function tokenOfFile(file: string): string | null {
  const token = file.endsWith('.ics') ? file.slice(0, -4) : file;
  return isFeedToken(token) ? token : null;
}

/** The URL a calendar program subscribes to. */
export const calendarFeedUrl = (baseUrl: string, token: string) => `${baseUrl.replace(/\/+$/, '')}${CALENDAR_FEED_PATH}/${token}.ics`;

/** A request URL as the log writes it: a feed's token replaced, so the log never holds a working link. */
export const redactFeedUrl = (url: string) =>
  url.startsWith(`${CALENDAR_FEED_PATH}/`) ? `${CALENDAR_FEED_PATH}/[token]${url.endsWith('.ics') ? '.ics' : ''}` : url;

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * What a feed holds, around the workspace's today: time entries of the last year
 * (a calendar shows the recent past; older work is in the reports and the export),
 * planned work from three months back to a year ahead.
 */
export const feedWindow = (today: string) => ({
  entries: { from: addDays(today, -365), to: addDays(today, 1) },
  plan: { from: addDays(today, -90), to: addDays(today, 365) },
});
