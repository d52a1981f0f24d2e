import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keySqlFor } from '../src/auth/authenticate.ts';
import { RANDOM_PAGE_COST } from '../src/db/database.ts';
import { createWorkspaceWithOwner, onPostgres, openTestDatabase } from './helpers.ts';

/**
 * Sheaf's PostgreSQL connections price out-of-order page reads as data on SSD or in memory
 * (random_page_cost 1.1, src/db/database.ts), so that the lookups every request makes go by index
 * in workspaces of a few hundred people too (docs/decisions.md, "Hot paths: the caller's
 * membership by index"). PGlite keeps its defaults.
 */
describe.runIf(onPostgres)('the planner on Sheaf’s PostgreSQL connections', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let companyId: string;
  let secretHash: Buffer;

  beforeAll(async () => {
    database = await openTestDatabase();
    const db = database.db;
    companyId = (await createWorkspaceWithOwner(db, 'Two Hundred')).company.id;
    // 250 people, every fifth with a key: a workspace whose memberships fill a few pages.
    await sql`with people as (
        insert into users (id, email, first_name)
        select gen_random_uuid(), 'person' || n || '@planner.example', 'Person ' || n from generate_series(1, 250) n
        returning id)
      insert into memberships (company_id, user_id, role) select ${companyId}, id, 'member' from people`.execute(db);
    await sql`insert into credentials (company_id, id, user_id, kind, prefix, secret_hash, family_id)
      select ${companyId}, gen_random_uuid(), user_id, 'integration', 'p', sha256(user_id::text::bytea), gen_random_uuid()
      from (select user_id, row_number() over (order by user_id) as n from memberships where company_id = ${companyId}) m
      where n % 5 = 0`.execute(db);
    await sql`analyze users, memberships, credentials`.execute(db);
    const { rows } = await sql<{ secret_hash: Buffer }>`select secret_hash from credentials where company_id = ${companyId} limit 1`.execute(db);
    secretHash = rows[0].secret_hash;
  });
  afterAll(() => database.close());

  /** The plan of the authentication query for a key of that workspace, on a connection of the app's pool. */
  const keyPlan = async (setting?: string) =>
    database.db.connection().execute(async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin'));
      try {
        if (setting) await connection.executeQuery(CompiledQuery.raw(`set local random_page_cost = ${setting}`));
        const { rows } = await connection.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${keySqlFor(database.db)}`, [companyId, secretHash]));
        return rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await connection.executeQuery(CompiledQuery.raw('rollback'));
      }
    });

  it('sets random_page_cost on every connection of the pool', async () => {
    const { rows } = await sql<{ random_page_cost: string }>`show random_page_cost`.execute(database.db);
    expect(rows[0].random_page_cost).toBe(String(RANDOM_PAGE_COST));
  });

  it('authenticates a key in a workspace of 251 people by index, where PostgreSQL’s default reads memberships whole', async () => {
    const ours = await keyPlan();
    expect(ours).not.toMatch(/Seq Scan on memberships/);
    expect(ours).toMatch(/Index (Only )?Scan using \w+ on memberships/);
    expect(ours).toMatch(/Index (Only )?Scan using credentials_company_id_secret_hash_key on credentials/);
    // The server's default, in the same workspace: the whole table (why the setting is there).
    expect(await keyPlan('4')).toMatch(/Seq Scan on memberships/);
  });
});
