import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.ts';
import type { WorkspaceSettingsInput } from '../src/modules/workspace/settings/rules.ts';
import { addMember, createTestContext, type TestContext } from './helpers.ts';
import {
  apiOf,
  assignTask,
  assignUser,
  billableProject,
  billing,
  countBilled,
  countInvoices,
  insertCategory,
  insertClient,
  insertEntry,
  insertExpense,
  insertItemCategories,
  insertProject,
  insertTask,
  makeInvoiceWorkspace,
  setRate,
} from './fixtures/invoices.ts';

/**
 * Creating invoices from tracked work (`line_items_import`): every summary type
 * with hand-computed figures, rates in force on the work date, the workspace
 * rounding rule, the approval policy, what is excluded, the billed flag and the
 * links, all-or-nothing, and two imports racing for the same work.
 */

let ctx: TestContext;
const api = apiOf(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

interface Line {
  id: string;
  kind: string;
  description: string;
  quantity: number;
  unit_price: number;
  amount: number;
  project_id: string;
  sort_order: number;
}

const brief = (lines: Line[]) => lines.map((l) => [l.description, l.quantity, l.unit_price, l.amount]);

/** A workspace with a client, a project "Website" (code WEB) and tasks Design and Build assigned to it. */
async function scenario(settings: Partial<WorkspaceSettingsInput> = {}, billBy: 'project' | 'tasks' | 'people' = 'project') {
  const ws = await makeInvoiceWorkspace(ctx.db, settings);
  const c = ws.companyId;
  const clientId = await insertClient(ctx.db, c, { name: 'Globex' });
  const projectId = await insertProject(ctx.db, c, clientId, { name: 'Website', code: 'WEB', billBy });
  const design = await insertTask(ctx.db, c, 'Design');
  const build = await insertTask(ctx.db, c, 'Build');
  await assignTask(ctx.db, c, projectId, design);
  await assignTask(ctx.db, c, projectId, build);
  const entry = (o: Partial<Parameters<typeof insertEntry>[2]> & { date: string }) =>
    insertEntry(ctx.db, c, { userId: ws.member.userId, projectId, taskId: design, ...o });
  const post = (body: Record<string, unknown>) => api(ws.owner, 'POST', '/api/v2/invoices', { client_id: clientId, ...body });
  const importTime = async (summary: string, extra: Record<string, unknown> = {}) => {
    const res = await post({ line_items_import: { time: { summary_type: summary }, ...extra } });
    if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
    return res.json();
  };
  return { ws, c, clientId, projectId, design, build, entry, post, importTime };
}

describe('time: summary types (bill by project, rate 100)', () => {
  async function setup() {
    const s = await scenario();
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '100' });
    const e1 = await s.entry({ date: '2026-01-05', seconds: 5400 });
    const e2 = await s.entry({ date: '2026-01-06', seconds: 1800, taskId: s.build });
    const e3 = await s.entry({ date: '2026-01-07', seconds: 3600, userId: s.ws.contractor.userId, notes: 'Wireframes' });
    return { ...s, e1, e2, e3 };
  }

  it('project: one line per project', async () => {
    const s = await setup();
    const inv = await s.importTime('project');
    expect(brief(inv.line_items)).toEqual([['[WEB] Website', 3, 100, 300]]);
    expect(inv.line_items[0]).toMatchObject({ kind: 'SERVICE', project_id: s.projectId, sort_order: 0, effect: 'charge', taxed: true, taxed2: true });
    expect(inv).toMatchObject({ subtotal: 300, amount: 300, state: 'draft', period_start: '2026-01-05', period_end: '2026-01-07' });
    const links = await billing(ctx.db, 'time_entries', [s.e1, s.e2, s.e3]);
    for (const id of [s.e1, s.e2, s.e3]) {
      expect(links.get(id)).toMatchObject({ is_billed: true, invoice_id: inv.id, invoice_line_id: inv.line_items[0].id });
    }
  });

  it('task: one line per task of each project', async () => {
    const s = await setup();
    const inv = await s.importTime('task');
    expect(brief(inv.line_items)).toEqual([
      ['[WEB] Website: Build', 0.5, 100, 50],
      ['[WEB] Website: Design', 2.5, 100, 250],
    ]);
    const links = await billing(ctx.db, 'time_entries', [s.e1, s.e2, s.e3]);
    expect(links.get(s.e2)!.invoice_line_id).toBe(inv.line_items[0].id);
    expect(links.get(s.e1)!.invoice_line_id).toBe(inv.line_items[1].id);
    expect(links.get(s.e3)!.invoice_line_id).toBe(inv.line_items[1].id);
  });

  it('people: one line per person of each project', async () => {
    const s = await setup();
    const inv = await s.importTime('people');
    expect(brief(inv.line_items)).toEqual([
      ['[WEB] Website: Cole Contractor', 1, 100, 100],
      ['[WEB] Website: Mia Member', 2, 100, 200],
    ]);
  });

  it('detailed: one line per entry, by date, with the notes', async () => {
    const s = await setup();
    const inv = await s.importTime('detailed');
    expect(brief(inv.line_items)).toEqual([
      ['[WEB] Website: Design - Mia Member - 2026-01-05', 1.5, 100, 150],
      ['[WEB] Website: Build - Mia Member - 2026-01-06', 0.5, 100, 50],
      ['[WEB] Website: Design - Cole Contractor - 2026-01-07\nWireframes', 1, 100, 100],
    ]);
    expect(inv.line_items.map((l: Line) => l.sort_order)).toEqual([0, 1, 2]);
    const links = await billing(ctx.db, 'time_entries', [s.e1, s.e2, s.e3]);
    expect([s.e1, s.e2, s.e3].map((id) => links.get(id)!.invoice_line_id)).toEqual(inv.line_items.map((l: Line) => l.id));
  });
});

describe('time: rates', () => {
  it('bill by tasks: each task at its own rate; a project summary splits by rate', async () => {
    const s = await scenario({}, 'tasks');
    await setRate(ctx.db, s.c, { projectId: s.projectId, taskId: s.design, from: '2025-01-01', rate: '120' });
    await setRate(ctx.db, s.c, { projectId: s.projectId, taskId: s.build, from: '2025-01-01', rate: '80' });
    await s.entry({ date: '2026-01-05', seconds: 5400 });
    await s.entry({ date: '2026-01-06', seconds: 1800, taskId: s.build });
    await s.entry({ date: '2026-01-07', seconds: 3600 });
    const inv = await s.importTime('project');
    expect(brief(inv.line_items)).toEqual([
      ['[WEB] Website', 0.5, 80, 40],
      ['[WEB] Website', 2.5, 120, 300],
    ]);
    expect(inv.amount).toBe(340);
  });

  it("bill by people: the person's project rate, else their default rate", async () => {
    const s = await scenario({}, 'people');
    await setRate(ctx.db, s.c, { projectId: s.projectId, userId: s.ws.member.userId, from: '2025-01-01', rate: '90' });
    await setRate(ctx.db, s.c, { userId: s.ws.contractor.userId, from: '2025-01-01', rate: '70' });
    await s.entry({ date: '2026-01-05', seconds: 5400 });
    await s.entry({ date: '2026-01-06', seconds: 1800, taskId: s.build });
    await s.entry({ date: '2026-01-07', seconds: 3600, userId: s.ws.contractor.userId });
    const inv = await s.importTime('task');
    expect(brief(inv.line_items)).toEqual([
      ['[WEB] Website: Build', 0.5, 90, 45],
      ['[WEB] Website: Design', 1, 70, 70],
      ['[WEB] Website: Design', 1.5, 90, 135],
    ]);
    expect(inv.amount).toBe(250);
  });

  it('prices each entry at the rate in force on its date, never a later rate', async () => {
    const s = await scenario();
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2026-01-01', rate: '100' });
    await s.entry({ date: '2026-01-10', seconds: 3600 });
    await s.entry({ date: '2026-02-10', seconds: 3600 });
    // Rate changes recorded after the work was done: from Jan 20 and from Feb 1, and one from today.
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2026-01-20', rate: '200' });
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2026-02-01', rate: '150' });
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: ctx.clock.now().toISOString().slice(0, 10), rate: '999' });
    const inv = await s.importTime('detailed');
    expect(inv.line_items.map((l: Line) => l.unit_price)).toEqual([100, 150]);
    expect(inv.amount).toBe(250);
  });

  it('prices work without any rate at 0 (and still bills it)', async () => {
    const s = await scenario();
    const e = await s.entry({ date: '2026-01-10', seconds: 7200 });
    const inv = await s.importTime('project');
    expect(brief(inv.line_items)).toEqual([['[WEB] Website', 2, 0, 0]]);
    expect((await billing(ctx.db, 'time_entries', [e])).get(e)!.is_billed).toBe(true);
  });
});

describe('time: workspace rounding (15 minutes), per entry then summed', () => {
  // 10, 10, 22 and 8 minutes at 100 an hour.
  const minutes = [10, 10, 22, 8];
  const cases: Array<[WorkspaceSettingsInput['rounding'], number, number]> = [
    ['none', 0.833334, 83.33], // 0.166667 + 0.166667 + 0.366667 + 0.133333 = 0.833334, the exact sum
    ['up', 1.25, 125], // 0.25 + 0.25 + 0.5 + 0.25
    ['nearest', 1, 100], // 0.25 + 0.25 + 0.25 + 0.25
    ['down', 0.25, 25], // 0 + 0 + 0.25 + 0
  ];
  for (const [rounding, quantity, amount] of cases) {
    it(`${rounding}: quantity ${quantity}, amount ${amount}`, async () => {
      const s = await scenario({ rounding, rounding_minutes: 15 });
      await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '100' });
      for (const [i, m] of minutes.entries()) await s.entry({ date: `2026-01-0${i + 1}`, seconds: m * 60 });
      const inv = await s.importTime('project');
      expect(brief(inv.line_items)).toEqual([['[WEB] Website', quantity, 100, amount]]);
      const detailed = await s.post({ line_items_import: { time: { summary_type: 'detailed' } } });
      expect(detailed.statusCode).toBe(400); // everything is billed already
    });
  }

  it('rounds hours as entered (1.1 hours rounded up to 6 minutes stays 1.1)', async () => {
    const s = await scenario({ rounding: 'up', rounding_minutes: 6 });
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '50' });
    await s.entry({ date: '2026-01-05', seconds: 3960, hours: '1.1' });
    const inv = await s.importTime('project');
    expect(brief(inv.line_items)).toEqual([['[WEB] Website', 1.1, 50, 55]]);
  });
});

describe('every time summary type, by hand: rounding, a rate change, discount and two taxes', () => {
  // Rounding up to 15 minutes; bill by tasks: Design 100, then 120 from Jan 10 (recorded after
  // the work); Build 80. Entries: Mia Design Jan 5 50 min → 1 h × 100 = 100; Mia Build Jan 6
  // 20 min → 0.5 h × 80 = 40; Cole Design Jan 12 70 min → 1.25 h × 120 = 150; Mia Design
  // Jan 15 10 min → 0.25 h × 120 = 30. Subtotal 320 whatever the grouping; discount 10% = 32;
  // tax 20% of 320 × 0.9 = 57.60; tax2 5% of 288 = 14.40; amount 320 − 32 + 57.6 + 14.4 = 360.
  const expected: Record<string, Array<[string, number, number, number]>> = {
    project: [
      ['[WEB] Website', 0.5, 80, 40],
      ['[WEB] Website', 1, 100, 100],
      ['[WEB] Website', 1.5, 120, 180],
    ],
    task: [
      ['[WEB] Website: Build', 0.5, 80, 40],
      ['[WEB] Website: Design', 1, 100, 100],
      ['[WEB] Website: Design', 1.5, 120, 180],
    ],
    people: [
      ['[WEB] Website: Cole Contractor', 1.25, 120, 150],
      ['[WEB] Website: Mia Member', 0.5, 80, 40],
      ['[WEB] Website: Mia Member', 1, 100, 100],
      ['[WEB] Website: Mia Member', 0.25, 120, 30],
    ],
    detailed: [
      ['[WEB] Website: Design - Mia Member - 2026-01-05', 1, 100, 100],
      ['[WEB] Website: Build - Mia Member - 2026-01-06', 0.5, 80, 40],
      ['[WEB] Website: Design - Cole Contractor - 2026-01-12', 1.25, 120, 150],
      ['[WEB] Website: Design - Mia Member - 2026-01-15', 0.25, 120, 30],
    ],
  };
  for (const [summary, lines] of Object.entries(expected)) {
    it(summary, async () => {
      const s = await scenario({ rounding: 'up', rounding_minutes: 15 }, 'tasks');
      await setRate(ctx.db, s.c, { projectId: s.projectId, taskId: s.design, from: '2025-01-01', rate: '100' });
      await setRate(ctx.db, s.c, { projectId: s.projectId, taskId: s.build, from: '2025-01-01', rate: '80' });
      await s.entry({ date: '2026-01-05', seconds: 50 * 60 });
      await s.entry({ date: '2026-01-06', seconds: 20 * 60, taskId: s.build });
      await s.entry({ date: '2026-01-12', seconds: 70 * 60, userId: s.ws.contractor.userId });
      await s.entry({ date: '2026-01-15', seconds: 10 * 60 });
      await setRate(ctx.db, s.c, { projectId: s.projectId, taskId: s.design, from: '2026-01-10', rate: '120' });
      const res = await s.post({ tax: 20, tax2: 5, discount: 10, line_items_import: { time: { summary_type: summary } } });
      expect(res.statusCode, res.body).toBe(201);
      const inv = res.json();
      expect(brief(inv.line_items)).toEqual(lines);
      expect(inv).toMatchObject({ subtotal: 320, discount_amount: 32, tax_amount: 57.6, tax2_amount: 14.4, amount: 360, due_amount: 360 });
      expect(await countBilled(ctx.db, s.c)).toEqual({ time: 4, expenses: 0 });
    });
  }
});

describe('approval policy', () => {
  async function setup(settings: Partial<WorkspaceSettingsInput>) {
    const s = await scenario(settings);
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '100' });
    const cat = await insertCategory(ctx.db, s.c, 'Travel');
    const ids: Record<string, { time: string; expense: string }> = {};
    for (const [i, status] of (['unsubmitted', 'submitted', 'approved', 'rejected'] as const).entries()) {
      ids[status] = {
        time: await s.entry({ date: `2026-01-0${i + 1}`, seconds: 3600, status }),
        expense: await insertExpense(ctx.db, s.c, { userId: s.ws.member.userId, projectId: s.projectId, categoryId: cat, date: `2026-01-0${i + 1}`, cost: '10', status }),
      };
    }
    const res = await s.post({ line_items_import: { time: { summary_type: 'project' }, expenses: { summary_type: 'project' } } });
    expect(res.statusCode).toBe(201);
    const billedTime = await billing(ctx.db, 'time_entries', Object.values(ids).map((x) => x.time));
    const billedExp = await billing(ctx.db, 'expenses', Object.values(ids).map((x) => x.expense));
    const billed = Object.fromEntries(
      Object.entries(ids).map(([status, x]) => [status, [billedTime.get(x.time)!.is_billed, billedExp.get(x.expense)!.is_billed]]),
    );
    return { inv: res.json(), billed };
  }

  it('invoices only approved work when invoicing before approval is off', async () => {
    const { inv, billed } = await setup({ invoice_before_approval: false });
    expect(brief(inv.line_items)).toEqual([
      ['[WEB] Website', 1, 100, 100],
      ['[WEB] Website: Expenses', 1, 10, 10],
    ]);
    expect(billed).toEqual({ unsubmitted: [false, false], submitted: [false, false], approved: [true, true], rejected: [false, false] });
  });

  it('invoices unsubmitted, submitted and approved work (never rejected) when it is on', async () => {
    const { inv, billed } = await setup({ invoice_before_approval: true });
    expect(brief(inv.line_items)).toEqual([
      ['[WEB] Website', 3, 100, 300],
      ['[WEB] Website: Expenses', 1, 30, 30],
    ]);
    expect(billed).toEqual({ unsubmitted: [true, true], submitted: [true, true], approved: [true, true], rejected: [false, false] });
  });

  it('ignores approval states when the workspace has approvals switched off (rejected still excluded)', async () => {
    const { billed } = await setup({ approvals_enabled: false, invoice_before_approval: false });
    expect(billed).toEqual({ unsubmitted: [true, true], submitted: [true, true], approved: [true, true], rejected: [false, false] });
  });

  it('says why when only unapproved work exists', async () => {
    const s = await scenario();
    await s.entry({ date: '2026-01-05', status: 'submitted' });
    const res = await s.post({ line_items_import: { time: { summary_type: 'project' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/approved/);
    expect(await countInvoices(ctx.db, s.c)).toBe(0);
  });
});

describe('what is imported', () => {
  it('takes only billable, unbilled, completed work of the client in the range', async () => {
    const s = await scenario({ invoice_before_approval: true });
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '100' });
    const archived = await insertProject(ctx.db, s.c, s.clientId, { name: 'Old site', isActive: false });
    await assignTask(ctx.db, s.c, archived, s.design);
    await setRate(ctx.db, s.c, { projectId: archived, from: '2025-01-01', rate: '10' });
    const internal = await insertProject(ctx.db, s.c, s.clientId, { name: 'Internal', isBillable: false, billBy: 'none' });
    await assignTask(ctx.db, s.c, internal, s.design);
    const otherClient = await insertClient(ctx.db, s.c);
    const otherProject = (await billableProject(ctx.db, s.c, otherClient, { rate: '100' })).projectId;

    const good = await s.entry({ date: '2026-01-10' });
    const first = await s.entry({ date: '2026-01-01' });
    const last = await s.entry({ date: '2026-01-31' });
    const onArchived = await s.entry({ date: '2026-01-15', projectId: archived });
    const excluded = [
      await s.entry({ date: '2026-01-10', running: true, seconds: 600 }),
      await s.entry({ date: '2026-01-10', billable: false }),
      await s.entry({ date: '2026-01-10', projectId: internal }),
      await s.entry({ date: '2026-01-10', isBilled: true }),
      await s.entry({ date: '2026-01-10', projectId: otherProject }),
      await s.entry({ date: '2025-12-31' }),
      await s.entry({ date: '2026-02-01' }),
    ];
    const res = await s.post({ line_items_import: { time: { summary_type: 'detailed', from: '2026-01-01', to: '2026-01-31' } } });
    expect(res.statusCode).toBe(201);
    const inv = res.json();
    expect(inv.line_items).toHaveLength(4);
    // by project name, then date
    expect(inv.line_items.map((l: Line) => l.description.split(' - ')[0])).toEqual([
      'Old site: Design',
      '[WEB] Website: Design',
      '[WEB] Website: Design',
      '[WEB] Website: Design',
    ]);
    expect(inv.line_items.slice(1).map((l: Line) => l.description.split(' - ').pop())).toEqual(['2026-01-01', '2026-01-10', '2026-01-31']);
    const links = await billing(ctx.db, 'time_entries', [good, first, last, onArchived, ...excluded]);
    for (const id of [good, first, last, onArchived]) expect(links.get(id)!.invoice_id).toBe(inv.id);
    for (const id of excluded) expect(links.get(id)!.invoice_id, id).toBeNull();
    // the pre-billed entry stays billed, the others stay unbilled
    expect(excluded.map((id) => links.get(id)!.is_billed)).toEqual([false, false, false, true, false, false, false]);
    // without from/to: everything outstanding (the two out-of-range entries)
    const rest = await s.importTime('detailed');
    expect(rest.line_items.map((l: Line) => l.description.split(' - ').pop())).toEqual(['2025-12-31', '2026-02-01']);
    expect(rest).toMatchObject({ period_start: '2025-12-31', period_end: '2026-02-01' });
  });

  it("limits to project_ids: another client's project is 400; unknown, other-workspace or malformed ids are 404", async () => {
    const s = await scenario();
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '100' });
    const second = await billableProject(ctx.db, s.c, s.clientId, { rate: '50', name: 'App' });
    const a = await s.entry({ date: '2026-01-05' });
    const b = await s.entry({ date: '2026-01-05', projectId: second.projectId, taskId: second.taskId });
    const otherClient = await insertClient(ctx.db, s.c);
    const foreign = (await billableProject(ctx.db, s.c, otherClient, { rate: '1' })).projectId;
    const otherWs = await makeInvoiceWorkspace(ctx.db);
    const otherWsProject = (await billableProject(ctx.db, otherWs.companyId, await insertClient(ctx.db, otherWs.companyId))).projectId;
    const sameClient = await s.post({ line_items_import: { project_ids: [foreign], time: { summary_type: 'project' } } });
    expect(sameClient.statusCode).toBe(400);
    expect(sameClient.json()).toMatchObject({ error: 'invalid_request', field: 'line_items_import.project_ids' });
    for (const ids of [[s.projectId, otherWsProject], ['nope'], [newId()]]) {
      const res = await s.post({ line_items_import: { project_ids: ids, time: { summary_type: 'project' } } });
      expect(res.statusCode, ids.join()).toBe(404);
      expect(res.json()).toMatchObject({ error: 'not_found', field: 'line_items_import.project_ids' });
    }
    expect(await countInvoices(ctx.db, s.c)).toBe(0);
    expect(await countBilled(ctx.db, s.c)).toEqual({ time: 0, expenses: 0 });
    const inv = await s.importTime('project', { project_ids: [second.projectId] });
    expect(brief(inv.line_items)).toEqual([['App', 1, 50, 50]]);
    const links = await billing(ctx.db, 'time_entries', [a, b]);
    expect([links.get(a)!.is_billed, links.get(b)!.is_billed]).toEqual([false, true]);
    // an empty list imports nothing
    const none = await s.post({ line_items_import: { project_ids: [], time: { summary_type: 'project' } } });
    expect(none.statusCode).toBe(400);
  });

  it('checks the request: summary types, at least one part, dates in order, no unknown fields', async () => {
    const s = await scenario();
    await s.entry({ date: '2026-01-05' });
    const bad = [
      { line_items_import: {} },
      { line_items_import: { time: { summary_type: 'category' } } },
      { line_items_import: { expenses: { summary_type: 'task' } } },
      { line_items_import: { time: {} } },
      { line_items_import: { time: { summary_type: 'project', from: '2026-02-01', to: '2026-01-01' } } },
      { line_items_import: { time: { summary_type: 'project', from: '2026-02-30' } } },
      { line_items_import: { time: { summary_type: 'project' }, hours: 3 } },
      { line_items_import: { time: { summary_type: 'project', rounding: 'up' } } },
    ];
    for (const body of bad) {
      const res = await s.post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await countInvoices(ctx.db, s.c)).toBe(0);
    expect(await countBilled(ctx.db, s.c)).toEqual({ time: 0, expenses: 0 });
  });

  it('is a 400 with no invoice when nothing is importable (or the client has no projects)', async () => {
    const s = await scenario();
    const res = await s.post({ line_items_import: { time: { summary_type: 'project' }, expenses: { summary_type: 'project' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'invalid_request', field: 'line_items_import' });
    expect(res.json().message).toMatch(/Nothing to import/);
    const bare = await insertClient(ctx.db, s.c);
    const none = await api(s.ws.owner, 'POST', '/api/v2/invoices', { client_id: bare, line_items_import: { time: { summary_type: 'project' } } });
    expect(none.statusCode).toBe(400);
    expect(await countInvoices(ctx.db, s.c)).toBe(0);
  });

  it('keeps an explicit period', async () => {
    const s = await scenario();
    await s.entry({ date: '2026-01-05' });
    const inv = await s.importTime('project', {});
    expect(inv.period_start).toBe('2026-01-05');
    await s.entry({ date: '2026-01-06' });
    const res = await s.post({ period_start: '2026-01-01', period_end: '2026-01-31', line_items_import: { time: { summary_type: 'project' } } });
    expect(res.json()).toMatchObject({ period_start: '2026-01-01', period_end: '2026-01-31' });
  });
});

describe('expenses: summary types', () => {
  async function setup() {
    const s = await scenario();
    const travel = await insertCategory(ctx.db, s.c, 'Travel');
    const meals = await insertCategory(ctx.db, s.c, 'Meals');
    const x = (o: { categoryId: string; date: string; cost: string; userId?: string; notes?: string }) =>
      insertExpense(ctx.db, s.c, { userId: s.ws.member.userId, projectId: s.projectId, ...o });
    const ids = [
      await x({ categoryId: travel, date: '2026-01-05', cost: '100' }),
      await x({ categoryId: meals, date: '2026-01-06', cost: '20.50' }),
      await x({ categoryId: travel, date: '2026-01-07', cost: '50.25', userId: s.ws.contractor.userId, notes: 'Taxi' }),
    ];
    const importExpenses = async (summary: string) => {
      const res = await s.post({ line_items_import: { expenses: { summary_type: summary } } });
      if (res.statusCode !== 201) throw new Error(`${res.statusCode} ${res.body}`);
      return res.json();
    };
    return { ...s, ids, importExpenses };
  }

  it('project', async () => {
    const s = await setup();
    const inv = await s.importExpenses('project');
    expect(brief(inv.line_items)).toEqual([['[WEB] Website: Expenses', 1, 170.75, 170.75]]);
    expect(inv.line_items[0]).toMatchObject({ kind: 'Expense', project_id: s.projectId });
    const links = await billing(ctx.db, 'expenses', s.ids);
    for (const id of s.ids) expect(links.get(id)).toMatchObject({ is_billed: true, invoice_id: inv.id, invoice_line_id: inv.line_items[0].id });
  });

  it('category', async () => {
    const s = await setup();
    const inv = await s.importExpenses('category');
    expect(brief(inv.line_items)).toEqual([
      ['[WEB] Website: Meals', 1, 20.5, 20.5],
      ['[WEB] Website: Travel', 1, 150.25, 150.25],
    ]);
  });

  it('people', async () => {
    const s = await setup();
    const inv = await s.importExpenses('people');
    expect(brief(inv.line_items)).toEqual([
      ['[WEB] Website: Cole Contractor', 1, 50.25, 50.25],
      ['[WEB] Website: Mia Member', 1, 120.5, 120.5],
    ]);
  });

  it('detailed', async () => {
    const s = await setup();
    const inv = await s.importExpenses('detailed');
    expect(brief(inv.line_items)).toEqual([
      ['[WEB] Website: Travel - Mia Member - 2026-01-05', 1, 100, 100],
      ['[WEB] Website: Meals - Mia Member - 2026-01-06', 1, 20.5, 20.5],
      ['[WEB] Website: Travel - Cole Contractor - 2026-01-07\nTaxi', 1, 50.25, 50.25],
    ]);
  });

  it('time and expenses together: time lines first, taxes on the whole subtotal', async () => {
    const s = await setup();
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '100' });
    await s.entry({ date: '2026-01-05', seconds: 9000 });
    const res = await s.post({ tax: 10, discount: 5, line_items_import: { time: { summary_type: 'project' }, expenses: { summary_type: 'project' } } });
    const inv = res.json();
    expect(brief(inv.line_items)).toEqual([
      ['[WEB] Website', 2.5, 100, 250],
      ['[WEB] Website: Expenses', 1, 170.75, 170.75],
    ]);
    expect(inv.line_items.map((l: Line) => l.kind)).toEqual(['SERVICE', 'Expense']);
    // subtotal 420.75; discount 21.0375 → 21.04; tax 10% of 420.75 × 0.95 = 39.97125 → 39.97
    expect(inv).toMatchObject({ subtotal: 420.75, discount_amount: 21.04, tax_amount: 39.97, amount: 439.68 });
  });
});

describe('managers', () => {
  it('import only the work of the projects they manage; time needs View billable rates', async () => {
    const s = await scenario();
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '100' });
    const assigned = await billableProject(ctx.db, s.c, s.clientId, { rate: '50', name: 'App' });
    const hidden = await billableProject(ctx.db, s.c, s.clientId, { rate: '70', name: 'Hidden' });
    const mgrRates = await addMember(ctx.db, s.c, { role: 'manager', permissions: ['view_billable_rates'] });
    const mgrPlain = s.ws.mgrPlain;
    for (const m of [mgrRates, mgrPlain]) {
      await assignUser(ctx.db, s.c, s.projectId, m.userId, { manager: true });
      await assignUser(ctx.db, s.c, assigned.projectId, m.userId);
    }
    const managedEntry = await s.entry({ date: '2026-01-05' });
    const assignedEntry = await s.entry({ date: '2026-01-05', projectId: assigned.projectId, taskId: assigned.taskId });
    const hiddenEntry = await s.entry({ date: '2026-01-05', projectId: hidden.projectId, taskId: hidden.taskId });
    const cat = await insertCategory(ctx.db, s.c, 'Travel');
    const managedExpense = await insertExpense(ctx.db, s.c, { userId: s.ws.member.userId, projectId: s.projectId, categoryId: cat, date: '2026-01-06', cost: '12' });
    const assignedExpense = await insertExpense(ctx.db, s.c, { userId: s.ws.member.userId, projectId: assigned.projectId, categoryId: cat, date: '2026-01-06', cost: '30' });
    const post = (who: typeof mgrRates, importBody: Record<string, unknown>) =>
      api(who, 'POST', '/api/v2/invoices', { client_id: s.clientId, line_items_import: importBody });

    // pricing time shows billable rates: a manager without View billable rates may not import time
    const noRates = await post(mgrPlain, { time: { summary_type: 'project' } });
    expect(noRates.statusCode).toBe(403);
    expect(noRates.json().error).toBe('forbidden');
    expect(await countInvoices(ctx.db, s.c)).toBe(0);
    // ... but expenses, of the projects they manage only
    const expenses = await post(mgrPlain, { expenses: { summary_type: 'project' } });
    expect(expenses.statusCode, expenses.body).toBe(201);
    expect(brief(expenses.json().line_items)).toEqual([['[WEB] Website: Expenses', 1, 12, 12]]);
    const xb = await billing(ctx.db, 'expenses', [managedExpense, assignedExpense]);
    expect([xb.get(managedExpense)!.is_billed, xb.get(assignedExpense)!.is_billed]).toEqual([true, false]);

    // naming a project: assigned but not managed is 403, unassigned (invisible) is 404; nothing is billed
    const notManaged = await post(mgrRates, { project_ids: [s.projectId, assigned.projectId], time: { summary_type: 'project' } });
    expect(notManaged.statusCode).toBe(403);
    expect(notManaged.json()).toMatchObject({ error: 'forbidden', field: 'line_items_import.project_ids' });
    const invisible = await post(mgrRates, { project_ids: [hidden.projectId], time: { summary_type: 'project' } });
    expect(invisible.statusCode).toBe(404);
    expect(invisible.json()).toMatchObject({ error: 'not_found', field: 'line_items_import.project_ids' });
    expect(await countBilled(ctx.db, s.c)).toEqual({ time: 0, expenses: 1 });

    // omitted project_ids: the client's projects they manage, and nothing else
    const time = await post(mgrRates, { time: { summary_type: 'project' } });
    expect(time.statusCode, time.body).toBe(201);
    expect(brief(time.json().line_items)).toEqual([['[WEB] Website', 1, 100, 100]]);
    const tb = await billing(ctx.db, 'time_entries', [managedEntry, assignedEntry, hiddenEntry]);
    expect([managedEntry, assignedEntry, hiddenEntry].map((id) => tb.get(id)!.is_billed)).toEqual([true, false, false]);
    // nothing left on the projects they manage: the message says so
    const nothing = await post(mgrRates, { time: { summary_type: 'project' } });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toMatch(/projects you manage/);

    // the owner invoices the rest
    const rest = await api(s.ws.owner, 'POST', '/api/v2/invoices', { client_id: s.clientId, line_items_import: { time: { summary_type: 'project' } } });
    expect(brief(rest.json().line_items)).toEqual([['App', 1, 50, 50], ['Hidden', 1, 70, 70]]);
  });
});

describe('all or nothing', () => {
  it('leaves no invoice and no billed flag when the import fails at its last step (duplicate number)', async () => {
    const s = await scenario();
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '100' });
    const cat = await insertCategory(ctx.db, s.c);
    const entries = [await s.entry({ date: '2026-01-05' }), await s.entry({ date: '2026-01-06' })];
    const expense = await insertExpense(ctx.db, s.c, { userId: s.ws.member.userId, projectId: s.projectId, categoryId: cat, date: '2026-01-05', cost: '9' });
    const taken = await s.post({ number: 'INV-1', line_items: [{ description: 'x' }] });
    expect(taken.statusCode).toBe(201);

    const res = await s.post({ number: 'INV-1', line_items_import: { time: { summary_type: 'detailed' }, expenses: { summary_type: 'detailed' } } });
    expect(res.statusCode).toBe(409);
    expect(res.json().field).toBe('number');
    expect(await countInvoices(ctx.db, s.c)).toBe(1);
    expect(await countBilled(ctx.db, s.c)).toEqual({ time: 0, expenses: 0 });
    const lines = await ctx.db.selectFrom('invoice_line_items').select('id').where('company_id', '=', s.c).execute();
    expect(lines).toHaveLength(1);
    const t = await billing(ctx.db, 'time_entries', entries);
    for (const id of entries) expect(t.get(id)).toMatchObject({ is_billed: false, invoice_id: null, invoice_line_id: null });
    expect((await billing(ctx.db, 'expenses', [expense])).get(expense)).toMatchObject({ is_billed: false, invoice_id: null });

    // the same import with a free number succeeds and bills everything
    const ok = await s.post({ number: 'INV-2', line_items_import: { time: { summary_type: 'detailed' }, expenses: { summary_type: 'detailed' } } });
    expect(ok.statusCode).toBe(201);
    expect(await countBilled(ctx.db, s.c)).toEqual({ time: 2, expenses: 1 });
  });
});

describe('fixed-fee projects', () => {
  /** A fixed-fee project (fee 5,000 from 1 January 2026, an hourly rate of 100 for its budget) with 5 hours logged. */
  async function fixedFee() {
    const s = await scenario();
    await ctx.db.updateTable('projects').set({ is_fixed_fee: true, fee: '5000', starts_on: '2026-01-01' }).where('id', '=', s.projectId).execute();
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '100' });
    const entries = [await s.entry({ date: '2026-01-05', seconds: 3 * 3600 }), await s.entry({ date: '2026-01-06', seconds: 2 * 3600, notes: 'Review' })];
    const uninvoiced = async () => {
      const res = await api(s.ws.owner, 'GET', '/api/v2/reports/uninvoiced?from=20260101&to=20261231');
      return (res.json().results as Array<{ project_id: string; uninvoiced_amount: number }>).find((r) => r.project_id === s.projectId)?.uninvoiced_amount;
    };
    return { ...s, entries, uninvoiced };
  }

  it('bill the fee’s balance as one Service line carrying the time, whatever the summary: what the uninvoiced report counts', async () => {
    for (const summary of ['project', 'task', 'people', 'detailed']) {
      const s = await fixedFee();
      expect(await s.uninvoiced()).toBe(5000);
      const inv = await s.importTime(summary);
      // Not 5 h × 100 = 500, which left 4,500 of the fee counted as uninvoiced with no work to carry it.
      expect(brief(inv.line_items), summary).toEqual([['[WEB] Website: Fixed fee', 1, 5000, 5000]]);
      expect(inv.line_items[0]).toMatchObject({ kind: 'Service', project_id: s.projectId }); // the fee, not hours (SERVICE)
      const links = await billing(ctx.db, 'time_entries', s.entries);
      for (const id of s.entries) expect(links.get(id)).toMatchObject({ is_billed: true, invoice_id: inv.id });
      expect(await s.uninvoiced(), summary).toBe(0); // nothing left: no balance, no open hours (the project shows for its hours)
    }
  });

  it('bill what is left after earlier Service lines; later time bills 0; a deleted draft gives the balance back', async () => {
    const s = await fixedFee();
    const first = await s.post({ line_items: [{ kind: 'Service', description: 'Deposit', quantity: 1, unit_price: 2000, project_id: s.projectId }] });
    expect(first.statusCode, first.body).toBe(201);
    expect(await s.uninvoiced()).toBe(3000);
    const second = await s.importTime('task');
    expect(brief(second.line_items)).toEqual([['[WEB] Website: Fixed fee', 1, 3000, 3000]]);
    await s.entry({ date: '2026-01-07', seconds: 3600 });
    const third = await s.importTime('task');
    expect(brief(third.line_items)).toEqual([['[WEB] Website: Fixed fee', 1, 0, 0]]);
    expect((await api(s.ws.owner, 'DELETE', `/api/v2/invoices/${second.id}`)).statusCode).toBe(204);
    expect(await s.uninvoiced()).toBe(3000);
  });

  it('bill the fee only for a range that reaches the project’s start date, as the uninvoiced report counts it', async () => {
    const s = await fixedFee();
    await ctx.db.updateTable('projects').set({ starts_on: '2026-02-01' }).where('id', '=', s.projectId).execute();
    const report = async (to: string) => {
      const res = await api(s.ws.owner, 'GET', `/api/v2/reports/uninvoiced?from=20260101&to=${to}`);
      return (res.json().results as Array<{ project_id: string; uninvoiced_amount: number }>).find((r) => r.project_id === s.projectId)?.uninvoiced_amount;
    };
    // January: the fee is not due yet (rule 7), so the report counts 0 and an import bills nothing, its time left uninvoiced.
    expect(await report('20260131')).toBe(0);
    const early = await s.post({ line_items_import: { time: { summary_type: 'project', to: '2026-01-31' } } });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({ error: 'invalid_request', field: 'line_items_import' });
    const links = await billing(ctx.db, 'time_entries', s.entries);
    for (const id of s.entries) expect(links.get(id)).toMatchObject({ is_billed: false });
    // Through February the fee is due, for both.
    expect(await report('20260228')).toBe(5000);
    const due = await s.importTime('project', { time: { summary_type: 'project', to: '2026-02-28' } });
    expect(brief(due.line_items)).toEqual([['[WEB] Website: Fixed fee', 1, 5000, 5000]]);
  });

  it('sit beside hourly projects and expenses; a fee line prints no hours', async () => {
    const s = await fixedFee();
    const hourly = await billableProject(ctx.db, s.c, s.clientId, { rate: '80', name: 'Support' });
    await s.entry({ date: '2026-01-08', seconds: 5400, projectId: hourly.projectId, taskId: hourly.taskId });
    const cat = await insertCategory(ctx.db, s.c);
    await insertExpense(ctx.db, s.c, { userId: s.ws.member.userId, projectId: s.projectId, categoryId: cat, date: '2026-01-05', cost: '40' });
    const res = await s.post({ line_items_import: { time: { summary_type: 'project' }, expenses: { summary_type: 'project' } } });
    expect(res.statusCode, res.body).toBe(201);
    const inv = res.json();
    expect(brief(inv.line_items)).toEqual([
      ['Support', 1.5, 80, 120],
      ['[WEB] Website: Fixed fee', 1, 5000, 5000],
      ['[WEB] Website: Expenses', 1, 40, 40],
    ]);
    const line = await ctx.db.selectFrom('invoice_line_items').select(['import_source']).where('id', '=', inv.line_items[1].id).executeTakeFirstOrThrow();
    expect(line.import_source).toBeNull();
  });

  it('bill the balance once when two imports of different days race', async () => {
    const s = await fixedFee();
    const [a, b] = await Promise.all([
      s.post({ line_items_import: { time: { summary_type: 'task', from: '2026-01-05', to: '2026-01-05' } } }),
      s.post({ line_items_import: { time: { summary_type: 'task', from: '2026-01-06', to: '2026-01-06' } } }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect([a.json().amount, b.json().amount].sort((x, y) => x - y)).toEqual([0, 5000]);
  });
});

describe('concurrent imports', () => {
  it('bill each entry exactly once when two imports race for the same work', async () => {
    const s = await scenario();
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '100' });
    const cat = await insertCategory(ctx.db, s.c);
    const entries: string[] = [];
    for (let i = 0; i < 40; i++) entries.push(await s.entry({ date: `2026-01-${String((i % 28) + 1).padStart(2, '0')}`, seconds: 900 }));
    for (let i = 0; i < 10; i++) {
      await insertExpense(ctx.db, s.c, { userId: s.ws.member.userId, projectId: s.projectId, categoryId: cat, date: '2026-01-05', cost: '1' });
    }
    const body = { line_items_import: { time: { summary_type: 'detailed' }, expenses: { summary_type: 'detailed' } } };
    const results = await Promise.all([s.post(body), s.post(body), s.post(body)]);
    const created = results.filter((r) => r.statusCode === 201).map((r) => r.json());
    for (const r of results) expect([201, 400]).toContain(r.statusCode);
    expect(created.length).toBeGreaterThanOrEqual(1);
    // every entry is on exactly one line of one created invoice
    const lineCount = created.reduce((n, inv) => n + inv.line_items.length, 0);
    expect(lineCount).toBe(50);
    const total = created.reduce((n, inv) => n + inv.amount, 0);
    expect(total).toBe(40 * 25 + 10);
    const links = await billing(ctx.db, 'time_entries', entries);
    const createdIds = new Set(created.map((inv) => inv.id));
    for (const id of entries) expect(createdIds.has(links.get(id)!.invoice_id!)).toBe(true);
    expect(await countBilled(ctx.db, s.c)).toEqual({ time: 40, expenses: 10 });
    expect(await countInvoices(ctx.db, s.c)).toBe(created.length);
  });

  it('bill shared work once when overlapping project sets race', async () => {
    const s = await scenario();
    const p2 = await billableProject(ctx.db, s.c, s.clientId, { rate: '10', name: 'P2' });
    const p3 = await billableProject(ctx.db, s.c, s.clientId, { rate: '10', name: 'P3' });
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '10' });
    const all: string[] = [];
    for (let i = 0; i < 15; i++) {
      all.push(await s.entry({ date: '2026-01-05' }));
      all.push(await s.entry({ date: '2026-01-05', projectId: p2.projectId, taskId: p2.taskId }));
      all.push(await s.entry({ date: '2026-01-05', projectId: p3.projectId, taskId: p3.taskId }));
    }
    const [a, b] = await Promise.all([
      s.post({ line_items_import: { project_ids: [s.projectId, p2.projectId], time: { summary_type: 'detailed' } } }),
      s.post({ line_items_import: { project_ids: [p2.projectId, p3.projectId], time: { summary_type: 'detailed' } } }),
    ]);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(a.json().line_items.length + b.json().line_items.length).toBe(45);
    const links = await billing(ctx.db, 'time_entries', all);
    for (const id of all) expect([a.json().id, b.json().id]).toContain(links.get(id)!.invoice_id);
  });
});

describe('billed flag table', () => {
  it('import bills, explicit lines do not, deleting the draft releases', async () => {
    const s = await scenario();
    await setRate(ctx.db, s.c, { projectId: s.projectId, from: '2025-01-01', rate: '100' });
    const e = await s.entry({ date: '2026-01-05' });
    const explicit = await s.post({ line_items: [{ description: 'Flat fee', unit_price: 500 }] });
    expect(explicit.statusCode).toBe(201);
    expect((await billing(ctx.db, 'time_entries', [e])).get(e)!.is_billed).toBe(false);
    const imported = await s.importTime('project');
    expect((await billing(ctx.db, 'time_entries', [e])).get(e)!.is_billed).toBe(true);
    // PATCHing lines keeps the links
    await insertItemCategories(ctx.db, s.c, ['Consulting']);
    const patched = await api(s.ws.owner, 'PATCH', `/api/v2/invoices/${imported.id}`, {
      line_items: [{ id: imported.line_items[0].id, unit_price: 120, description: 'Website work', kind: 'Consulting' }],
    });
    expect(patched.json().amount).toBe(120);
    expect((await billing(ctx.db, 'time_entries', [e])).get(e)).toMatchObject({ is_billed: true, invoice_line_id: imported.line_items[0].id });
    const del = await api(s.ws.admin, 'DELETE', `/api/v2/invoices/${imported.id}`, undefined, { 'if-match': '*' });
    expect(del.statusCode).toBe(204);
    expect((await billing(ctx.db, 'time_entries', [e])).get(e)).toMatchObject({ is_billed: false, invoice_id: null, invoice_line_id: null });
  });
});
