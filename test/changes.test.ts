import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import { pruneChanges } from '../src/modules/integrations/changes/index.ts';
import { encodeCursor } from '../src/modules/integrations/changes/rules.ts';
import { expenseCategory, makeTimeWorkspace, postEntry, type TimeWorkspace } from './fixtures/catalog.ts';
import { addMember, createTestContext, onPostgres, request, type Caller, type TestContext } from './helpers.ts';

/**
 * The change feed (issue 26 item 5): creates, updates and deletes in order with
 * tombstones; the cursor and its paging; who sees which change; bad input; the
 * retention's 410; and the order under concurrent writers (transactions
 * committing out of order, on PostgreSQL; parallel requests on both databases).
 */

let ctx: TestContext;
let w: TimeWorkspace;
let foreign: TimeWorkspace;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await makeTimeWorkspace(ctx.db);
  foreign = await makeTimeWorkspace(ctx.db, { name: 'Elsewhere' });
});
afterAll(() => ctx.close());

interface Change {
  type: string;
  id: string;
  action: string;
  changed_at: string;
}

const feed = (caller: Caller, query = '') => request(ctx.app, caller, { method: 'GET', url: `/api/v2/changes${query}` });

/**
 * Waits (up to 10 s) until the feed's horizon has passed every change of the caller's workspace:
 * on PostgreSQL another test file's open transaction anywhere on the server holds the horizon
 * back for a moment, and a read meanwhile would rightly return less than the test wrote.
 */
async function settled(companyId: string) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from changes
      where company_id = ${companyId} and xid >= pg_snapshot_xmin(pg_current_snapshot())`.execute(ctx.db);
    if (rows[0].n === 0) return;
  }
}

/** Every change after `cursor` (all pages), and the cursor to go on with; `settle: false` reads at once. */
async function readAll(caller: Caller, cursor?: string, extra = '', perPage = 1000, settle = true): Promise<{ changes: Change[]; cursor: string; pages: number }> {
  if (settle) await settled(caller.companyId);
  const changes: Change[] = [];
  let pages = 0;
  for (;;) {
    const params = new URLSearchParams({ per_page: String(perPage) });
    if (cursor) params.set('cursor', cursor);
    const res = await feed(caller, `?${params}${extra}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    changes.push(...body.changes);
    cursor = body.next_cursor;
    pages += 1;
    if (!body.has_more) return { changes, cursor: cursor!, pages };
  }
}

/** A cursor at the end of the feed as the owner sees it now. */
const endOf = async (caller: Caller) => (await readAll(caller)).cursor;

const entry = async (caller: Caller, userId: string, project = w.project, task = w.task) => {
  const res = await postEntry(ctx.app, caller, { user_id: userId, project_id: project, task_id: task, spent_date: '2026-03-02', hours: 1 });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};

describe('the change feed', () => {
  it('reads creates, updates and deletes in order, a deletion as a tombstone, and advertises itself', async () => {
    const start = await endOf(w.owner);
    const id = await entry(w.member, w.member.userId);
    expect((await request(ctx.app, w.member, { method: 'PATCH', url: `/api/v2/time_entries/${id}`, payload: { notes: 'changed' } })).statusCode).toBe(200);
    expect((await request(ctx.app, w.member, { method: 'DELETE', url: `/api/v2/time_entries/${id}` })).statusCode).toBe(204);
    await settled(w.companyId);
    const res = await feed(w.owner, `?cursor=${start}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-service-features']).toContain('changes-feed-v1');
    const mine = (res.json().changes as Change[]).filter((c) => c.id === id);
    expect(mine.map((c) => [c.type, c.action])).toEqual([
      ['time_entries', 'created'],
      ['time_entries', 'updated'],
      ['time_entries', 'deleted'],
    ]);
    // Only names and times: never the record's content.
    expect(Object.keys(mine[0]).sort()).toEqual(['action', 'changed_at', 'id', 'type']);
    expect(res.json().has_more).toBe(false);
    // Caught up: the next read from next_cursor is empty.
    const again = await feed(w.owner, `?cursor=${res.json().next_cursor}`);
    expect(again.json().changes).toEqual([]);
  });

  it("records a created entry's and expense's person, project and author alike with and without webhooks, events and data only with", async () => {
    // The feed's columns come from the row whether or not a webhook endpoint listens; the event
    // kinds and the snapshot only when one does (record_change, migration 0100).
    const rowOf = async (id: string) =>
      (
        await sql<Record<string, unknown>>`select company_id, record_type, record_id, action, user_id, project_id, created_by, events, data
          from changes where record_id = ${id}`.execute(ctx.db)
      ).rows;
    const hooked = await makeTimeWorkspace(ctx.db, { name: 'Hooked' });
    await ctx.db
      .insertInto('webhook_endpoints')
      .values({ company_id: hooked.companyId, id: newId(), url: 'https://hooks.example.com/changes', events: ['time_entry.created'], secret: 'whsec_Y2hhbmdlcw==' })
      .execute();
    for (const [ws, events] of [
      [w, null],
      [hooked, { time: ['time_entry.created'], expense: ['expense.created'] }],
    ] as const) {
      const entryId = await entry(ws.owner, ws.member.userId, ws.project, ws.task);
      const category = await expenseCategory(ctx.db, ws.companyId);
      const expenseRes = await request(ctx.app, ws.owner, {
        method: 'POST',
        url: '/api/v2/expenses',
        payload: { user_id: ws.member.userId, project_id: ws.project, expense_category_id: category, spent_date: '2026-03-02', total_cost: 12.5 },
      });
      expect(expenseRes.statusCode, expenseRes.body).toBe(201);
      const expenseId = expenseRes.json().id as string;
      const common = { company_id: ws.companyId, action: 'created', user_id: ws.member.userId, project_id: ws.project, created_by: ws.owner.userId };
      expect(await rowOf(entryId)).toEqual([
        {
          ...common,
          record_type: 'time_entries',
          record_id: entryId,
          events: events?.time ?? null,
          data: events ? expect.objectContaining({ id: entryId, user_id: ws.member.userId, duration_seconds: 3600 }) : null,
        },
      ]);
      expect(await rowOf(expenseId)).toEqual([
        {
          ...common,
          record_type: 'expenses',
          record_id: expenseId,
          events: events?.expense ?? null,
          data: events ? expect.objectContaining({ id: expenseId, total_cost: expect.anything() }) : null,
        },
      ]);
    }
  });

  it('pages with per_page and next_cursor, without repeating or skipping', async () => {
    const start = await endOf(w.owner);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await entry(w.owner, w.owner.userId));
    const { changes, pages } = await readAll(w.owner, start, '', 3);
    expect(changes.map((c) => c.id)).toEqual(ids);
    expect(pages).toBe(3);
  });

  it('filters by types; names clients, tasks and users', async () => {
    const start = await endOf(w.owner);
    const client = await request(ctx.app, w.owner, { method: 'POST', url: '/api/v2/clients', payload: { name: `Feed client ${newId()}` } });
    expect(client.statusCode, client.body).toBe(201);
    const task = await request(ctx.app, w.owner, { method: 'POST', url: '/api/v2/tasks', payload: { name: `Feed task ${newId()}` } });
    expect(task.statusCode, task.body).toBe(201);
    await entry(w.owner, w.owner.userId);
    await ctx.db.updateTable('users').set({ first_name: 'Renamed' }).where('id', '=', w.other.userId).execute();
    const all = (await readAll(w.owner, start)).changes;
    expect(all).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'clients', id: client.json().id, action: 'created' }),
        expect.objectContaining({ type: 'tasks', id: task.json().id, action: 'created' }),
        expect.objectContaining({ type: 'users', id: w.other.userId, action: 'updated' }),
      ]),
    );
    const onlyCatalog = (await readAll(w.owner, start, '&types=clients,tasks')).changes;
    expect(new Set(onlyCatalog.map((c) => c.type))).toEqual(new Set(['clients', 'tasks']));
  });

  it("shows each person only the changes they may see, and never another workspace's", async () => {
    const start = {
      member: await endOf(w.member),
      manager: await endOf(w.manager),
      other: await endOf(w.other),
      foreign: await endOf(foreign.owner),
    };
    const memberEntry = await entry(w.member, w.member.userId);
    const otherEntry = await entry(w.other, w.other.userId);
    const ids = async (caller: Caller, cursor: string) => (await readAll(caller, cursor, '&types=time_entries')).changes.map((c) => c.id);
    expect(await ids(w.member, start.member)).toEqual([memberEntry]);
    // The manager: the teammate's (member) entry; Otto is no teammate and Main project is not managed.
    expect(await ids(w.manager, start.manager)).toEqual([memberEntry]);
    expect(await ids(w.other, start.other)).toEqual([otherEntry]);
    expect(await ids(foreign.owner, start.foreign)).toEqual([]);
    // A deletion reaches those who saw the record, no one else.
    const memberCursor = await endOf(w.member);
    expect((await request(ctx.app, w.other, { method: 'DELETE', url: `/api/v2/time_entries/${otherEntry}` })).statusCode).toBe(204);
    expect(await ids(w.member, memberCursor)).toEqual([]);
  });

  it('tells the old viewers of a moved entry, as well as the new ones', async () => {
    const start = await endOf(w.manager);
    const id = await entry(w.other, w.other.userId);
    const move = (project: string, task: string) =>
      request(ctx.app, w.other, { method: 'PATCH', url: `/api/v2/time_entries/${id}`, payload: { project_id: project, task_id: task } });
    expect((await move(w.managed, w.managedTask)).statusCode).toBe(200);
    expect((await move(w.project, w.task)).statusCode).toBe(200);
    // Otto is no teammate of the manager: the manager saw it only while it was on the managed project.
    const seen = (await readAll(w.manager, start, '&types=time_entries')).changes.filter((c) => c.id === id).map((c) => c.action);
    expect(seen).toEqual(['updated', 'updated']);
  });

  it('shows projects, clients and invoices by their own rules, people as the directory shows them', async () => {
    const member = await endOf(w.member);
    const owner = await endOf(w.owner);
    const project = await request(ctx.app, w.owner, { method: 'POST', url: '/api/v2/projects', payload: { client_id: w.clientId, name: `Unassigned ${newId()}` } });
    expect(project.statusCode, project.body).toBe(201);
    const invoice = await request(ctx.app, w.owner, { method: 'POST', url: '/api/v2/invoices', payload: { client_id: w.clientId, line_items: [{ description: 'Work', quantity: 1, unit_price: 10 }] } });
    expect(invoice.statusCode, invoice.body).toBe(201);
    // A client membership (no key: clients hold none).
    const client = { userId: newId() };
    await ctx.db.insertInto('users').values({ id: client.userId, email: `cliff.${client.userId}@example.com`, first_name: 'Cliff' }).execute();
    await ctx.db.insertInto('memberships').values({ company_id: w.companyId, user_id: client.userId, role: 'client' }).execute();
    const agent = await addMember(ctx.db, w.companyId, { role: 'member', firstName: 'Bot', userType: 'agent' });
    for (const id of [client.userId, agent.userId, w.contractor.userId]) await ctx.db.updateTable('users').set({ last_name: 'Changed' }).where('id', '=', id).execute();
    const ofOwner = (await readAll(w.owner, owner)).changes;
    const ofMember = (await readAll(w.member, member)).changes;
    const has = (list: Change[], type: string, id: string) => list.some((c) => c.type === type && c.id === id);
    expect(has(ofOwner, 'projects', project.json().id)).toBe(true);
    expect(has(ofMember, 'projects', project.json().id)).toBe(false);
    expect(has(ofOwner, 'invoices', invoice.json().id)).toBe(true);
    expect(has(ofMember, 'invoices', invoice.json().id)).toBe(false);
    for (const id of [client.userId, agent.userId, w.contractor.userId]) expect(has(ofOwner, 'users', id), id).toBe(true);
    expect(has(ofMember, 'users', w.contractor.userId)).toBe(true);
    expect(has(ofMember, 'users', client.userId)).toBe(false);
    // A project's deletion is a tombstone every reader gets (it names only an id).
    const tomb = await endOf(w.member);
    const archived = await request(ctx.app, w.owner, { method: 'PATCH', url: `/api/v2/projects/${project.json().id}`, payload: { is_active: false } });
    expect(archived.statusCode, archived.body).toBe(200);
    const del = await request(ctx.app, w.owner, { method: 'DELETE', url: `/api/v2/projects/${project.json().id}`, headers: { 'if-match': archived.headers.etag as string } });
    expect(del.statusCode, del.body).toBe(204);
    expect((await readAll(w.member, tomb, '&types=projects')).changes).toEqual([expect.objectContaining({ id: project.json().id, action: 'deleted' })]);
  });

  it('refuses personal sync keys, bad cursors, unknown types and fields with a 4xx naming them', async () => {
    expect((await feed(w.memberPersonal)).statusCode).toBe(403);
    for (const [query, field] of [
      ['?cursor=nope!', 'cursor'],
      [`?cursor=${Buffer.from('v1.1').toString('base64url')}`, 'cursor'],
      [`?cursor=${Buffer.from('v2.1.2').toString('base64url')}`, 'cursor'],
      [`?cursor=${Buffer.from('v1.-1.2').toString('base64url')}`, 'cursor'],
      ['?types=time_entries,planets', 'types'],
      ['?types=', 'types'],
      [`?cursor=${Buffer.from('v1.1.9999999999999999999').toString('base64url')}`, 'cursor'],
      [`?cursor=${Buffer.from('v1.99999999999999999999.1').toString('base64url')}`, 'cursor'],
    ] as const) {
      const res = await feed(w.owner, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ error: 'invalid_request', field });
    }
    expect((await feed(w.owner, '?per_page=0')).statusCode).toBe(400);
    expect((await feed(w.owner, '?per_page=2001')).statusCode).toBe(400);
    expect((await feed(w.owner, '?since=yesterday')).statusCode).toBe(400);
  });

  it('answers 410 for a cursor before a change the retention deleted, and starts a new reader after them', async () => {
    const foreignStart = encodeCursor({ xid: '0', seq: '0' });
    const ownStart = encodeCursor({ xid: '0', seq: '0' });
    // Old changes not yet deleted read as any other, page by page.
    await ctx.db.updateTable('changes').set({ changed_at: new Date(Date.now() - 40 * 86_400_000) }).where('company_id', '=', w.companyId).execute();
    const slow = await readAll(w.owner, ownStart, '', 1);
    expect(slow.pages).toBeGreaterThan(3);

    // The retention deletes the other workspace's old changes (and only those: ours are 40 days old too, but read first).
    await ctx.db.updateTable('changes').set({ changed_at: new Date() }).where('company_id', '=', w.companyId).execute();
    await ctx.db.updateTable('changes').set({ changed_at: new Date(Date.now() - 40 * 86_400_000) }).where('company_id', '=', foreign.companyId).execute();
    const before = Number((await ctx.db.selectFrom('changes').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const pruned = await pruneChanges(ctx.db, new Date(Date.now() - 30 * 86_400_000), 5);
    expect(pruned).toBeGreaterThan(5);
    const after = Number((await ctx.db.selectFrom('changes').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(before - pruned);
    expect(await ctx.db.selectFrom('changes').select('seq').where('company_id', '=', foreign.companyId).execute()).toEqual([]);

    const res = await feed(foreign.owner, `?cursor=${foreignStart}`);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ error: 'cursor_expired', field: 'cursor' });
    // Without a cursor: after the deleted changes, then new ones as they come.
    const fresh = await feed(foreign.owner);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().changes).toEqual([]);
    const id = await entry(foreign.owner, foreign.owner.userId, foreign.project, foreign.task);
    expect((await readAll(foreign.owner, fresh.json().next_cursor)).changes.map((c) => c.id)).toEqual([id]);
    // Our workspace lost nothing: its start still reads.
    expect((await feed(w.owner, `?cursor=${ownStart}`)).statusCode).toBe(200);
  });

  it('under parallel writers, a reader polling meanwhile gets every change exactly once', async () => {
    const start = await endOf(w.owner);
    let cursor = start;
    const read: Change[] = [];
    let writing = true;
    const poller = (async () => {
      while (writing) {
        const page = await readAll(w.owner, cursor, '&types=time_entries', 1000, false);
        read.push(...page.changes);
        cursor = page.cursor;
        // A poller waits between reads (and lets the writers' timers run).
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const written = await Promise.all(Array.from({ length: 24 }, (_, i) => entry(i % 2 ? w.member : w.other, i % 2 ? w.member.userId : w.other.userId)));
    writing = false;
    await poller;
    read.push(...(await readAll(w.owner, cursor, '&types=time_entries')).changes);
    const created = read.filter((c) => c.action === 'created').map((c) => c.id);
    expect(new Set(created)).toEqual(new Set(written));
    expect(created).toHaveLength(written.length);
  });

  it.runIf(onPostgres)('never skips a change whose transaction commits after a later one', async () => {
    let cursor = await endOf(w.owner);
    const seen: string[] = [];
    const poll = async (settle: boolean) => {
      const page = await readAll(w.owner, cursor, '&types=tasks', 1000, settle);
      seen.push(...page.changes.map((c) => c.id));
      cursor = page.cursor;
    };
    const early = newId();
    const late = newId();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const insertedEarly = new Promise<void>((r) => (inserted = r));
    // The early transaction takes its id first, writes, and waits; a later one writes and commits.
    const slow = ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('tasks').values({ company_id: w.companyId, id: early, name: `Early ${early}` }).execute();
      inserted();
      await gate;
    });
    await insertedEarly;
    await ctx.db.insertInto('tasks').values({ company_id: w.companyId, id: late, name: `Late ${late}` }).execute();
    await poll(false);
    // The later commit waits behind the open transaction: not read yet, and the cursor has not passed it.
    expect(seen).toEqual([]);
    release();
    await slow;
    await poll(true);
    expect(seen).toEqual([early, late]);
    await poll(true);
    expect(seen).toEqual([early, late]);
  });
});
