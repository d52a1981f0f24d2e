import { expect, test } from './fixtures.ts';
import { visit } from './visit.ts';

/**
 * The client page in the client's language: the seller's and the client's VAT IDs as the PDF
 * prints them, and the downloads saved under the names the server gives them (the invoice
 * routes' names in the client's language, not English ones made up in the browser).
 */

test('the client page of a German client’s invoice shows both VAT IDs and saves German file names', async ({ page, workspace, browser, baseURL }) => {
  test.setTimeout(180_000);
  expect((await workspace.api('PATCH', '/web/api/workspace', { sender_email: 'billing@studio.example' })).status).toBe(200);
  expect((await workspace.api('PATCH', '/web/api/invoice-settings', { vat_id: 'DE123456789', country_code: 'DE', vat_exemption_reason: 'Exempt' })).status).toBe(200);
  const client = await workspace.api('POST', '/api/v2/clients', {
    name: 'Müller GmbH',
    currency: 'EUR',
    language: 'de',
    address: 'Hauptstraße 1\n80331 München',
    vat_id: 'DE811111111',
    country_code: 'DE',
    invoice_email: 'ap@mueller.example',
  });
  expect(client.status, JSON.stringify(client.body)).toBe(201);
  const invoice = await workspace.api('POST', '/api/v2/invoices', {
    client_id: client.body.id,
    number: 'RE-2026-007',
    issue_date: '2026-11-02',
    due_date: '2026-12-02',
    tax: 19,
    line_items: [{ description: 'Entwurf', quantity: 3, unit_price: 80 }],
  });
  expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
  expect((await workspace.api('POST', `/api/v2/invoices/${invoice.body.id}/messages`, { event_type: 'send', recipients: [{ email: 'ap@mueller.example' }] })).status).toBe(201);

  // The owner makes a link to hand over (shown once).
  await page.goto(`/invoices/${invoice.body.id}`);
  await page.getByRole('button', { name: 'Create new link' }).click();
  const field = page.getByRole('textbox', { name: 'New link (shown this once)' });
  await expect(field).toHaveValue(/\/c#[\w-]{43}$/);
  const url = new URL(await field.inputValue());

  // The client: another browser, no session; the page in German.
  const context = await browser.newContext({ baseURL, acceptDownloads: true });
  const clientPage = await context.newPage();
  await visit(clientPage, `${url.pathname}${url.hash}`, 'client-page-vat-ids-de');
  await expect(clientPage.getByRole('heading', { level: 1 })).toHaveText('Rechnung RE-2026-007');
  await expect(clientPage.getByText('USt-IdNr.: DE123456789')).toBeVisible();
  await expect(clientPage.getByText('USt-IdNr.: DE811111111')).toBeVisible();

  const pdf = clientPage.waitForEvent('download');
  await clientPage.getByRole('button', { name: 'PDF herunterladen' }).click();
  expect((await pdf).suggestedFilename()).toBe('Rechnung-RE-2026-007.pdf');
  const eInvoices = clientPage.getByRole('group', { name: 'E-Rechnung' });
  const cii = clientPage.waitForEvent('download');
  await eInvoices.getByRole('button', { name: 'CII (XML)' }).click();
  expect((await cii).suggestedFilename()).toBe('Rechnung-RE-2026-007-cii.xml');
  await context.close();
});
