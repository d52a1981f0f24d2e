import { expect, signIn, test } from './fixtures.ts';
import { expectAccessible, visit } from './visit.ts';

/**
 * The invoices area (issue 16 item 6, first part): the list with state and client
 * filters, one invoice with its lines and the server's totals, the PDF, the message
 * history; members do not see the area in the navigation.
 */

const money = (amount: number, currency: string) => new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(amount);

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
  expect(detail.length, detail.join(', ')).toBeLessThanOrEqual(3); // session, timer, the invoice
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
});

test('the list is empty, and a member sees no Invoices entry', async ({ page, workspace }) => {
  await visit(page, '/invoices', 'invoices-empty');
  await expect(page.getByText('No invoices yet.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invoices' })).toBeVisible();

  const mia = await workspace.seed.member('Mia');
  await page.context().clearCookies();
  await signIn(page, mia);
  await visit(page, '/', 'invoices-member-home');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Time' })).toBeVisible();
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
