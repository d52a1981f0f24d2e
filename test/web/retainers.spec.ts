import { expect, ok, test } from './fixtures.ts';
import { checkPage, visit } from './visit.ts';

/**
 * Retainers in the web app (issue 25 item 8): the empty list linked from Invoices, a new
 * retainer, Fund (a retainer invoice, opened), its payment making the balance, Apply
 * retainer on a draft invoice (a credit line, the server's totals), the history, the
 * list, and the client's page of a covered invoice (the credit after the taxes, as the
 * PDF). Screenshots at 1280 and 390 px.
 */

test.describe.configure({ timeout: 400_000 });

const money = (amount: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(amount);

test('the owner creates a retainer, funds it, and draws on it from a draft invoice; the client sees the credit', async ({ page, workspace, browser, baseURL }) => {
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));

  await visit(page, '/invoices', 'invoices-with-retainers-link');
  await page.getByRole('link', { name: 'Retainers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Retainers' })).toBeVisible();
  await expect(page.getByText('No retainers yet.')).toBeVisible();
  await checkPage(page, 'retainers-empty');

  // A new retainer for Acme.
  await page.getByRole('button', { name: 'New retainer' }).click();
  const create = page.getByRole('dialog', { name: 'New retainer' });
  await create.getByRole('combobox', { name: 'Client' }).fill('Acm');
  await page.getByRole('option', { name: 'Acme' }).click();
  await create.getByRole('textbox', { name: 'Name' }).fill('Support 2026');
  await create.getByRole('button', { name: 'Create retainer' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Support 2026' })).toBeVisible();
  await expect(page.getByText('Nothing yet: fund the retainer')).toBeVisible();

  // Fund: a retainer invoice of 1,000 opens.
  await page.getByRole('button', { name: 'Fund' }).click();
  const fund = page.getByRole('dialog', { name: 'Fund Support 2026' });
  // Nothing to fund is said, not met with silence.
  await fund.getByRole('textbox', { name: 'Amount' }).fill('0');
  await fund.getByRole('button', { name: 'Create retainer invoice' }).click();
  await expect(fund.getByRole('textbox', { name: 'Amount' })).toHaveAccessibleDescription(/^Enter more than .0\.00\.$/);
  await fund.getByRole('textbox', { name: 'Amount' }).fill('1000');
  await fund.getByRole('button', { name: 'Create retainer invoice' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /Invoice/ })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'Retainer Support 2026' })).toBeVisible();
  const fundingId = page.url().split('/').pop()!;

  // Sent and paid, the funds count.
  await ok(workspace.api('POST', `/api/v2/invoices/${fundingId}/messages`, { recipients: [{ email: 'bill@acme.example' }] }));
  await ok(workspace.api('POST', `/web/api/invoices/${fundingId}/payments`, { amount: 1000, paid_date: '2026-03-10' }));
  const retainers = await ok(workspace.api('GET', '/web/api/retainers'));
  const retainerId = retainers.retainers[0].id;
  await visit(page, `/invoices/retainers/${retainerId}`, 'retainer-funded');
  await expect(page.getByText(money(1000)).first()).toBeVisible();
  await checkPage(page, 'retainer-funded');

  // A draft of 2 × 300 with the client's tax 19 %: 600 + 114 = 714. Apply 250 of the retainer.
  const draft = await ok(workspace.api('POST', '/api/v2/invoices', { client_id: client.id, tax: 19, line_items: [{ description: 'Design', quantity: 2, unit_price: 300 }] }));
  await visit(page, `/invoices/${draft.id}`, 'invoice-retainer-offer');
  await expect(page.getByRole('heading', { level: 2, name: 'Retainer' })).toBeVisible();
  await page.getByRole('button', { name: 'Apply retainer' }).click();
  const apply = page.getByRole('dialog', { name: `Apply a retainer to invoice ${draft.number}` });
  await expect(apply.getByRole('textbox', { name: 'Amount' })).toHaveValue(money(714));
  await apply.getByRole('textbox', { name: 'Amount' }).fill('250');
  await apply.getByRole('button', { name: 'Apply' }).click();
  await expect(apply).toBeHidden();
  // The credit line is untaxed: 600 − 250 + 114 = 464. The totals read as the PDF: the work's
  // subtotal and tax, then the retainer's credit.
  await expect(page.getByLabel('Totals')).toContainText(money(464));
  await expect(page.getByLabel('Totals')).toContainText(`Subtotal${money(600)}Tax (19%)${money(114)}Retainer credit−${money(250)}Amount${money(464)}`);
  await expect(page.getByRole('list', { name: 'Paid from a retainer' })).toContainText(`Support 2026: −${money(250)}`);
  await checkPage(page, 'invoice-retainer-applied');
  // On the draft's edit page the credit line is shown, not offered: the retainer sets its price.
  await visit(page, `/invoices/${draft.id}/edit`, 'invoice-retainer-edit');
  const creditLine = page.getByRole('listitem', { name: 'Line 2' });
  await expect(creditLine.getByRole('textbox', { name: 'Unit price' })).toHaveAttribute('readonly', '');
  await expect(creditLine.getByRole('textbox', { name: 'Unit price' })).toHaveAccessibleDescription(/^Set by the retainer/);
  await expect(creditLine.getByRole('button', { name: /Kind/ })).toBeDisabled();
  await expect(page.getByRole('listitem', { name: 'Line 1' }).getByRole('textbox', { name: 'Unit price' })).not.toHaveAttribute('readonly', '');

  // The history: the funding and the credit; the list shows the balance.
  await visit(page, `/invoices/retainers/${retainerId}`, 'retainer-history');
  await expect(page.getByRole('table', { name: 'Funding and credits, oldest invoice first' }).getByRole('row')).toHaveCount(3);
  await expect(page.getByText(money(750)).first()).toBeVisible();
  await checkPage(page, 'retainer-history');
  await visit(page, '/invoices/retainers', 'retainers-list');
  await expect(page.getByRole('link', { name: 'Retainer Support 2026, Acme' })).toBeVisible();
  await checkPage(page, 'retainers-list');

  // Removing the credit from the draft gives the funds back.
  await visit(page, `/invoices/${draft.id}`, 'invoice-retainer-remove');
  await page.getByRole('button', { name: 'Remove the credit of Support 2026' }).click();
  await expect(page.getByLabel('Totals')).toContainText(money(714));
  expect((await ok(workspace.api('GET', `/web/api/retainers/${retainerId}`))).balance).toBe(1000);

  // The retainer covers the whole invoice: sent, nothing is due, so it is marked paid instead of paid.
  await ok(workspace.api('POST', `/web/api/retainers/${retainerId}/credits`, { invoice_id: draft.id, amount: 714 }));
  await ok(workspace.api('POST', `/api/v2/invoices/${draft.id}/messages`, { recipients: [{ email: 'bill@acme.example' }] }));

  // The client's page reads as the PDF: the work's subtotal and tax, then the retainer's credit.
  const link = new URL((await ok(workspace.api('POST', `/web/api/invoices/${draft.id}/client-links`))).url);
  const context = await browser.newContext({ baseURL });
  const clientView = await context.newPage();
  await visit(clientView, `${link.pathname}${link.hash}`, 'client-page-retainer');
  const totals = clientView.getByLabel('Totals');
  await expect(totals).toContainText(`Subtotal${money(600)}`);
  await expect(totals).toContainText(`Tax (19%)${money(114)}`);
  await expect(totals).toContainText(`Retainer credit−${money(714)}`);
  await expect(totals).toContainText(`Total${money(0)}`);
  await checkPage(clientView, 'client-page-retainer');
  await context.close();

  await visit(page, `/invoices/${draft.id}`, 'invoice-retainer-covered');
  await expect(page.getByRole('button', { name: 'Record a payment' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Mark as paid' }).click();
  await expect(page.getByText('The invoice is marked paid.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send a thank-you' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark as paid' })).toHaveCount(0);
  await checkPage(page, 'invoice-retainer-covered-paid');
  expect((await ok(workspace.api('GET', `/api/v2/invoices/${draft.id}`))).state).toBe('paid');
});

test('the retainer pages in German', async ({ page, workspace }) => {
  await ok(workspace.api('PATCH', '/web/api/profile', { language: 'de' }));
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Müller GmbH', currency: 'EUR' }));
  const r = await ok(workspace.api('POST', '/web/api/retainers', { client_id: client.id, name: 'Wartung' }));
  await ok(workspace.api('POST', `/web/api/retainers/${r.id}/fund`, { amount: 500 }));
  await visit(page, '/invoices/retainers', 'retainers-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Vorauszahlungen' })).toBeVisible();
  await checkPage(page, 'retainers-de');
  await visit(page, `/invoices/retainers/${r.id}`, 'retainer-de');
  await expect(page.getByText('Nein, Zahlung offen')).toBeVisible();
  await checkPage(page, 'retainer-de');
});
