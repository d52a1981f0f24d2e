import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEmailAddress } from '../src/email-address.ts';
import { apiOf, makeInvoiceWorkspace, type InvoiceWorkspace } from './fixtures/invoices.ts';
import { createTestContext, sessionFor, type Caller, type TestContext } from './helpers.ts';

/**
 * One shape of an e-mail address wherever Sheaf stores one (src/email-address.ts): a contact's, a
 * client's invoice address, the workspace's sender and a person's own. `ben@example` is refused
 * everywhere (no mail reaches a domain without a dot), and the refusal changes nothing.
 */

const REFUSED = ['ben@example', 'ben example@acme.test', 'ben.acme.test', 'ben@@acme.test', '@acme.test'];

describe('isEmailAddress', () => {
  it('takes one @, no spaces and a dot in the domain', () => {
    expect(isEmailAddress('ben@acme.test')).toBe(true);
    expect(isEmailAddress('ben.o+bills@mail.acme.co.uk')).toBe(true);
    for (const text of REFUSED) expect(isEmailAddress(text), text).toBe(false);
  });
});

describe('every stored address has that shape', () => {
  let ctx: TestContext;
  let w: InvoiceWorkspace;
  let owner: Caller;
  let clientId: string;
  const api = apiOf(() => ctx);

  beforeAll(async () => {
    ctx = await createTestContext();
    w = await makeInvoiceWorkspace(ctx.db, { sender_email: 'billing@acme.test' } as never);
    owner = await sessionFor(ctx.db, w.owner, ctx.clock.now());
    clientId = (await api(w.owner, 'POST', '/api/v2/clients', { name: 'Globex', invoice_email: 'ap@globex.test' })).json().id;
  });
  afterAll(() => ctx?.close());

  it("a contact's e-mail", async () => {
    for (const email of REFUSED) {
      const res = await api(w.owner, 'POST', '/api/v2/contacts', { client_id: clientId, first_name: 'Ben', email });
      expect(res.statusCode, email).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request', field: 'email' });
    }
    expect((await api(w.owner, 'GET', `/api/v2/contacts?client_id=${clientId}`)).json().contacts).toEqual([]);
    expect((await api(w.owner, 'POST', '/api/v2/contacts', { client_id: clientId, first_name: 'Ben', email: 'ben@globex.test' })).statusCode).toBe(201);
  });

  it("a client's invoice address", async () => {
    for (const invoice_email of REFUSED) {
      const res = await api(w.owner, 'PATCH', `/api/v2/clients/${clientId}`, { invoice_email });
      expect(res.statusCode, invoice_email).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request', field: 'invoice_email' });
    }
    expect((await api(w.owner, 'GET', `/api/v2/clients/${clientId}`)).json().invoice_email).toBe('ap@globex.test');
  });

  it("the workspace's sender", async () => {
    for (const sender_email of REFUSED) {
      const res = await api(owner, 'PATCH', '/web/api/workspace', { sender_email });
      expect(res.statusCode, sender_email).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request', field: 'sender_email' });
    }
    expect((await api(owner, 'GET', '/web/api/workspace')).json().sender_email).toBe('billing@acme.test');
  });

  it("a person's own, in the profile", async () => {
    for (const email of REFUSED) {
      const res = await api(owner, 'POST', '/web/api/profile/email', { email });
      expect(res.statusCode, email).toBe(400);
      expect(res.json()).toMatchObject({ error: 'invalid_request', field: 'email' });
    }
  });
});
