import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { PAUSE_PAGES } from '../src/modules/workspace/backup/read-ahead.ts';
import { backupReadAhead } from '../src/modules/workspace/backup/service.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, onPostgres, request, type Caller, type TestContext } from './helpers.ts';

/**
 * The backup's read-ahead on PostgreSQL: a crawl's next page is read while the
 * client receives this one, and served only if it is what a read at the time of
 * the request gives. On the embedded database there is none.
 */

let ctx: TestContext;
let owner: Caller;
let member: Caller;
let other: Caller;
/** The ids of the workspace's audit log records, in the backup's order. */
let logIds: string[];

const get = (caller: Caller, url: string) => request(ctx.app, caller, { method: 'GET', url });

async function page(caller: Caller, url: string) {
  const res = await get(caller, url);
  expect(res.statusCode, url).toBe(200);
  return { body: res.json() as { records: Array<{ id: string; action: string }>; links: { next: string | null } }, text: res.body };
}

/**
 * The read-ahead's counters. The snapshot is the whole database's, so a commit by another test
 * file running at the same time makes a read ahead stale as our own writes do: the tests count a
 * read ahead as taken when it was either served or found stale, and test the serving itself in
 * test/unit/backup-read-ahead.test.ts.
 */
const counts = () => {
  const ahead = backupReadAhead(ctx.db)!;
  return { hits: ahead.hits, stale: ahead.stale, taken: ahead.hits + ahead.stale };
};

beforeAll(async () => {
  ctx = await createTestContext();
  const alpha = await createWorkspaceWithOwner(ctx.db, 'Read-ahead Alpha');
  owner = alpha.owner;
  member = await addMember(ctx.db, alpha.company.id, { role: 'member' });
  other = (await createWorkspaceWithOwner(ctx.db, 'Read-ahead Beta')).owner;
  // Audit log records (no foreign keys, ordered by id), besides those the set-up wrote.
  for (const [caller, n] of [[owner, 14], [other, 5]] as const) {
    for (let i = 0; i < n; i++) {
      await ctx.db.insertInto('audit_logs').values({ company_id: caller.companyId, id: newId(), action: `entry ${i}`, subject_type: 'test' }).execute();
    }
  }
  const rows = await ctx.db.selectFrom('audit_logs').select('id').where('company_id', '=', owner.companyId).orderBy('id').execute();
  logIds = rows.map((r) => r.id);
  // Each key's first use notes it (a write, which makes reads ahead out of date): done before the tests.
  for (const caller of [owner, member, other]) await get(caller, '/api/v2/users/me');
  await new Promise((resolve) => setTimeout(resolve, 100));
});
afterAll(() => ctx.close());

describe.runIf(onPostgres)('the backup read-ahead (PostgreSQL)', () => {
  it("serves a crawl's next pages from reads made ahead, byte for byte what a fresh read gives", async () => {
    const before = counts();
    let url: string | null = '/api/v2/backup/audit_logs?per_page=4';
    let pages = 0;
    const seen: string[] = [];
    while (url) {
      const served = await page(owner, url);
      // The same URL again: the read ahead was taken, so this one reads afresh.
      const fresh = await page(owner, url);
      expect(served.text, url).toBe(fresh.text);
      seen.push(...served.body.records.map((r) => r.id));
      url = served.body.links.next;
      pages++;
    }
    expect(seen).toEqual(logIds);
    // Every page after the first was read ahead (the fresh reads' own reads ahead were replaced).
    expect(counts().taken).toBe(before.taken + pages - 1);
  });

  it('reads a page again when anything has committed since it was read ahead, and pauses reading ahead', async () => {
    const first = await page(owner, '/api/v2/backup/audit_logs?per_page=1');
    await backupReadAhead(ctx.db)!.settled(); // the next page has been read ahead
    await ctx.db.updateTable('audit_logs').set({ action: 'changed after the read ahead' }).where('company_id', '=', owner.companyId).where('id', '=', logIds[1]).execute();
    const before = counts();
    const second = await page(owner, first.body.links.next!);
    expect(second.body.records.map((r) => r.action)).toEqual(['changed after the read ahead']);
    expect(counts()).toEqual({ ...before, stale: before.stale + 1, taken: before.taken + 1 });
    // The crawl goes on without reading ahead for PAUSE_PAGES pages, then reads ahead again.
    let url = second.body.links.next!;
    for (let i = 0; i < PAUSE_PAGES; i++) url = (await page(owner, url)).body.links.next!;
    expect(counts().taken).toBe(before.taken + 1);
    await page(owner, url);
    expect(counts().taken).toBe(before.taken + 2);
  });

  it("checks who asks before serving a read ahead, and never serves one to another workspace's cursor", async () => {
    const first = await page(owner, '/api/v2/backup/audit_logs?per_page=3');
    const next = first.body.links.next!;
    const before = counts();
    // A member of the workspace: 403, whatever was read ahead.
    expect((await get(member, next)).statusCode).toBe(403);
    // Another workspace's owner following this workspace's link gets their own records after that cursor.
    const foreign = await page(other, next);
    for (const r of foreign.body.records) expect(logIds).not.toContain(r.id);
    expect(counts()).toEqual(before);
    // The owner still gets the read ahead.
    const second = await page(owner, next);
    expect(second.body.records.map((r) => r.id)).toEqual(logIds.slice(3, 6));
    expect(counts().taken).toBe(before.taken + 1);
  });
});

describe.runIf(!onPostgres)('the backup read-ahead (embedded database)', () => {
  it('is off: the single connection would queue it in front of other requests', () => {
    expect(backupReadAhead(ctx.db)).toBeUndefined();
  });
});
