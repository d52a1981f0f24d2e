import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createWorkspaceWithOwner, request, type Caller, type TestContext } from './helpers.ts';

describe('smoke', () => {
  let ctx: TestContext;
  let owner: Caller;
  beforeAll(async () => {
    ctx = await createTestContext();
    ({ owner } = await createWorkspaceWithOwner(ctx.db));
  });
  afterAll(() => ctx.close());

  it('serves users/me for a full-access key', async () => {
    const res = await request(ctx.app, owner, { method: 'GET', url: '/api/v2/users/me' });
    expect(res.statusCode).toBe(200);
    expect(res.json().company.name).toBe('Acme');
  });
});
