import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { hashToken, newToken } from '../../../auth/sessions.ts';
import { withTenant } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { forbidden } from '../../../errors.ts';
import { newId } from '../../../ids.ts';
import { todayIn } from '../../../time/workspace-time.ts';
import { plannedAssignments } from '../../planning/assignments/index.ts';
import { calendarText } from './feed.ts';
import { feedHeading, insertFeed, openFeed, personEntries, revokeFeeds, workingFeed } from './queries.ts';
import { calendarFeedUrl, feedWindow, tokenOfFile } from './rules.ts';

/**
 * A person's own calendar feed: made, rotated and revoked by them (for the workspace
 * they are signed in to), read by a calendar program with the token alone. Like
 * client links, the token is 256 random bits stored as their SHA-256: its URL is
 * shown once, when it is made; rotating makes a new one and ends the old one in one
 * transaction, revoking ends it (the next fetch is a 404).
 */

export interface FeedStatus {
  active: boolean;
  created_at: string | null;
  last_fetched_at: string | null;
}

/** Only people with a membership of their own have a feed of their own work (not an agent or an operator). */
function assertOwnFeed(p: Principal) {
  if (p.kind === 'operator' || p.userType === 'agent') throw forbidden('Only a person has a calendar feed of their own work.');
}

export async function feedStatus(db: Kysely<DB>, p: Principal): Promise<FeedStatus> {
  assertOwnFeed(p);
  const feed = await withTenant(db, p.companyId, (trx) => workingFeed(trx, p.companyId, p.userId));
  return { active: Boolean(feed), created_at: feed?.created_at.toISOString() ?? null, last_fetched_at: feed?.last_fetched_at?.toISOString() ?? null };
}

/** Makes the person's feed, ending a working one (rotation); returns its URL, the only time it is known. */
export async function createFeed(db: Kysely<DB>, p: Principal, { baseUrl, now }: { baseUrl: string; now: Date }) {
  assertOwnFeed(p);
  const token = newToken();
  await withTenant(db, p.companyId, async (trx) => {
    await revokeFeeds(trx, p.companyId, p.userId, now);
    await insertFeed(trx, p.companyId, { id: newId(now.getTime()), userId: p.userId, tokenHash: hashToken(token), now });
  });
  return { url: calendarFeedUrl(baseUrl, token), ...(await feedStatus(db, p)) };
}

/** Ends the person's feed; false when there was none. */
export async function revokeFeed(db: Kysely<DB>, p: Principal, now: Date): Promise<boolean> {
  assertOwnFeed(p);
  return withTenant(db, p.companyId, (trx) => revokeFeeds(trx, p.companyId, p.userId, now));
}

/** The iCalendar text of the feed a file name (`<token>.ics`) names; null for a malformed, unknown or revoked token, or a person no longer active. */
export async function feedCalendar(db: Kysely<DB>, file: string, now: Date): Promise<string | null> {
  const token = tokenOfFile(file);
  if (!token) return null;
  const feed = await openFeed(db, hashToken(token), now);
  if (!feed) return null;
  const { company_id: companyId, user_id: userId } = feed;
  return withTenant(db, companyId, async (trx) => {
    const heading = await feedHeading(trx, companyId, userId);
    const window = feedWindow(todayIn(heading.timezone, now));
    const entries = await personEntries(trx, companyId, userId, window.entries);
    const plan = await plannedAssignments(trx, companyId, window.plan, { userId });
    return calendarText({
      workspaceName: heading.workspace_name,
      personName: `${heading.first_name} ${heading.last_name}`.trim(),
      timezone: heading.timezone,
      entries,
      plan,
      now,
    });
  });
}
