import { HttpError } from '../../api/call.ts';

/** The server's reasons for refusing an endpoint's URL (the 400's `refusal`), worded in the reader's language (texts.ts form.refusals). */
export const URL_REFUSALS = ['not_absolute', 'scheme', 'credentials', 'private_address'] as const;
export type UrlRefusal = (typeof URL_REFUSALS)[number];

/** Why the URL was refused, when that was the failure; null otherwise (then the server's message is shown). */
export function urlRefusalOf(error: unknown): UrlRefusal | null {
  if (!(error instanceof HttpError) || error.code !== 'invalid_request' || error.body?.field !== 'url') return null;
  const refusal = error.body.refusal;
  return URL_REFUSALS.find((r) => r === refusal) ?? null;
}
