import { expect, ok, signIn, test } from './fixtures.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

/**
 * The invoice page's payments (issue 25 item 5): the list (date, amount, method, notes)
 * at both widths, an administrator deleting a wrongly recorded payment after confirming
 * (a paid invoice opens again), and the thank-you offered once a payment pays it.
 */

// As the app writes amounts for an English-speaking person (en-GB: €1,066.50).
const money = (amount: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(amount);

test('the owner sees the payments, deletes a wrong one, pays the rest and is offered a thank-you', async ({ page, workspace }) => {
  test.setTimeout(240_000);
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex', currency: 'EUR' }));
  const invoice = await ok(workspace.api('POST', '/api/v2/invoices', { client_id: client.id, line_items: [{ description: 'Audit', quantity: 2, unit_price: 150 }] }));
  await ok(workspace.api('POST', `/api/v2/invoices/${invoice.id}/messages`, { recipients: [{ email: 'gina@globex.example' }] }));
  await ok(workspace.api('POST', `/web/api/invoices/${invoice.id}/payments`, { amount: 100, paid_date: '2026-03-10', method: 'bank_transfer', notes: 'First instalment' }));
  await ok(workspace.api('POST', `/web/api/invoices/${invoice.id}/payments`, { amount: 50, paid_date: '2026-03-12', method: 'cash', notes: 'Recorded twice by mistake' }));

  const calls = await visit(page, `/invoices/${invoice.id}`, 'invoice-payments');
  expect(calls.filter((c) => c === `GET /web/api/invoices/${invoice.id}/payments`), calls.join(', ')).toHaveLength(1);
  const table = page.getByRole('region', { name: 'Payments' });
  const first = table.getByRole('row', { name: /10 Mar 2026|2026-03-10|10\/03\/2026/ });
  await expect(first).toContainText(money(100));
  await expect(first).toContainText('Bank transfer');
  await expect(first).toContainText('First instalment');
  const wrong = table.getByRole('row').filter({ hasText: 'Recorded twice by mistake' });
  await expect(wrong).toContainText(money(50));
  await expect(wrong).toContainText('Cash');

  // Delete the wrong one, after confirming.
  await wrong.getByRole('button', { name: /^Delete the payment of/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this payment?' });
  await expect(confirm).toContainText(money(50));
  await expectAccessible(page, 'the delete payment dialog');
  await confirm.getByRole('button', { name: 'Delete payment' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Payment deleted.' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'Recorded twice by mistake' })).toHaveCount(0);
  expect(await ok(workspace.api('GET', `/api/v2/invoices/${invoice.id}`))).toMatchObject({ state: 'open', paid_amount: 100, due_amount: 200 });

  // The rest, by card: the invoice is paid, and a thank-you is offered.
  await page.getByRole('button', { name: 'Record a payment' }).click();
  const pay = page.getByRole('dialog', { name: /^Record a payment/ });
  await pay.getByRole('button', { name: /Method/ }).click();
  await page.getByRole('option', { name: 'Card' }).click();
  await pay.getByRole('button', { name: 'Record payment' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'the invoice is paid' })).toBeVisible();
  await expect(page.getByText('Payment deleted.')).toHaveCount(0);
  const offer = page.getByRole('status').filter({ hasText: `Invoice ${invoice.number} is paid` });
  await expect(offer).toContainText('Send Globex a thank-you e-mail?');
  await expect(table.getByRole('row').filter({ hasText: 'Card' })).toContainText(money(200));
  await checkPage(page, 'invoice-payments-paid');
  await offer.getByRole('button', { name: 'Write a thank-you' }).click();
  const thanks = page.getByRole('dialog', { name: `Thank the client for invoice ${invoice.number}` });
  await thanks.getByRole('textbox', { name: 'Recipient 1 e-mail' }).fill('gina@globex.example');
  await thanks.getByRole('button', { name: 'Send a thank-you' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The thank-you is on its way.' })).toBeVisible();
  await expect(offer).toHaveCount(0);
  const messages = await ok(workspace.api('GET', `/api/v2/invoices/${invoice.id}/messages`));
  expect(messages.invoice_messages.map((m: { event_type: string }) => m.event_type)).toEqual(['send', 'thank_you']);

  // A payment deleted from the paid invoice opens it again.
  await table.getByRole('row').filter({ hasText: 'Card' }).getByRole('button', { name: /^Delete the payment of/ }).click();
  await expect(confirm).toContainText('The invoice is then open again');
  await confirm.getByRole('button', { name: 'Delete payment' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Payment deleted: the invoice is open again.' })).toBeVisible();
  // One notice on the page, the last action's: the thank-you's is gone, as nothing says the invoice is paid.
  await expect(page.getByText('The thank-you is on its way.')).toHaveCount(0);
  await expect(page.getByText('Open', { exact: true }).first()).toBeVisible();
  expect(await ok(workspace.api('GET', `/api/v2/invoices/${invoice.id}`))).toMatchObject({ state: 'open', paid_amount: 100, due_amount: 200 });
  await expectClean(page);
});

test('a manager sees the payments of an invoice they may read, without delete buttons; an unpaid invoice says none', async ({ page, workspace }) => {
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Initech', currency: 'EUR' }));
  const paid = await ok(workspace.api('POST', '/api/v2/invoices', { client_id: client.id, line_items: [{ description: 'Support', unit_price: 80 }] }));
  await ok(workspace.api('POST', `/api/v2/invoices/${paid.id}/messages`, { recipients: [{ email: 'it@initech.example' }] }));
  await ok(workspace.api('POST', `/web/api/invoices/${paid.id}/payments`, { amount: 80, paid_date: '2026-03-10', method: 'paypal' }));
  const unpaid = await ok(workspace.api('POST', '/api/v2/invoices', { client_id: client.id, line_items: [{ description: 'More support', unit_price: 40 }] }));
  await ok(workspace.api('POST', `/api/v2/invoices/${unpaid.id}/messages`, { recipients: [{ email: 'it@initech.example' }] }));
  await visit(page, `/invoices/${unpaid.id}`, 'invoice-payments-none');
  await expect(page.getByText('No payments recorded.')).toBeVisible();

  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  expect((await workspace.api('PATCH', `/web/api/members/${max.id}`, { permissions: ['view_invoices'] })).status).toBe(200);
  await page.context().clearCookies();
  await signIn(page, max);
  await visit(page, `/invoices/${paid.id}`, 'invoice-payments-manager');
  await expect(page.getByRole('region', { name: 'Payments' }).getByRole('row').filter({ hasText: 'PayPal' })).toContainText(money(80));
  await expect(page.getByRole('button', { name: /^Delete the payment of/ })).toHaveCount(0);
  expect((await workspace.api('DELETE', `/web/api/invoices/${paid.id}/payments/${(await ok(workspace.api('GET', `/web/api/invoices/${paid.id}/payments`))).payments[0].id}`, undefined, max.id)).status).toBe(403);
  await expectClean(page);
});
