import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import { newId } from '../ids.ts';

/**
 * Browser sessions of the web app, stored server-side (the `sessions` table, so
 * every API node sees them). The cookie carries 256 random bits; the table keeps
 * only their SHA-256, so a copy of the database signs nobody in. A session ends
 * when signed out, after SESSION_IDLE_MS without a request, and SESSION_LIFETIME_MS
 * after it began, whichever comes first.
 */
export const SESSION_COOKIE = 'sheaf_session';
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/** A session opened by a one-time link may set a password without the current one this long. */
export const LINK_GRACE_MS = 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reads do not each cost a write. */
const TOUCH_EVERY_MS = 60 * 1000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest();
export const newToken = () => randomBytes(32).toString('base64url');

export interface SessionRow {
  id: string;
  user_id: string;
  company_id: string | null;
  csrf_token: string;
  created_at: Date;
  via_link_at: Date | null;
}

export interface NewSession {
  userId: string;
  /** The workspace to work in; default: the person's first active membership. */
  companyId?: string | null;
  viaLink?: boolean;
  ip?: string;
  userAgent?: string;
  now: Date;
}

/** The workspace a new session opens in: the oldest active internal membership, else any active one. */
async function defaultWorkspace(db: Kysely<DB>, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('memberships')
    .select('company_id')
    .where('user_id', '=', userId)
    .where('is_active', '=', true)
    .orderBy(sql`role = 'client'`)
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row?.company_id ?? null;
}

export async function createSession(db: Kysely<DB>, input: NewSession): Promise<{ token: string; session: SessionRow }> {
  const token = newToken();
  const companyId = input.companyId === undefined ? await defaultWorkspace(db, input.userId) : input.companyId;
  const session = await db
    .insertInto('sessions')
    .values({
      id: newId(input.now.getTime()),
      token_hash: hashToken(token),
      user_id: input.userId,
      company_id: companyId,
      csrf_token: newToken(),
      created_at: input.now,
      last_seen_at: input.now,
      via_link_at: input.viaLink ? input.now : null,
      ip: input.ip ?? null,
      user_agent: input.userAgent?.slice(0, 512) ?? null,
    })
    .returning(['id', 'user_id', 'company_id', 'csrf_token', 'created_at', 'via_link_at'])
    .executeTakeFirstOrThrow();
  return { token, session };
}

/** Whether a cookie's value can be a session token at all (anything else is no session, without a lookup). */
export const isSessionToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** The columns of a session that findSession reads (and keepAlive takes). */
export const SESSION_COLUMNS = ['id', 'user_id', 'company_id', 'csrf_token', 'created_at', 'via_link_at', 'last_seen_at'] as const;

/** The live session a cookie names, or null (unknown, signed out, idle too long or too old). */
export async function findSession(db: Kysely<DB>, token: string, now: Date): Promise<SessionRow | null> {
  if (!isSessionToken(token)) return null;
  const row = await db.selectFrom('sessions').select(SESSION_COLUMNS).where('token_hash', '=', hashToken(token)).executeTakeFirst();
  return row ? keepAlive(db, row, now) : null;
}

/**
 * A session row as read (with last_seen_at): null, and the row deleted, when it has
 * ended by age; otherwise the session, last_seen_at written when it is older than a minute.
 */
export async function keepAlive(db: Kysely<DB>, row: SessionRow & { last_seen_at: Date }, now: Date): Promise<SessionRow | null> {
  if (expired(row, now)) {
    await db.deleteFrom('sessions').where('id', '=', row.id).execute();
    return null;
  }
  if (now.getTime() - row.last_seen_at.getTime() > TOUCH_EVERY_MS) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', row.id).execute();
  }
  return {
    id: row.id,
    user_id: row.user_id,
    company_id: row.company_id,
    csrf_token: row.csrf_token,
    created_at: row.created_at,
    via_link_at: row.via_link_at,
  };
}

/** Whether a session has ended by age (idle too long, or too old), though its row may still be there. */
const expired = (row: { created_at: Date; last_seen_at: Date }, now: Date) =>
  now.getTime() - row.last_seen_at.getTime() > SESSION_IDLE_MS || now.getTime() - row.created_at.getTime() > SESSION_LIFETIME_MS;

/** The person's live sessions, most recently used first (their profile lists them). */
export async function listSessions(db: Kysely<DB>, userId: string, now: Date) {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'ip', 'user_agent'])
    .where('user_id', '=', userId)
    .orderBy('last_seen_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.filter((r) => !expired(r, now));
}

/** Ends one session of the person's; false when they have none with this id (another person's id included). */
export async function endSessionOf(db: Kysely<DB>, userId: string, sessionId: string): Promise<boolean> {
  const ended = await db.deleteFrom('sessions').where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
  return ended.numDeletedRows > 0n;
}

export async function endSession(db: Kysely<DB>, sessionId: string) {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/**
 * Signs a person out everywhere (sign-out of all sessions, a password change or reset, an
 * administrator's "sign out everywhere"); returns how many sessions ended.
 */
export async function endAllSessions(db: Kysely<DB>, userId: string, exceptSessionId?: string): Promise<number> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  const { numDeletedRows } = await q.executeTakeFirst();
  return Number(numDeletedRows);
}

/** Ends the person's sessions open in one workspace (a deactivated member's); returns how many. */
export async function endSessionsIn(db: Kysely<DB>, companyId: string, userId: string): Promise<number> {
  const { numDeletedRows } = await db.deleteFrom('sessions').where('user_id', '=', userId).where('company_id', '=', companyId).executeTakeFirst();
  return Number(numDeletedRows);
}

export async function switchWorkspace(db: Kysely<DB>, sessionId: string, companyId: string) {
  await db.updateTable('sessions').set({ company_id: companyId }).where('id', '=', sessionId).execute();
}

/** Whether the X-CSRF-Token header holds this session's token (constant-time). */
export function csrfTokenMatches(session: Pick<SessionRow, 'csrf_token'>, header: unknown): boolean {
  if (typeof header !== 'string') return false;
  const a = Buffer.from(header);
  const b = Buffer.from(session.csrf_token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether a session may set a password without the current one (opened by a one-time link, recently). */
export const openedByRecentLink = (session: Pick<SessionRow, 'via_link_at'>, now: Date) =>
  session.via_link_at !== null && now.getTime() - session.via_link_at.getTime() <= LINK_GRACE_MS;
