import { randomBytes } from 'node:crypto';
import type { Refusal } from '../../../errors.ts';

/**
 * What a webhook is: the event kinds there are, what a URL may be, the secret's form and
 * the retry schedule. Pure rules, unit-tested without a database (test/unit/webhook-rules.test.ts).
 */

/** Every event kind an endpoint may ask for (the trigger of migration 0090 makes exactly these). */
export const EVENT_TYPES = [
  'time_entry.created',
  'time_entry.updated',
  'time_entry.deleted',
  'timer.started',
  'timer.stopped',
  'expense.created',
  'expense.updated',
  'expense.deleted',
  'approval.submitted',
  'approval.approved',
  'approval.rejected',
  'approval.withdrawn',
  'invoice.created',
  'invoice.updated',
  'invoice.sent',
  'invoice.paid',
  'invoice.deleted',
  'estimate.sent',
  'estimate.accepted',
  'estimate.declined',
  'client.created',
  'client.updated',
  'client.archived',
  'client.deleted',
  'project.created',
  'project.updated',
  'project.archived',
  'project.deleted',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const URL_MAX = 2000;
export const DESCRIPTION_MAX = 500;

/**
 * Why a URL cannot be an endpoint's: the 400's `refusal` (the web app words it in the reader's
 * language) and the API's English sentence. A private address is checked apart (address.ts).
 */
export const URL_REFUSALS = ['not_absolute', 'scheme', 'credentials', 'private_address'] as const satisfies readonly Refusal[];
export type UrlRefusal = (typeof URL_REFUSALS)[number];

/** Why a URL cannot be an endpoint's, or null when it can (its address is checked apart: address.ts). */
export function urlProblem(raw: string): { refusal: UrlRefusal; message: string } | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refusal: 'not_absolute', message: 'must be an absolute http(s) URL.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refusal: 'scheme', message: `must be an http or https URL, not ${url.protocol.slice(0, -1)}.` };
  // A password in the URL would be shown in every list and exported by the backup: the signature authenticates instead.
  if (url.username || url.password) return { refusal: 'credentials', message: 'must not carry a user name or password; receivers check the webhook-signature header instead.' };
  return null;
}

/** Event kinds with duplicates removed, in the order of EVENT_TYPES (what is stored and shown). */
export const normalizedEvents = (events: readonly string[]): EventType[] => EVENT_TYPES.filter((e) => events.includes(e));

/** A new signing secret in the Standard Webhooks form: 'whsec_' and 32 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** How long the previous secret still signs after a rotation, so receivers can switch without losing a delivery. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * The waits before the 2nd, 3rd … attempt, as the Standard Webhooks specification suggests:
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; after the 8th failed attempt (27 h 35 min after
 * the first) the delivery has failed and its endpoint is disabled.
 */
export const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** After the `attempts`-th failure: when to try again, or null when the delivery has failed for good. */
export function retryAfter(attempts: number, now: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay);
}

/** How long a claimed delivery is held while it is sent; a worker that dies frees it after this. */
export const LEASE_MS = 60_000;
/** How long one request may take before it counts as failed. */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * How many of one endpoint's deliveries a server process sends at once until it answers promptly
 * (then it may take every lane, worker.ts): a slow or silent receiver holds this many lanes until
 * its deadline, and the other endpoints' events go out meanwhile.
 */
export const PER_ENDPOINT_LANES = 8;
/** Deliveries are kept in the log this long after they were delivered or failed. */
export const LOG_RETENTION_DAYS = 30;

/**
 * Why Sheaf turned an endpoint off (stored as the code, shown in the reader's language):
 * a delivery failed for more than a day, or the administrator whose view the payloads
 * carry is no longer an active owner or administrator.
 */
export const DISABLED_REASONS = ['delivery_failing', 'administrator_inactive'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** The webhook-id of a delivery: stable over every attempt and resend. */
export const messageId = (id: string) => `msg_${id.replaceAll('-', '')}`;
