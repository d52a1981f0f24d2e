import { expect, ok, signIn, test, type TestWorkspace } from './fixtures.ts';
import { typeDate } from './dates.ts';
import { checkPage, expectAccessible, visit } from './visit.ts';

/**
 * The invoices area (issue 16 item 6, first part): the list with state and client
 * filters, one invoice with its lines and the server's totals, the PDF, the message
 * history; members do not see the area in the navigation.
 */

// The sends below are delivered to an SMTP sink (worker-scoped, so for the whole file).
test.use({ mail: true });

// As the app writes amounts for an English-speaking person (en-GB: €1,066.50, JP¥30,000, US$300.00).
const money = (amount: number, currency: string) => new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount);

async function seedInvoices(workspace: Parameters<Parameters<typeof test>[2]>[0]['workspace']) {
  const acme = await workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' });
  expect(acme.status, JSON.stringify(acme.body)).toBe(201);
  const globex = await workspace.api('POST', '/api/v2/clients', { name: 'Globex', currency: 'JPY' });
  expect(globex.status).toBe(201);
  await workspace.seed.project({ client: 'Initech', name: 'Website', tasks: ['Design'] });
  const draft = await workspace.api('POST', '/api/v2/invoices', {
    client_id: acme.body.id,
    subject: 'Website work',
    issue_date: '2026-11-02',
    due_date: '2026-12-02',
    tax: 20,
    line_items: [
      { kind: 'Service', description: 'Design', quantity: 3.5, unit_price: 80, taxed: true },
      { kind: 'Product', description: 'Hosting', quantity: 1, unit_price: 19.99, taxed: false },
    ],
  });
  expect(draft.status, JSON.stringify(draft.body)).toBe(201);
  const sent = await workspace.api('POST', '/api/v2/invoices', {
    client_id: globex.body.id,
    issue_date: '2026-11-01',
    line_items: [{ description: 'Audit', quantity: 2, unit_price: 15000 }],
  });
  expect(sent.status).toBe(201);
  const message = await workspace.api('POST', `/api/v2/invoices/${sent.body.id}/messages`, {
    recipients: [{ name: 'Gina Globex', email: 'gina@globex.example' }],
    subject: 'Your invoice',
    body: 'Thank you for your business.',
  });
  expect(message.status, JSON.stringify(message.body)).toBe(201);
  const reminder = await workspace.api('POST', `/api/v2/invoices/${sent.body.id}/messages`, {
    event_type: 'reminder',
    recipients: [{ email: 'gina@globex.example' }],
    attach_pdf: false,
    attach_expense_receipts: false,
  });
  expect(reminder.status, JSON.stringify(reminder.body)).toBe(201);
  return { draft: draft.body, sent: (await workspace.api('GET', `/api/v2/invoices/${sent.body.id}`)).body };
}

test('the owner lists invoices, filters them, and opens one with its lines, totals, PDF and messages', async ({ page, workspace }) => {
  const { draft, sent } = await seedInvoices(workspace);
  expect(sent.state).toBe('open');

  const calls = await visit(page, '/invoices', 'invoices-list');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3); // session, timer, the list
  const draftRow = page.getByRole('row', { name: new RegExp(`Invoice ${draft.number}, Acme`) });
  await expect(draftRow).toContainText(money(draft.amount, 'EUR'));
  await expect(draftRow).toContainText('Draft');
  const sentRow = page.getByRole('row', { name: new RegExp(`Invoice ${sent.number}, Globex`) });
  await expect(sentRow).toContainText(money(sent.amount, 'JPY'));
  await expect(sentRow).toContainText('Open');
  // Newest issue date first, as the API lists them.
  await expect(page.getByRole('row').nth(1)).toContainText('Acme');

  // Filter by state (in the URL), then by client.
  await page.getByRole('button', { name: /State/ }).click();
  await page.getByRole('option', { name: 'Open' }).click();
  await expect(page).toHaveURL(/state=open/);
  await expect(sentRow).toBeVisible();
  await expect(draftRow).toHaveCount(0);
  await page.getByRole('button', { name: /State/ }).click();
  await page.getByRole('option', { name: 'All states' }).click();
  await page.getByRole('button', { name: /Client/ }).click();
  await page.getByRole('option', { name: 'Acme' }).click();
  await expect(page).toHaveURL(/client_id=/);
  await expect(draftRow).toBeVisible();
  await expect(sentRow).toHaveCount(0);
  await page.getByRole('button', { name: /State/ }).click();
  await page.getByRole('option', { name: 'Paid' }).click();
  await expect(page.getByText('No invoices match these filters.')).toBeVisible();

  // The draft: fields, lines and the server's totals.
  const detail = await visit(page, `/invoices/${draft.id}`, 'invoices-draft');
  expect(detail.length, detail.join(', ')).toBeLessThanOrEqual(6); // session, timer, the invoice, its payments, its attachments and client links, its retainer credits
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Invoice ${draft.number}`);
  await expect(page.getByRole('row', { name: /Design/ })).toContainText(money(280, 'EUR'));
  await expect(page.getByRole('row', { name: /Hosting/ })).toContainText(money(19.99, 'EUR'));
  await expect(page.getByRole('row', { name: /Design/ })).toContainText('Tax');
  await expect(page.getByRole('row', { name: /Hosting/ })).not.toContainText('Tax'); // untaxed; and the invoice has no second tax
  const totals = page.getByRole('definition');
  for (const amount of [draft.subtotal, draft.tax_amount, draft.amount, draft.due_amount]) {
    await expect(totals.filter({ hasText: money(amount, 'EUR') }).first()).toBeVisible();
  }
  expect(draft.amount).toBe(355.99); // 299.99 + 20 % of 280
  await expect(page.getByText(money(355.99, 'EUR')).first()).toBeVisible();

  // The PDF downloads with the session (a same-origin link).
  const pdf = page.getByRole('link', { name: 'Download PDF' });
  const download = page.waitForEvent('download');
  await pdf.click();
  expect((await download).suggestedFilename()).toBe(`invoice-${draft.number}.pdf`);
  const bytes = await page.context().request.get(`/api/v2/invoices/${draft.id}/pdf`);
  expect(bytes.status()).toBe(200);
  expect((await bytes.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // A sent invoice: its message history, on request.
  await visit(page, `/invoices/${sent.id}`, 'invoices-open');
  await page.getByRole('button', { name: 'Show message history' }).click();
  const message = page.getByRole('listitem').filter({ hasText: 'Your invoice' });
  await expect(message).toContainText('Gina Globex <gina@globex.example>');
  await expect(message).toContainText('Thank you for your business.');
  await expect(message).toContainText('Sent');
  await expect(message).toContainText('Attached: the invoice PDF and the expenses’ receipts, if any');
  const reminder = page.getByRole('listitem').filter({ hasText: 'Reminder' });
  await expect(reminder).toContainText('Nothing attached');
  await checkPage(page, 'invoices-message-history');
});

test('the list is empty, and a member sees no Invoices entry', async ({ page, workspace }) => {
  await visit(page, '/invoices', 'invoices-empty');
  await expect(page.getByText('No invoices yet.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invoices' })).toBeVisible();

  const mia = await workspace.seed.member('Mia');
  await page.context().clearCookies();
  await signIn(page, mia);
  await visit(page, '/', 'invoices-member-home');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Time', exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invoices' })).toHaveCount(0);
  // Typed in by hand: the page says why there is nothing, and the server is not asked.
  const calls = await visit(page, '/invoices', 'invoices-member');
  expect(calls.filter((c) => c.includes('/api/v2/invoices'))).toEqual([]);
  expect((await workspace.api('GET', '/api/v2/invoices', undefined, mia.id)).status).toBe(403);
});

test('the owner records a partial payment, then the rest, and the invoice is paid', async ({ page, workspace }) => {
  const { sent } = await seedInvoices(workspace);
  await visit(page, `/invoices/${sent.id}`, 'invoices-pay');
  await page.getByRole('button', { name: 'Record a payment' }).click();
  const dialog = page.getByRole('dialog', { name: `Record a payment on invoice ${sent.number}` });
  await expectAccessible(page, 'the payment dialog');
  // More than is due is refused as typed, never lowered to the amount due and recorded as paid in full.
  await dialog.getByRole('textbox', { name: 'Amount' }).fill('50000');
  await dialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(dialog.getByText(`That is more than the ${money(30000, 'JPY')} due: enter at most the amount due.`)).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Amount' })).toHaveValue(/^\D*50,000$/);
  expect((await workspace.api('GET', `/api/v2/invoices/${sent.id}`)).body).toMatchObject({ state: 'open', paid_amount: 0 });
  await dialog.getByRole('textbox', { name: 'Amount' }).fill('10000');
  await dialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Payment recorded.' })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  let after = (await workspace.api('GET', `/api/v2/invoices/${sent.id}`)).body;
  expect(after).toMatchObject({ state: 'open', paid_amount: 10000, due_amount: 20000 });
  const totals = page.getByRole('definition');
  await expect(totals.filter({ hasText: money(20000, 'JPY') }).first()).toBeVisible();

  // The rest: offered as the amount due.
  await page.getByRole('button', { name: 'Record a payment' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Amount' })).toHaveValue(/^\D*20,000$/);
  await dialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'the invoice is paid' })).toBeVisible();
  after = (await workspace.api('GET', `/api/v2/invoices/${sent.id}`)).body;
  expect(after).toMatchObject({ state: 'paid', paid_amount: 30000, due_amount: 0 });
  await expect(page.getByText('Paid', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Record a payment' })).toHaveCount(0);
});

/** Approvals on; Mia's 3 h of billable Design (100 an hour) and a 42.50 taxi this week, submitted and approved. */
async function trackedWork(workspace: TestWorkspace) {
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: true }));
  const mia = await workspace.seed.memberWithPassword('Mia');
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex', currency: 'EUR' }));
  const task = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const project = await ok(
    workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Website', task_ids: [task.id], is_billable: true, bill_by: 'project', hourly_rate: 100 }),
  );
  await ok(workspace.api('POST', `/api/v2/projects/${project.id}/user_assignments`, { user_id: mia.id }));
  const week = await ok(workspace.api('GET', '/web/api/approvals/week', undefined, mia.id));
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: task.id, spent_date: week.from, hours: 3 }, mia.id));
  const category = await ok(workspace.api('POST', '/api/v2/expense_categories', { name: 'Travel' }));
  await ok(workspace.api('POST', '/api/v2/expenses', { project_id: project.id, expense_category_id: category.id, spent_date: week.from, total_cost: 42.5 }, mia.id));
  await ok(workspace.api('POST', '/api/v2/approvals/submit', { from: week.from, to: week.to }, mia.id));
  const approve = (extra: Record<string, unknown> = {}) =>
    workspace.api('POST', '/api/v2/approvals/approve', { user_id: mia.id, from: week.from, to: week.to, acknowledged_warning_codes: [], ...extra });
  let approved = await approve();
  if (approved.status === 409 && approved.body.preflight) {
    approved = await approve({
      preflight_fingerprint: approved.body.preflight.fingerprint,
      acknowledged_warning_codes: approved.body.preflight.warnings.map((w: { code: string }) => w.code),
    });
  }
  expect(approved.status, JSON.stringify(approved.body)).toBeLessThan(300);
  return { client, project, from: week.from as string, to: week.to as string };
}

/** An open invoice of explicit lines (sent through the API). */
async function openInvoice(workspace: TestWorkspace, clientId: string, description: string) {
  const created = await ok(workspace.api('POST', '/api/v2/invoices', { client_id: clientId, line_items: [{ description, quantity: 1, unit_price: 10 }] }));
  await ok(workspace.api('POST', `/api/v2/invoices/${created.id}/messages`, { recipients: [{ email: 'gina@globex.example' }] }));
  return created as { id: string; number: string };
}

test.describe('creating, editing, sending and settling', () => {

  test('the owner invoices approved work after a preview, edits it, previews the PDF, sends it, records payment and thanks; others are voided and closed', async ({
    page,
    workspace,
    sheaf,
  }) => {
    test.setTimeout(240_000); // preview, create, edit, PDF, send, pay, thank, void and close, each page checked at two widths
    const t = await trackedWork(workspace);
    const count = async () => (await ok(workspace.api('GET', '/api/v2/invoices'))).total_entries as number;

    // From the reports' link: the client and period come from the URL.
    const calls = await visit(page, `/invoices/new?client_id=${t.client.id}&from=${t.from}&to=${t.to}`, 'invoices-new');
    expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3); // session, timer, clients
    await expect(page.getByRole('combobox', { name: 'Client' })).toHaveValue('Globex');
    await expect(page.getByRole('button', { name: 'Create invoice' })).toHaveCount(0); // a preview comes first
    await page.getByRole('button', { name: 'Preview' }).click();
    // The preview's heading takes focus: a screen reader says it arrived.
    await expect(page.getByRole('heading', { name: /Preview of invoice 1/ })).toBeFocused();
    await expect(page.getByRole('row', { name: /Website: Design/ })).toContainText(money(300, 'EUR'));
    await expect(page.getByRole('row', { name: /Website: Travel/ })).toContainText(money(42.5, 'EUR'));
    await expect(page.getByRole('definition').filter({ hasText: money(342.5, 'EUR') }).first()).toBeVisible();
    expect(await count()).toBe(0); // the preview created nothing
    await checkPage(page, 'invoices-new-preview');

    // A double click creates one invoice.
    await page.getByRole('button', { name: 'Create invoice' }).dblclick();
    await expect(page).toHaveURL(/\/invoices\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Invoice 1');
    expect(await count()).toBe(1);
    const id = page.url().split('/').pop()!;

    // Edit a line's description and price; the totals are the server's.
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit invoice 1');
    const editCalls = await visit(page, `/invoices/${id}/edit`, 'invoices-edit');
    expect(editCalls.length, editCalls.join(', ')).toBeLessThanOrEqual(4); // session, timer, the invoice, the kinds a line may take
    // The server's message sits beside the field it names.
    await page.getByRole('textbox', { name: 'Number' }).fill(' ');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('textbox', { name: 'Number' })).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('textbox', { name: 'Number' }).fill('1');
    const line = page.getByRole('listitem', { name: 'Line 1' });
    await line.getByRole('textbox', { name: 'Description' }).fill('Website design, November');
    await line.getByRole('textbox', { name: 'Unit price' }).fill('120');
    // The service period, typed into the date fields' segments in the order the fields show them.
    for (const [label, date] of [['Service period from', '2026-11-01'], ['Service period to', '2026-11-30']] as const) await typeDate(page.locator('body'), label, date);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/invoices/${id}$`));
    await expect(page.getByRole('row', { name: /Website design, November/ })).toContainText(money(360, 'EUR'));
    expect(await ok(workspace.api('GET', `/api/v2/invoices/${id}`))).toMatchObject({
      subtotal: 402.5,
      state: 'draft',
      service_period_start: '2026-11-01',
      service_period_end: '2026-11-30',
    });
    await expect(page.getByText('Service period', { exact: true })).toBeVisible();

    // The PDF, drawn in the page.
    const pageCalls = await visit(page, `/invoices/${id}`, 'invoices-draft-actions');
    expect(pageCalls.length, pageCalls.join(', ')).toBeLessThanOrEqual(6); // session, timer, the invoice, its payments, its attachments and client links, its retainer credits
    // pdf.js's worker comes from our own origin under the unchanged CSP (script-src 'self', no eval); a violation would fail checkPage.
    const worker = page.waitForResponse((r) => /\/assets\/pdf\.worker\.min-[^/]+\.mjs$/.test(r.url()));
    await page.getByRole('button', { name: 'Show PDF preview' }).click();
    const workerResponse = await worker;
    expect(new URL(workerResponse.url()).origin).toBe(new URL(sheaf.url).origin);
    expect(workerResponse.headers()['content-type']).toMatch(/javascript/);
    const csp = workerResponse.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|unsafe-inline|blob:.*script|worker-src/);
    const canvas = page.getByRole('img', { name: /Page 1 of \d+ of invoice 1/ });
    await expect(canvas).toBeVisible();
    await expect(page.getByText('Drawing the PDF…')).toHaveCount(0);
    expect(await canvas.evaluate((c: HTMLCanvasElement) => c.width > 100 && c.height > 100)).toBe(true);
    await checkPage(page, 'invoices-pdf-preview');

    // Send it to the client: the e-mail arrives with the PDF.
    await page.getByRole('button', { name: 'Send invoice' }).click();
    const send = page.getByRole('dialog', { name: 'Send invoice 1' });
    await send.getByRole('textbox', { name: 'Recipient 1 name' }).fill('Gina Globex');
    await send.getByRole('textbox', { name: 'Recipient 1 e-mail' }).fill('ap@globex.example');
    await checkPage(page, 'invoices-send-dialog');
    await send.getByRole('button', { name: 'Send invoice' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The invoice is on its way.' })).toBeVisible();
    await expect(page.getByText('Open', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Gina Globex <ap@globex.example>' })).toBeVisible();
    const delivered = () => sheaf.mail!.received.find((m) => m.rcpt.includes('ap@globex.example') && m.raw.includes(workspace.name)); // other tests of this worker mail the same address
    await expect.poll(async () => {
      const status = (await ok(workspace.api('GET', `/api/v2/invoices/${id}/messages`))).invoice_messages.map((m: any) => `${m.delivery_status} ${m.delivery_error ?? ''}`);
      return delivered() ? 'arrived' : `not yet: ${status.join('; ')}; received ${sheaf.mail!.received.map((m) => m.rcpt.join()).join(' | ')}`;
    }, { timeout: 45_000 }).toBe('arrived');
    const mail = delivered();
    expect(mail!.raw).toMatch(/Content-Type: application\/pdf/i);
    expect(mail!.raw).toMatch(/invoice-1\.pdf/);

    // Paid in full, then thanked (no cc on a thank-you; no reminder once paid).
    await page.getByRole('button', { name: 'Record a payment' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Record payment' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'the invoice is paid' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send a reminder' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Send a thank-you' }).click();
    const thanks = page.getByRole('dialog', { name: 'Thank the client for invoice 1' });
    await expect(thanks.getByRole('group', { name: 'Cc' })).toHaveCount(0);
    await thanks.getByRole('textbox', { name: 'Recipient 1 e-mail' }).fill('gina@globex.example');
    await thanks.getByRole('button', { name: 'Send a thank-you' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The thank-you is on its way.' })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: /^Thank you/ })).toBeVisible();
    await visit(page, `/invoices/${id}`, 'invoices-paid');

    // Another invoice voided, another closed.
    const voided = await openInvoice(workspace, t.client.id, 'Cancelled work');
    await visit(page, `/invoices/${voided.id}`, 'invoices-open-admin');
    await page.getByRole('button', { name: 'Void invoice' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Void it' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The invoice is voided.' })).toBeVisible();
    await expect(page.getByText('Voided', { exact: true }).first()).toBeVisible();
    expect((await ok(workspace.api('GET', `/api/v2/invoices/${voided.id}`))).state).toBe('voided');

    const closed = await openInvoice(workspace, t.client.id, 'Written off');
    await page.goto(`/invoices/${closed.id}`);
    await page.getByRole('button', { name: 'Close invoice' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close it' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The invoice is closed.' })).toBeVisible();
    expect((await ok(workspace.api('GET', `/api/v2/invoices/${closed.id}`))).state).toBe('closed');
    await expect(page.getByRole('button', { name: 'Void invoice' })).toHaveCount(0);
  });

  test('an invoice with typed lines: add and remove rows, preview, create; the server\'s message sits beside the field', async ({ page, workspace }) => {
    await ok(workspace.api('POST', '/api/v2/clients', { name: 'Initech', currency: 'USD' }));
    await visit(page, '/invoices/new', 'invoices-new-empty');
    await page.getByRole('combobox', { name: 'Client' }).fill('Init');
    await page.getByRole('option', { name: 'Initech' }).click();
    await page.getByRole('button', { name: /Lines$/ }).click();
    await page.getByRole('option', { name: 'Lines I type' }).click();
    const first = page.getByRole('listitem', { name: 'Line 1' });
    await first.getByRole('textbox', { name: 'Description' }).fill('Consulting');
    await first.getByRole('textbox', { name: 'Quantity' }).fill('2');
    await first.getByRole('textbox', { name: 'Unit price' }).fill('150');
    await page.getByRole('button', { name: 'Add a line' }).click();
    const second = page.getByRole('listitem', { name: 'Line 2' });
    await second.getByRole('textbox', { name: 'Description' }).fill('Mistake');
    await page.getByRole('button', { name: 'Add a line' }).click();
    await page.getByRole('listitem', { name: 'Line 3' }).getByRole('button', { name: /Kind/ }).click();
    await page.getByRole('option', { name: 'Product' }).click();
    await page.getByRole('listitem', { name: 'Line 3' }).getByRole('textbox', { name: 'Description' }).fill('Licence');
    await page.getByRole('listitem', { name: 'Line 3' }).getByRole('textbox', { name: 'Unit price' }).fill('99');
    await page.getByRole('button', { name: 'Remove line 2' }).click();
    await expect(page.getByRole('listitem', { name: /^Line \d$/ })).toHaveCount(2);
    await page.getByRole('textbox', { name: 'Number' }).fill('INV-2026-001');
    // A value out of a field's range is refused as typed, never changed to the nearest allowed one.
    await page.getByRole('textbox', { name: 'Tax %' }).fill('200');
    const licence = page.getByRole('listitem', { name: 'Line 2' }).getByRole('textbox', { name: 'Unit price' });
    await licence.fill('-99');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByText('Enter 100 or less.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Tax %' })).toHaveValue('200');
    await expect(page.getByText('Enter 0 or more.')).toBeVisible();
    await expect(page.getByRole('heading', { name: /Preview of invoice/ })).toHaveCount(0);
    await page.getByRole('textbox', { name: 'Tax %' }).fill('20');
    await licence.fill('99');
    // The server's own message shows for a duplicate number below.
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByRole('row', { name: /Consulting/ })).toContainText(money(300, 'USD'));
    await expect(page.getByRole('row', { name: /Licence/ })).toContainText(money(99, 'USD'));
    await expect(page.getByRole('heading', { name: 'Preview of invoice INV-2026-001' })).toBeVisible();
    await page.getByRole('button', { name: 'Create invoice' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Invoice INV-2026-001');

    // The same number again: 409 beside the Number field.
    await page.goto('/invoices/new');
    await page.getByRole('combobox', { name: 'Client' }).fill('Init');
    await page.getByRole('option', { name: 'Initech' }).click();
    await page.getByRole('button', { name: /Lines$/ }).click();
    await page.getByRole('option', { name: 'Lines I type' }).click();
    await page.getByRole('textbox', { name: 'Number' }).fill('INV-2026-001');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByText('This number is already used in this workspace.')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Number' })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('button', { name: 'Create invoice' })).toHaveCount(0);

    // The draft is deleted (an administrator's action, asked first); the list no longer has it.
    const list = await ok(workspace.api('GET', '/api/v2/invoices'));
    await page.goto(`/invoices/${list.invoices[0].id}`);
    await page.getByRole('button', { name: 'Delete draft' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete it' }).click();
    await expect(page).toHaveURL(/\/invoices$/);
    await expect(page.getByText('No invoices yet.')).toBeVisible();
    expect((await ok(workspace.api('GET', '/api/v2/invoices'))).total_entries).toBe(0);
  });

  test("a fixed-fee project's time is previewed as its fee, the amount the uninvoiced report shows", async ({ page, workspace }) => {
    await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: false }));
    const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Initech', currency: 'EUR' }));
    const task = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Build' }));
    const project = await ok(
      workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Shop', task_ids: [task.id], is_billable: true, bill_by: 'project', hourly_rate: 100, is_fixed_fee: true, fee: 5000 }),
    );
    const week = await ok(workspace.api('GET', '/web/api/approvals/week'));
    await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: task.id, spent_date: week.from, hours: 5 }));
    await visit(page, `/invoices/new?client_id=${client.id}&project_ids=${project.id}`, 'invoices-new-fixed-fee');
    await page.getByRole('button', { name: 'Preview' }).click();
    // One line of the fee, not 5 h × €100; and no warning of time billed at 0.
    await expect(page.getByRole('row', { name: /Shop: Fixed fee/ })).toContainText(money(5000, 'EUR'));
    await expect(page.getByRole('row', { name: /Shop: Build/ })).toHaveCount(0);
    await expect(page.getByText(money(500, 'EUR'))).toHaveCount(0);
    await checkPage(page, 'invoices-new-fixed-fee-preview');
  });

  test("the reports' link chooses projects; a manager gets no payment, close, void or delete", async ({ page, workspace }) => {
    const t = await trackedWork(workspace);
    const other = await ok(workspace.api('POST', '/api/v2/projects', { client_id: t.client.id, name: 'Intranet', is_billable: true, bill_by: 'project', hourly_rate: 90 }));
    await visit(page, `/invoices/new?client_id=${t.client.id}&project_ids=${t.project.id}`, 'invoices-new-projects');
    await expect(page.getByText('1 project chosen')).toBeVisible();
    await page.getByRole('button', { name: 'Choose projects' }).click();
    await expect(page.getByRole('checkbox', { name: 'Website' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Intranet' })).not.toBeChecked();
    const intranet = page.locator('label').filter({ hasText: 'Intranet' });
    await intranet.click(); // all ticked: sent as "all projects"
    await expect(page.getByRole('checkbox', { name: 'Intranet' })).toBeChecked();
    await intranet.click();
    await expect(page.getByRole('checkbox', { name: 'Intranet' })).not.toBeChecked();
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByRole('row', { name: /Website: Design/ })).toBeVisible();
    expect(other.id).toBeTruthy();

    // A manager (may create and send invoices) sees none of the administrators' actions.
    const max = await workspace.seed.memberWithPassword('Max', 'manager');
    await ok(workspace.api('POST', `/api/v2/projects/${t.project.id}/user_assignments`, { user_id: max.id, is_project_manager: true }));
    const mine = await ok(workspace.api('POST', '/api/v2/invoices', { client_id: t.client.id, line_items: [{ description: 'Advice', unit_price: 50 }] }, max.id));
    await page.context().clearCookies();
    await signIn(page, max);
    await visit(page, `/invoices/${mine.id}`, 'invoices-manager-draft');
    await expect(page.getByRole('button', { name: 'Send invoice' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Edit' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete draft' })).toHaveCount(0);
    await ok(workspace.api('POST', `/api/v2/invoices/${mine.id}/messages`, { recipients: [{ email: 'ap@globex.example' }] }, max.id));
    await page.reload();
    await expect(page.getByText('Open', { exact: true }).first()).toBeVisible();
    for (const name of ['Record a payment', 'Close invoice', 'Void invoice']) await expect(page.getByRole('button', { name })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Send a reminder' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send again' })).toBeVisible();
    expect((await workspace.api('POST', `/web/api/invoices/${mine.id}/void`, undefined, max.id)).status).toBe(403);
  });
});
