import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import type { Clock } from '../clock.ts';
import { isId } from '../ids.ts';
import { accountId, bearerToken } from './credential-headers.ts';
import { ApiError, unauthorized } from '../errors.ts';
import { parseCookie } from 'cookie';
import { hashKey, isApiKeyToken, looksLikeKey } from './keys.ts';
import { hashToken, isSessionToken, keepAlive, SESSION_COOKIE } from './sessions.ts';
import { TokenRefused, type JwtVerifier } from './jwt.ts';
import type { Principal } from './principal.ts';

export interface AuthDeps {
  db: Kysely<DB>;
  clock: Clock;
  jwt: JwtVerifier | null;
  /** Told the hash of a key found revoked or expired (the rate limiter's list of keys that may work drops it). */
  keyGone?: (secretHash: Buffer) => void;
}

type Headers = Record<string, string | string[] | undefined>;

/** What authentication reads of the request: Node's parsed headers and the raw list (name, value, name, value, ...). */
export interface CredentialSource {
  headers: Headers;
  rawHeaders: string[];
  /** SHA-256 of the bearer token when the caller has made it already (the rate limiter does, for its key). */
  tokenHash?: Buffer | null;
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? undefined : value);

/**
 * A request carrying a credential header twice is refused (401), whatever the
 * values: Node keeps the first Authorization and drops the others, and joins
 * repeated Service-Account-Id values with a comma, so which credential a proxy,
 * a log or this server would act on is ambiguous. Counted in the raw headers,
 * the only place the repetition is still visible.
 */
function assertSingleCredentialHeaders(rawHeaders: string[]) {
  let authorization = 0;
  let account = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    // The length test first: most headers are neither, and it avoids lower-casing them.
    if (name.length === 13 && name.toLowerCase() === 'authorization') authorization++;
    else if (name.length === 18 && name.toLowerCase() === 'service-account-id') account++;
  }
  if (authorization > 1) throw unauthorized('Send exactly one Authorization header.');
  if (account > 1) throw unauthorized('Send exactly one Service-Account-Id header.');
}

/**
 * Turns the request's credentials into a principal, or throws 401. Keys need
 * `Authorization: Bearer <key>` and `Service-Account-Id: <company id>`; an
 * identity-provider JWT needs only the bearer token (the workspace is a claim);
 * without an Authorization header, the web app's session cookie (the workspace
 * is the session's). Every call reads the credential, membership and user afresh.
 */
export async function authenticate({ headers, rawHeaders, tokenHash }: CredentialSource, deps: AuthDeps): Promise<Principal> {
  assertSingleCredentialHeaders(rawHeaders);
  if (headers.authorization === undefined) {
    const session = sessionToken(headers);
    if (session) return authenticateSession(session, deps);
  }
  const token = bearerToken(headers.authorization);
  if (!token) throw unauthorized('Send your API key as "Authorization: Bearer <key>".');
  const account = accountId(headers['service-account-id']);
  if (isApiKeyToken(token)) return authenticateKey(token, account, deps, tokenHash ?? hashKey(token));
  return authenticateJwt(token, account, deps);
}

/** What a principal is made of: the membership, its person and its workspace (one list for every way in). */
const PRINCIPAL_COLUMNS = [
  'm.company_id',
  'co.name as company_name',
  'm.user_id',
  'u.email',
  'u.first_name',
  'u.last_name',
  'u.user_type',
  'm.role',
  'm.permissions',
  'm.is_contractor',
  'm.is_active',
] as const;

function principalQuery(db: Kysely<DB>) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('companies as co', 'co.id', 'm.company_id')
    .select(PRINCIPAL_COLUMNS);
}

type PrincipalRow = Awaited<ReturnType<ReturnType<typeof principalQuery>['executeTakeFirst']>> & {};

function toPrincipal(row: PrincipalRow, kind: Principal['kind'], credentialId: string | null): Principal {
  if (!row.is_active) throw unauthorized('This user is deactivated in the workspace.');
  return {
    kind,
    credentialId,
    companyId: row.company_id,
    companyName: row.company_name,
    userId: row.user_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    userType: row.user_type,
    role: row.role,
    permissions: row.permissions,
    isContractor: row.is_contractor,
    isActive: row.is_active,
  };
}

/**
 * A member acting without a request, with exactly their role and permissions read fresh (a saved
 * report's scheduled e-mail is its owner's report); undefined when they are no longer an active
 * member. No credential: the work is the member's own, started by a schedule they set.
 */
export async function memberPrincipal(db: Kysely<DB>, companyId: string, userId: string): Promise<Principal | undefined> {
  const row = await principalQuery(db).where('m.company_id', '=', companyId).where('m.user_id', '=', userId).executeTakeFirst();
  return row?.is_active ? toPrincipal(row, 'integration', null) : undefined;
}

function keyQuery(db: Kysely<DB>, account: string, secretHash: Buffer) {
  return principalQuery(db)
    .innerJoin('credentials as c', (j) => j.onRef('c.company_id', '=', 'm.company_id').onRef('c.user_id', '=', 'm.user_id'))
    .select(['c.id as credential_id', 'c.kind', 'c.expires_at', 'c.revoked_at', 'c.last_used_at'])
    .where('c.company_id', '=', account)
    .where('c.secret_hash', '=', secretHash);
}

type KeyRow = Awaited<ReturnType<ReturnType<typeof keyQuery>['executeTakeFirstOrThrow']>>;

/**
 * A query's SQL, built once per database handle: Kysely builds and compiles a
 * query on every call, which for these four-table joins costs more CPU than the
 * rest of the request. Only the parameters change between requests.
 */
function sqlOnce(cache: WeakMap<Kysely<DB>, string>, db: Kysely<DB>, build: (db: Kysely<DB>) => { compile(): { sql: string } }): string {
  let text = cache.get(db);
  if (text === undefined) cache.set(db, (text = build(db).compile().sql));
  return text;
}

const keySql = new WeakMap<Kysely<DB>, string>();
const keySqlFor = (db: Kysely<DB>) => sqlOnce(keySql, db, (d) => keyQuery(d, '', Buffer.alloc(0)));

async function authenticateKey(token: string, account: string | undefined, deps: AuthDeps, secretHash: Buffer): Promise<Principal> {
  if (!account) throw unauthorized('Send the workspace id in the Service-Account-Id header.');
  if (!isId(account) || !looksLikeKey(token)) throw unauthorized('The API key or workspace id is not valid.');
  // Auth runs before the tenant is known to be real, so it reads as the service
  // itself, filtered by the account header and the key's hash.
  const { rows } = await deps.db.executeQuery<KeyRow>(CompiledQuery.raw(keySqlFor(deps.db), [account, secretHash]));
  const row = rows[0];
  if (!row) throw unauthorized('The API key or workspace id is not valid.');
  if (row.revoked_at) {
    deps.keyGone?.(secretHash);
    throw unauthorized('The API key or workspace id is not valid.');
  }
  const now = deps.clock();
  if (row.expires_at && row.expires_at <= now) {
    deps.keyGone?.(secretHash);
    throw unauthorized('This API key has been rotated and has expired.');
  }
  const principal = toPrincipal(row, row.kind, row.credential_id);
  if (row.last_used_at === null || now.getTime() - row.last_used_at.getTime() >= LAST_USED_EVERY_MS) noteKeyUse(deps.db, row, now);
  return principal;
}

/** A key's last_used_at (shown in the web app) is written at most this often, so requests do not each cost a write. */
export const LAST_USED_EVERY_MS = 60 * 1000;

const LAST_USED_SQL = `update credentials set last_used_at = $1
  where company_id = $2 and id = $3 and (last_used_at is null or last_used_at <= $4)`;

/**
 * Records that a key was used, without holding up the request: the write is not
 * awaited, and the condition makes concurrent requests of one key write once a
 * minute. It is a display hint, so a failed write (the database briefly away)
 * is dropped rather than failing a request that already authenticated.
 */
function noteKeyUse(db: Kysely<DB>, row: { company_id: string; credential_id: string }, now: Date) {
  const before = new Date(now.getTime() - LAST_USED_EVERY_MS);
  db.executeQuery(CompiledQuery.raw(LAST_USED_SQL, [now, row.company_id, row.credential_id, before])).catch(() => {});
}

async function authenticateJwt(token: string, account: string | undefined, deps: AuthDeps): Promise<Principal> {
  if (!deps.jwt || token.split('.').length !== 3) throw unauthorized('The API key or token is not valid.');
  let claims;
  try {
    claims = await deps.jwt.verify(token);
  } catch (err) {
    throw unauthorized(err instanceof TokenRefused ? err.message : 'The identity-provider token is not valid or has expired.');
  }
  const companyId = claims.company_id;
  const sub = claims.sub;
  if (!isId(companyId) || typeof sub !== 'string' || !sub) {
    throw unauthorized('The token lacks the company_id or sub claim.');
  }
  if (account && account !== companyId.toLowerCase()) throw unauthorized('Service-Account-Id does not match the token.');
  const row = await principalQuery(deps.db)
    .where('m.company_id', '=', companyId)
    .where(isId(sub) ? 'u.id' : 'u.email', '=', isId(sub) ? sub : String(sub).toLowerCase())
    .executeTakeFirst();
  if (!row) throw unauthorized('The token names no member of this workspace.');
  return toPrincipal(row, 'jwt', null);
}

/** The session cookie's value, if the request carries one. */
export function sessionToken(headers: Headers): string | undefined {
  const cookie = single(headers.cookie);
  if (!cookie || !cookie.includes(SESSION_COOKIE)) return undefined;
  return parseCookie(cookie)[SESSION_COOKIE] || undefined;
}

/**
 * The session a cookie names with the person's membership in its workspace, in one
 * query (the membership, person and workspace columns are null when the session has
 * no workspace or the person is no longer a member of it).
 */
function sessionQuery(db: Kysely<DB>, tokenHash: Buffer) {
  return db
    .selectFrom('sessions as s')
    .leftJoin('memberships as m', (j) => j.onRef('m.company_id', '=', 's.company_id').onRef('m.user_id', '=', 's.user_id'))
    .leftJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('companies as co', 'co.id', 'm.company_id')
    .select([
      // Looked up only where the workspace requires a second factor: TOTP codes or a passkey.
      sql<boolean>`case when co.require_two_factor then
        exists (select 1 from user_two_factor tf where tf.user_id = s.user_id and tf.enabled_at is not null)
        or exists (select 1 from user_passkeys pk where pk.user_id = s.user_id)
      else true end`.as('second_factor_ok'),
      's.id as session_id',
      's.user_id as session_user_id',
      's.company_id as session_company_id',
      's.csrf_token',
      's.created_at as session_created_at',
      's.via_link_at',
      's.last_seen_at',
      ...PRINCIPAL_COLUMNS,
    ])
    .where('s.token_hash', '=', tokenHash);
}

type SessionMemberRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>['executeTakeFirstOrThrow']>>;

const sessionSql = new WeakMap<Kysely<DB>, string>();
const sessionSqlFor = (db: Kysely<DB>) => sqlOnce(sessionSql, db, (d) => sessionQuery(d, Buffer.alloc(0)));

/**
 * The signed-in person in the session's workspace; 401 when the session ended or has
 * no workspace, or the person is no longer a member of it. One query reads the session
 * and the membership; a workspace that requires two-factor codes refuses (403) the
 * session of a person without them, who may only set them up; ending an aged session and noting its use (once a minute) are
 * the writes findSession makes too (keepAlive).
 */
async function authenticateSession(token: string, deps: AuthDeps): Promise<Principal> {
  if (!isSessionToken(token)) throw unauthorized('Your session has ended; sign in again.');
  const { rows } = await deps.db.executeQuery<SessionMemberRow>(CompiledQuery.raw(sessionSqlFor(deps.db), [hashToken(token)]));
  const row = rows[0];
  const session = row
    ? await keepAlive(
        deps.db,
        {
          id: row.session_id,
          user_id: row.session_user_id,
          company_id: row.session_company_id,
          csrf_token: row.csrf_token,
          created_at: row.session_created_at,
          via_link_at: row.via_link_at,
          last_seen_at: row.last_seen_at,
        },
        deps.clock(),
      )
    : null;
  if (!session) throw unauthorized('Your session has ended; sign in again.');
  if (!session.company_id) throw unauthorized('You are not a member of any workspace.');
  if (row!.company_id === null) throw unauthorized('You are no longer a member of this workspace.');
  if (row!.second_factor_ok === false) {
    // Only the signed-in routes (the session, the profile, setting up two-factor codes) stay open.
    throw new ApiError('two_factor_enrolment_required', 'This workspace requires two-factor sign-in: set it up on your profile first.');
  }
  const principal = toPrincipal(row as PrincipalRow, 'session', null);
  principal.session = session;
  return principal;
}
