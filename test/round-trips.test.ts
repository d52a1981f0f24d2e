import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { createTestContext, onPostgres, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { makeTimeWorkspace, postEntry, setNow, type TimeWorkspace } from './fixtures/catalog.ts';
import { roundTrips, statementsOf } from './fixtures/round-trips.ts';

/**
 * What the hot paths send the database per request, pinned (issue 24): the
 * statements on either database, and on PostgreSQL the round trips too (a
 * transaction's begin travels with its first statement there). Authentication,
 * membership, permissions and what the rate limit needs are one query; users/me
 * needs none of its own. A change that adds a query to these paths fails here.
 */
describe('queries per request', () => {
  let ctx: TestContext;
  let w: TimeWorkspace;
  let privateKey: CryptoKey;
  const ISSUER = 'https://idp.example.com/';
  const AUDIENCE = 'sheaf-api';

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    privateKey = pair.privateKey;
    ctx = await createTestContext({
      env: { JWT_PUBLIC_KEY: await exportSPKI(pair.publicKey), JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE, JWT_ALGORITHMS: 'RS256' },
    });
    setNow(ctx.clock, '2026-06-10T10:00:00.000Z');
    w = await makeTimeWorkspace(ctx.db);
  });
  afterAll(() => ctx.close());

  /** The statements and round trips of one request, which must answer `status`. */
  async function measure(caller: Caller, method: 'GET' | 'POST', url: string, status: number, payload?: object) {
    let answered = 0;
    const trips = await roundTrips(async () => {
      answered = (await request(ctx.app, caller, { method, url, ...(payload ? { payload } : {}) })).statusCode;
    });
    expect(answered).toBe(status);
    return { statements: statementsOf(trips), trips };
  }

  const jwtCaller = async (): Promise<Caller> => {
    const token = await new SignJWT({ sub: w.member.userId, company_id: w.companyId })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(Math.floor(ctx.clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(ctx.clock.now().getTime() / 1000) + 300)
      .sign(privateKey);
    return { ...w.member, headers: { authorization: `Bearer ${token}` } };
  };

  it('GET /api/v2/users/me with an API key: the key query alone', async () => {
    const { statements, trips } = await measure(w.member, 'GET', '/api/v2/users/me', 200);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/from "memberships" as "m" inner join "users" as "u"[\s\S]* inner join "credentials" as "c"/);
    if (onPostgres) expect(trips).toHaveLength(1);
  });

  it('GET /api/v2/users/me with a personal sync key: the key query alone', async () => {
    const { statements } = await measure(w.memberPersonal, 'GET', '/api/v2/users/me', 200);
    expect(statements).toHaveLength(1);
  });

  it('GET /api/v2/users/me with an identity-provider JWT: the membership query alone', async () => {
    const { statements, trips } = await measure(await jwtCaller(), 'GET', '/api/v2/users/me', 200);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/from "memberships" as "m" inner join "users" as "u"/);
    if (onPostgres) expect(trips).toHaveLength(1);
  });

  it('GET /api/v2/users/me with a browser session: one query reads the session and the membership', async () => {
    const session = await sessionFor(ctx.db, w.member, ctx.clock.now());
    const { statements, trips } = await measure(session, 'GET', '/api/v2/users/me', 200);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/from "sessions" as "s" left join "memberships" as "m"/);
    if (onPostgres) expect(trips).toHaveLength(1);
    // Last seen over a minute ago: the same query, and the session's last_seen_at written (once a minute).
    ctx.clock.advance(2 * 60 * 1000);
    const later = await measure(session, 'GET', '/api/v2/users/me', 200);
    expect(later.statements).toHaveLength(2);
    expect(later.statements[1]).toMatch(/^update "sessions" set "last_seen_at"/);
    const again = await measure(session, 'GET', '/api/v2/users/me', 200);
    expect(again.statements).toHaveLength(1);
  });

  it('POST /api/v2/time_entries (a completed entry): the checks and the insert are one statement', async () => {
    const body = { project_id: w.project, task_id: w.task, spent_date: '2026-06-09', hours: 1 };
    const { statements, trips } = await measure(w.member, 'POST', '/api/v2/time_entries', 201, body);
    if (onPostgres) {
      // Authentication, then one message: the tenant settings, the person's time lock and the
      // prepared create statement (docs/decisions.md, "Hot paths: creating time entries").
      expect(statements).toHaveLength(2);
      expect(statements[1]).toMatch(/^(prepare|execute) s_/);
      expect(trips).toHaveLength(2);
    } else {
      // PGlite keeps the tenant transaction: its settings, then the statement.
      expect(statements).toHaveLength(3);
      expect(statements[2]).toMatch(/^with ctx as/);
    }
  });

  it('GET /api/v2/time_entries (a page; a full first page adds its count)', async () => {
    expect((await postEntry(ctx.app, w.member, { project_id: w.project, task_id: w.task, spent_date: '2026-06-08', hours: 2 })).statusCode).toBe(201);
    // Authentication, the tenant's settings with the workspace's time settings (sent with BEGIN), the page.
    const short = await measure(w.owner, 'GET', '/api/v2/time_entries?per_page=50', 200);
    expect(short.statements).toHaveLength(3);
    expect(short.statements[1]).toMatch(/^select set_config\('role'.*json_build_object\('timezone'/s);
    if (onPostgres) expect(short.trips).toHaveLength(4);
    const full = await measure(w.owner, 'GET', '/api/v2/time_entries?per_page=1', 200);
    expect(full.statements).toHaveLength(4);
    expect(full.statements[3]).toMatch(/^select count\(\*\)/);
    if (onPostgres) expect(full.trips).toHaveLength(5);
  });

  it('GET /api/v2/projects', async () => {
    const { statements, trips } = await measure(w.owner, 'GET', '/api/v2/projects', 200);
    expect(statements).toHaveLength(4);
    if (onPostgres) expect(trips).toHaveLength(5);
  });
});
