import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, ok, test, type TestWorkspace } from './fixtures.ts';
import { checkPage, expectAccessible, visit } from './visit.ts';

/**
 * E-invoices in the web app (issue 25 item 10): the seller's and the client's e-invoice
 * details, the E-invoice downloads on the invoice page (Factur-X, XRechnung, CII, UBL),
 * the missing fields in words with links when the server answers 422, and an e-invoice
 * attached to the invoice e-mail.
 */

// The send below is delivered to an SMTP sink (worker-scoped, so for the whole file).
test.use({ mail: true });

/** A workspace and client with everything EN 16931 and XRechnung need, and a taxed invoice. */
async function completeInvoice(workspace: TestWorkspace) {
  await ok(workspace.api('PATCH', '/web/api/workspace', { sender_email: 'billing@acme.example', sender_phone: '+49 30 1234567' }));
  await ok(
    workspace.api('PATCH', '/web/api/invoice-settings', {
      legal_name: 'Acme Studio GmbH',
      vat_id: 'DE123456789',
      street: 'Hauptstraße 1',
      postal_code: '10115',
      city: 'Berlin',
      country_code: 'DE',
      contact_name: 'Olive Owner',
    }),
  );
  await ok(workspace.api('POST', '/web/api/bank_accounts', { currency: 'EUR', holder: 'Acme Studio GmbH', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', is_default: true }));
  const client = await ok(
    workspace.api('POST', '/api/v2/clients', {
      name: 'Globex AG',
      currency: 'EUR',
      invoice_email: 'ap@globex.example',
      street: 'Ring 2',
      postal_code: '80331',
      city: 'München',
      country_code: 'DE',
      buyer_reference: '04011000-12345-03',
    }),
  );
  const invoice = await ok(
    workspace.api('POST', '/api/v2/invoices', {
      client_id: client.id,
      issue_date: '2026-11-02',
      tax: 19,
      line_items: [{ description: 'Design', quantity: 3, unit_price: 80, taxed: true }],
    }),
  );
  return invoice as { id: string; number: string };
}

/** Chooses a format from the E-invoice menu and returns the download it starts. */
async function downloadEInvoice(page: Page, format: string) {
  const download = page.waitForEvent('download', { timeout: 120_000 });
  await page.getByRole('button', { name: 'E-invoice' }).click();
  await page.getByRole('menuitem', { name: format }).click();
  return download;
}

test('an owner fills in the e-invoice details of the workspace; they are kept', async ({ page, workspace }) => {
  await visit(page, '/settings/invoicing', 'e-invoice-settings-empty');
  const main = page.getByRole('main');
  const section = main.getByRole('region', { name: 'E-invoice details' });
  await expect(section).toBeVisible();
  await section.getByLabel('Street and number').fill('Hauptstraße 1');
  await section.getByLabel('Post code').fill('10115');
  await section.getByLabel('City').fill('Berlin');
  // Focused first, as a person does (a fill into the unfocused field races its opening list).
  await section.getByRole('combobox', { name: 'Country' }).click();
  await section.getByRole('combobox', { name: 'Country' }).fill('germ');
  await page.getByRole('option', { name: 'Germany (DE)' }).click();
  await section.getByLabel('Contact person').fill('Olive Owner');
  await section.getByLabel('VAT exemption reason').fill('Kleinunternehmer, § 19 UStG');
  await checkPage(page, 'e-invoice-settings-filled');
  await page.getByRole('button', { name: 'Save invoice settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved\.$/ })).toBeVisible();
  const saved = await workspace.api('GET', '/web/api/invoice-settings');
  expect(saved.body).toMatchObject({
    street: 'Hauptstraße 1',
    postal_code: '10115',
    city: 'Berlin',
    country_code: 'DE',
    contact_name: 'Olive Owner',
    vat_exemption_reason: 'Kleinunternehmer, § 19 UStG',
  });

  await page.reload();
  await expect(section.getByLabel('City')).toHaveValue('Berlin');
  await expect(section.getByRole('combobox', { name: 'Country' })).toHaveValue('Germany (DE)');

  // Emptying the country clears it.
  await section.getByRole('combobox', { name: 'Country' }).fill('');
  await section.getByLabel('City').click();
  await page.getByRole('button', { name: 'Save invoice settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Saved\.$/ })).toBeVisible();
  await expect.poll(async () => (await workspace.api('GET', '/web/api/invoice-settings')).body.country_code).toBeNull();
});

test('an owner fills in a client’s e-invoice details; they are kept', async ({ page, workspace }) => {
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Stadt Musterhausen' }));
  await visit(page, `/clients/${client.id}`, 'e-invoice-client');
  const form = page.getByRole('form', { name: 'Edit client' });
  const details = form.getByRole('group', { name: 'E-invoice details' });
  await details.getByLabel('Street and number').fill('Rathausplatz 1');
  await details.getByLabel('Post code').fill('12345');
  await details.getByLabel('City').fill('Musterhausen');
  await details.getByRole('combobox', { name: 'Country' }).click();
  await details.getByRole('combobox', { name: 'Country' }).fill('deutsch');
  await expect(details.getByRole('combobox', { name: 'Country' })).toHaveValue('deutsch');
  await expect(page.getByText('Nothing matches')).toBeVisible(); // English names in an English interface
  await details.getByRole('combobox', { name: 'Country' }).fill('austria');
  await page.getByRole('option', { name: 'Austria (AT)' }).click();
  await expect(details.getByText('e.g. a Leitweg-ID for German public buyers', { exact: false })).toBeVisible();
  await details.getByLabel('Buyer reference').fill('991-12345-67');
  await checkPage(page, 'e-invoice-client-filled');
  await form.getByRole('button', { name: 'Save client' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');
  const saved = await workspace.api('GET', `/api/v2/clients/${client.id}`);
  expect(saved.body).toMatchObject({ street: 'Rathausplatz 1', postal_code: '12345', city: 'Musterhausen', country_code: 'AT', buyer_reference: '991-12345-67' });
});

test('the owner downloads the Factur-X PDF and the XRechnung XML of a complete invoice', async ({ page, workspace }) => {
  test.setTimeout(300_000); // Factur-X makes a PDF/A: slow on a busy machine
  const invoice = await completeInvoice(workspace);
  await visit(page, `/invoices/${invoice.id}`, 'e-invoice-invoice');
  await page.getByRole('button', { name: 'E-invoice' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Factur-X (PDF)', 'XRechnung (CII)', 'XRechnung (UBL)', 'CII XML', 'UBL XML']);
  await expectAccessible(page, 'the e-invoice menu');
  await checkPage(page, 'e-invoice-menu');
  await page.keyboard.press('Escape');

  const pdf = await downloadEInvoice(page, 'Factur-X (PDF)');
  expect(pdf.suggestedFilename()).toBe(`invoice-${invoice.number}-facturx.pdf`);
  expect((await readFile(await pdf.path())).subarray(0, 5).toString()).toBe('%PDF-');
  await expect(page.getByRole('status').filter({ hasText: 'Factur-X (PDF) downloaded.' })).toBeVisible();

  const cii = await downloadEInvoice(page, 'XRechnung (CII)');
  expect(cii.suggestedFilename()).toBe(`invoice-${invoice.number}-xrechnung-cii.xml`);
  const ciiText = (await readFile(await cii.path())).toString();
  expect(ciiText.startsWith('<?xml')).toBe(true);
  expect(ciiText).toContain('04011000-12345-03');

  const ubl = await downloadEInvoice(page, 'XRechnung (UBL)');
  expect(ubl.suggestedFilename()).toBe(`invoice-${invoice.number}-xrechnung-ubl.xml`);
  expect((await readFile(await ubl.path())).toString().startsWith('<?xml')).toBe(true);
  await checkPage(page, 'e-invoice-downloaded');
});

test('an incomplete invoice names what it lacks, with links, on download and on send', async ({ page, workspace }) => {
  test.setTimeout(300_000);
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Initech', currency: 'EUR' }));
  const invoice = await ok(
    workspace.api('POST', '/api/v2/invoices', { client_id: client.id, tax: 19, line_items: [{ description: 'Audit', quantity: 1, unit_price: 500, taxed: true }] }),
  );
  await visit(page, `/invoices/${invoice.id}`, 'e-invoice-incomplete-invoice');
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.getByRole('button', { name: 'E-invoice' }).click();
  await page.getByRole('menuitem', { name: 'XRechnung (CII)' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('XRechnung (CII) cannot be made from this invoice yet. Missing, or to change:');
  const country = alert.getByRole('link', { name: 'The country of Initech' });
  await expect(country).toHaveAttribute('href', `/clients/${client.id}`);
  await expect(alert.getByRole('link', { name: 'Your country (invoice settings)' })).toHaveAttribute('href', '/settings/invoicing');
  await expect(alert.getByRole('link', { name: 'The buyer reference (e.g. Leitweg-ID) of Initech' })).toBeVisible();
  await expect(alert.getByRole('link', { name: 'A bank account in EUR (bank accounts)' })).toHaveAttribute('href', '/settings/bank-accounts');
  await expect(alert.getByRole('link', { name: 'The sender e-mail (workspace settings)' })).toHaveAttribute('href', '/settings/workspace');
  await checkPage(page, 'e-invoice-incomplete');
  expect(downloads).toBe(0);

  // The send dialog says the same when the e-invoice to attach cannot be made; nothing is sent.
  await page.getByRole('button', { name: 'Send invoice' }).click();
  const dialog = page.getByRole('dialog', { name: `Send invoice ${invoice.number}` });
  await dialog.getByRole('textbox', { name: 'Recipient 1 e-mail' }).fill('ap@initech.example');
  await dialog.getByRole('button', { name: /Attach e-invoice/ }).click();
  await page.getByRole('option', { name: 'Factur-X (PDF)' }).click();
  await dialog.getByRole('button', { name: 'Send invoice' }).click();
  const dialogAlert = dialog.getByRole('alert');
  await expect(dialogAlert).toContainText('Factur-X (PDF) cannot be made from this invoice yet. Missing, or to change:');
  await expect(dialogAlert.getByRole('link', { name: 'The country of Initech' })).toBeVisible();
  await expectAccessible(page, 'the send dialog with an incomplete e-invoice');
  await checkPage(page, 'e-invoice-send-incomplete');
  expect((await workspace.api('GET', `/api/v2/invoices/${invoice.id}`)).body.state).toBe('draft');

  // The link leads to the client's form, where the country is filled in.
  await dialogAlert.getByRole('link', { name: 'The country of Initech' }).click();
  await expect(page).toHaveURL(new RegExp(`/clients/${client.id}$`));
  await expect(page.getByRole('combobox', { name: 'Country' })).toBeVisible();
});

test('the owner sends an invoice with its Factur-X e-invoice attached', async ({ page, workspace, sheaf }) => {
  test.setTimeout(300_000);
  const invoice = await completeInvoice(workspace);
  await visit(page, `/invoices/${invoice.id}`, 'e-invoice-send');
  await page.getByRole('button', { name: 'Send invoice' }).click();
  const dialog = page.getByRole('dialog', { name: `Send invoice ${invoice.number}` });
  await dialog.getByRole('textbox', { name: 'Recipient 1 e-mail' }).fill('ap@globex.example');
  await expect(dialog.getByRole('button', { name: /Attach e-invoice/ })).toContainText('None');
  await dialog.getByRole('button', { name: /Attach e-invoice/ }).click();
  await page.getByRole('option', { name: 'XRechnung (UBL)' }).click();
  await expect(dialog.getByRole('button', { name: /Attach e-invoice/ })).toContainText('XRechnung (UBL)');
  await checkPage(page, 'e-invoice-send-dialog');
  await dialog.getByRole('button', { name: 'Send invoice' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The invoice is on its way.' })).toBeVisible();

  await expect.poll(() => sheaf.mail!.received.some((m) => m.rcpt.includes('ap@globex.example')), { timeout: 120_000 }).toBe(true);
  const mail = sheaf.mail!.received.find((m) => m.rcpt.includes('ap@globex.example'))!;
  expect(mail.raw).toContain(`invoice-${invoice.number}-xrechnung-ubl.xml`);
});
