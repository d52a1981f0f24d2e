import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorPrincipal } from '../src/access/operator.ts';
import { updateWorkspaceSettings } from '../src/modules/workspace/settings/index.ts';
import { addMember, createTestContext, createWorkspaceWithOwner, request, type Caller, type TestContext } from './helpers.ts';

/** GET /api/v2/company: the calendar a client must count "today" and "this week" in. */
describe('the workspace for API clients', () => {
  let ctx: TestContext;
  let owner: Caller;
  let contractor: Caller;
  let personal: Caller;
  let other: Caller;

  beforeAll(async () => {
    ctx = await createTestContext();
    ({ owner } = await createWorkspaceWithOwner(ctx.db, 'Acme'));
    contractor = await addMember(ctx.db, owner.companyId, { role: 'member', isContractor: true });
    personal = await addMember(ctx.db, owner.companyId, { role: 'member', keyKind: 'personal' });
    ({ owner: other } = await createWorkspaceWithOwner(ctx.db, 'Other'));
    await updateWorkspaceSettings(ctx.db, operatorPrincipal(owner.companyId), { timezone: 'Pacific/Kiritimati', week_start: 'sunday', currency: 'EUR', approvals_enabled: true });
  });
  afterAll(() => ctx.close());

  it("shows every member the workspace's zone, week start, currency and approvals, and nothing else", async () => {
    for (const caller of [owner, contractor]) {
      const res = await request(ctx.app, caller, { method: 'GET', url: '/api/v2/company' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: owner.companyId,
        name: 'Acme',
        timezone: 'Pacific/Kiritimati',
        week_start_day: 'Sunday',
        currency: 'EUR',
        approval_feature: true,
      });
    }
  });

  it("answers with the caller's own workspace, never another's", async () => {
    const res = await request(ctx.app, other, { method: 'GET', url: '/api/v2/company' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: other.companyId, name: 'Other', timezone: 'UTC', week_start_day: 'Monday' });
  });

  it('refuses a personal sync key (its seven reads are the whole of it), no key, and a query', async () => {
    const res = await request(ctx.app, personal, { method: 'GET', url: '/api/v2/company' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBeDefined();
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v2/company' })).statusCode).toBe(401);
    const query = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/company?x=1' });
    expect(query.statusCode).toBe(400);
  });

  it('follows a change of the settings at once', async () => {
    await updateWorkspaceSettings(ctx.db, operatorPrincipal(other.companyId), { week_start: 'saturday' });
    const res = await request(ctx.app, other, { method: 'GET', url: '/api/v2/company' });
    expect(res.json().week_start_day).toBe('Saturday');
  });
});
