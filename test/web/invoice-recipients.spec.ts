import { expect, ok, test } from './fixtures.ts';
import { checkPage, visit } from './visit.ts';

/**
 * Who an invoice's e-mail goes to first: the send dialog starts with the client's
 * invoice e-mail address when the client has one (not its contacts); without it, with
 * the contacts that have an e-mail address. Screenshots at 1280 and 390 px.
 */

test.describe.configure({ timeout: 200_000 });

test('the send dialog starts with the client’s invoice e-mail address, else its contacts', async ({ page, workspace }) => {
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex', currency: 'EUR', invoice_email: 'ap@globex.example' }));
  await ok(workspace.api('POST', '/api/v2/contacts', { client_id: client.id, first_name: 'Gina', last_name: 'Globex', email: 'gina@globex.example' }));
  const invoice = await ok(workspace.api('POST', '/api/v2/invoices', { client_id: client.id, line_items: [{ description: 'Design', quantity: 1, unit_price: 100 }] }));

  await visit(page, `/invoices/${invoice.id}`, 'invoice-recipients');
  await page.getByRole('button', { name: 'Send invoice' }).click();
  const dialog = page.getByRole('dialog', { name: `Send invoice ${invoice.number}` });
  await expect(dialog.getByRole('textbox', { name: 'Recipient 1 e-mail' })).toHaveValue('ap@globex.example');
  await expect(dialog.getByRole('textbox', { name: 'Recipient 1 name' })).toHaveValue('Globex');
  await expect(dialog.getByRole('textbox', { name: 'Recipient 2 e-mail' })).toHaveCount(0);
  await expect(dialog.getByText('Filled in with the client’s invoice e-mail address.')).toBeVisible();
  await checkPage(page, 'invoice-recipients-dialog');
  await dialog.getByRole('button', { name: 'Send invoice' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The invoice is on its way.' })).toBeVisible();
  const messages = await ok(workspace.api('GET', `/api/v2/invoices/${invoice.id}/messages`));
  expect(messages.invoice_messages[0].recipients).toEqual([{ name: 'Globex', email: 'ap@globex.example' }]);

  // Without the address: the contacts with an e-mail.
  await ok(workspace.api('PATCH', `/api/v2/clients/${client.id}`, { invoice_email: null }));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Send again' }).click();
  const again = page.getByRole('dialog', { name: `Send invoice ${invoice.number}` });
  await expect(again.getByRole('textbox', { name: 'Recipient 1 e-mail' })).toHaveValue('gina@globex.example');
  await expect(again.getByText('Filled in with the client’s contacts that have an e-mail address.')).toBeVisible();
});
