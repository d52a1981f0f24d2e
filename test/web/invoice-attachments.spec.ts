import { expect, test } from './fixtures.ts';
import { checkPage, expectAccessible, visit } from './visit.ts';

/**
 * Invoice attachments and the client's page (issue 25 items 4 and 6): the owner
 * attaches a file on the invoice page, downloads it, sends the invoice with it;
 * the client opens the link (no sign-in), sees the invoice and what is paid, and
 * downloads the PDF; revoking ends the link at once.
 */

test.use({ mail: true });

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n', 'latin1');

async function seed(workspace: Parameters<Parameters<typeof test>[2]>[0]['workspace']) {
  const client = await workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR', address: '5 Harbour Road\nHamburg' });
  expect(client.status, JSON.stringify(client.body)).toBe(201);
  const invoice = await workspace.api('POST', '/api/v2/invoices', {
    client_id: client.body.id,
    subject: 'Website relaunch',
    issue_date: '2026-11-02',
    due_date: '2026-12-02',
    tax: 19,
    line_items: [
      { description: 'Design', quantity: 3, unit_price: 80 },
      { kind: 'Product', description: 'Hosting', quantity: 1, unit_price: 20, taxed: false },
    ],
  });
  expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
  return invoice.body as { id: string; number: string };
}

test('the owner attaches a file, downloads it and sends the invoice with it', async ({ page, workspace, sheaf }) => {
  test.setTimeout(300_000); // three pages checked at both widths, and a delivered e-mail
  const invoice = await seed(workspace);
  await visit(page, `/invoices/${invoice.id}`, 'invoice-attachments-empty');
  await expect(page.getByText('No files attached.')).toBeVisible();
  await expect(page.getByText('The client gets a link when the invoice is sent.')).toBeVisible();

  await page.locator('input[type="file"]').setInputFiles({ name: 'Terms of service.pdf', mimeType: 'application/pdf', buffer: PDF });
  const link = page.getByRole('link', { name: 'Download Terms of service.pdf' });
  await expect(link).toBeVisible();
  const download = page.waitForEvent('download');
  await link.click();
  expect((await download).suggestedFilename()).toBe('Terms of service.pdf');

  // A file the server refuses says why, in place.
  await page.locator('input[type="file"]').setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf') });
  await expect(page.getByRole('alert')).toContainText('An attachment must be a PDF, PNG, JPEG, GIF or HEIC file');
  await checkPage(page, 'invoice-attachments');

  await page.getByRole('button', { name: 'Send invoice' }).click();
  const dialog = page.getByRole('dialog', { name: `Send invoice ${invoice.number}` });
  await dialog.getByRole('textbox', { name: 'Recipient 1 e-mail' }).fill('ap@acme.example');
  await expect(dialog.getByRole('checkbox', { name: 'Terms of service.pdf' })).toBeChecked();
  await expectAccessible(page, 'the send dialog with attachments');
  await dialog.getByRole('button', { name: 'Send invoice' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The invoice is on its way.' })).toBeVisible();
  // The sentence after the count speaks of the invoice, not of "it" (which read as the links).
  await expect(page.getByText('1 link works. The client has not opened the invoice yet.')).toBeVisible();

  // Delivered by the outbox worker (a PDF with its attachment): on a loaded machine that passed 15 s once.
  const toClient = () => sheaf.mail!.received.find((m) => m.rcpt.includes('ap@acme.example'));
  await expect.poll(toClient, { timeout: 60_000 }).toBeTruthy();
  const mail = toClient()!;
  expect(mail.raw).toContain('Terms of service.pdf');
  expect(mail.raw.replace(/=\r\n/g, '')).toMatch(/\/c#[\w-]{43}/);
});

test('the client opens the link, sees the invoice and downloads the PDF; a revoked link stops at once', async ({ page, workspace, browser, baseURL }) => {
  test.setTimeout(300_000); // two browsers and four pages checked at both widths
  const invoice = await seed(workspace);
  // What an EN 16931 e-invoice needs of the seller and the client: the page then offers them.
  expect((await workspace.api('PATCH', '/web/api/workspace', { sender_email: 'billing@studio.example' })).status).toBe(200);
  expect((await workspace.api('PATCH', '/web/api/invoice-settings', { vat_id: 'DE123456789', country_code: 'DE', vat_exemption_reason: 'Exempt' })).status).toBe(200);
  const clientId = (await workspace.api('GET', `/api/v2/invoices/${invoice.id}`)).body.client.id;
  expect((await workspace.api('PATCH', `/api/v2/clients/${clientId}`, { country_code: 'DE', invoice_email: 'ap@acme.example' })).status).toBe(200);
  const sent = await workspace.api('POST', `/api/v2/invoices/${invoice.id}/messages`, { recipients: [{ email: 'ap@acme.example' }] });
  expect(sent.status).toBe(201);

  // The owner makes a link to hand over (shown once).
  await visit(page, `/invoices/${invoice.id}`, 'invoice-client-link');
  await page.getByRole('button', { name: 'Create new link' }).click();
  const field = page.getByRole('textbox', { name: 'New link (shown this once)' });
  await expect(field).toHaveValue(/\/c#[\w-]{43}$/);
  const url = new URL(await field.inputValue());
  await expect(page.getByText(/2 links work\./)).toBeVisible();
  await checkPage(page, 'invoice-client-link-made');

  // The client: another browser, no session.
  const context = await browser.newContext({ baseURL, acceptDownloads: true });
  const client = await context.newPage();
  const calls = await visit(client, `${url.pathname}${url.hash}`, 'client-page');
  expect(calls.length, calls.join(', ')).toBe(1);
  await expect(client.getByRole('heading', { level: 1 })).toHaveText(`Invoice ${invoice.number}`);
  await expect(client.getByText('Website relaunch')).toBeVisible();
  await expect(client.getByText('5 Harbour Road')).toBeVisible();
  await expect(client.getByRole('row', { name: /Design/ })).toContainText('€240.00');
  // 260 + 19 % of 240 = 305.60, nothing paid yet.
  const totals = client.getByRole('definition');
  await expect(totals.filter({ hasText: '€305.60' }).first()).toBeVisible();
  await expect(client.getByText('No payments have been recorded yet.')).toBeVisible();
  const download = client.waitForEvent('download');
  await client.getByRole('button', { name: 'Download PDF' }).click();
  expect((await download).suggestedFilename()).toBe(`invoice-${invoice.number}.pdf`);
  // The e-invoices the invoice can be (no XRechnung: the client has no buyer reference).
  const eInvoices = client.getByRole('group', { name: 'E-invoice' });
  await expect(eInvoices.getByRole('button')).toHaveText(['Factur-X (PDF)', 'CII (XML)', 'UBL (XML)']);
  const facturx = client.waitForEvent('download');
  await eInvoices.getByRole('button', { name: 'Factur-X (PDF)' }).click();
  expect((await facturx).suggestedFilename()).toBe(`invoice-${invoice.number}-facturx.pdf`);
  await checkPage(client, 'client-page-e-invoices');

  // Revoked on the invoice page: the client's next load says the link does not work.
  await page.getByRole('button', { name: 'Revoke links' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke them' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The links no longer work.' })).toBeVisible();
  await client.reload();
  await expect(client.getByRole('heading', { level: 1 })).toHaveText('This link does not work');
  await checkPage(client, 'client-page-revoked');
  await context.close();
});
