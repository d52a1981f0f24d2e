import { expect, ok, test } from './fixtures.ts';
import { typeDate } from './dates.ts';
import { checkPage, visit } from './visit.ts';

/**
 * Estimates in the web app (issue 25 item 7): the empty list, a new estimate with typed
 * lines and the server's totals, sending it (the e-mail arrives with the PDF), marking
 * it accepted, converting it to a draft invoice; a declined one reopened; the pages in
 * German; the lines' kinds from the item categories; the recipient filled in with the
 * client's invoice e-mail address; the client's page of an estimate with its Accept
 * and Decline, and revoking its link. Screenshots at 1280 and 390 px.
 */

test.use({ mail: true });
// Long journeys on a shared two-core machine: more time than the default per test.
test.describe.configure({ timeout: 400_000 });

const money = (amount: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(amount);

test('the owner writes an estimate, sends it, marks it accepted and converts it to an invoice', async ({ page, workspace, sheaf }) => {
  await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR', invoice_email: 'ap@acme.example' }));
  await ok(workspace.api('POST', '/web/api/item-categories', { name: 'Hosting and domains' }));

  await visit(page, '/estimates', 'estimates-empty');
  await expect(page.getByText('No estimates yet.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Estimates' })).toBeVisible();

  // A new estimate: client, discount, tax and two lines (3 × 85.555 = 256.67; 1 × 19.99).
  await page.getByRole('link', { name: 'New estimate' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New estimate' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Client' }).fill('Acm');
  await page.getByRole('option', { name: 'Acme' }).click();
  await page.getByRole('textbox', { name: 'Subject' }).fill('New website');
  await page.getByRole('textbox', { name: 'Discount (%)' }).fill('10');
  await page.getByRole('textbox', { name: 'Tax (%)', exact: true }).fill('19');
  const first = page.getByRole('listitem', { name: 'Line 1' });
  await first.getByRole('textbox', { name: 'Description' }).fill('Design');
  await first.getByRole('textbox', { name: 'Quantity' }).fill('3');
  await first.getByRole('textbox', { name: 'Unit price' }).fill('85.555');
  await page.getByRole('button', { name: 'Add line' }).click();
  const second = page.getByRole('listitem', { name: 'Line 2' });
  await second.getByRole('textbox', { name: 'Description' }).fill('Hosting');
  // The kind is picked from the workspace's item categories, as on an invoice.
  await expect(second.getByRole('button', { name: /Type/ })).toContainText('Service');
  await second.getByRole('button', { name: /Type/ }).click();
  await expect(page.getByRole('option')).toHaveText(['Hosting and domains', 'Product', 'Service']);
  await checkPage(page, 'estimates-kind-picker');
  await page.getByRole('option', { name: 'Hosting and domains' }).click();
  await expect(second.getByRole('button', { name: /Type/ })).toContainText('Hosting and domains');
  // Valid until: typed into the date's segments, in the order the field shows them.
  await typeDate(page.locator('body'), 'Valid until', '2099-01-31');
  await second.getByRole('textbox', { name: 'Unit price' }).fill('19.99');
  await checkPage(page, 'estimates-new');
  await page.getByRole('button', { name: 'Create estimate' }).click();

  // Subtotal 276.66; discount 27.67 (27.666); tax 19 % of 248.994 = 47.31; total 296.30.
  await expect(page.getByRole('heading', { level: 1, name: 'Estimate 1' })).toBeVisible();
  await expect(page.getByLabel('Totals')).toContainText(money(276.66));
  await expect(page.getByLabel('Totals')).toContainText(`−${money(27.67)}`);
  await expect(page.getByLabel('Totals')).toContainText(money(47.31));
  await expect(page.getByLabel('Totals')).toContainText(money(296.3));
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await expect(page.getByRole('row', { name: /Hosting/ })).toContainText('Hosting and domains');
  await expect(page.getByRole('definition').filter({ hasText: '2099-01-31' })).toBeVisible(); // the person's date format
  const written = (await ok(workspace.api('GET', '/web/api/estimates'))).estimates[0];
  expect(written.line_items.map((l: { kind: string }) => l.kind)).toEqual(['Service', 'Hosting and domains']);
  expect(written.valid_until).toBe('2099-01-31');

  // The PDF preview draws the document.
  await page.getByRole('button', { name: 'Show PDF preview' }).click();
  await expect(page.getByRole('img', { name: 'Estimate 1, page 1 of 1' })).toBeVisible({ timeout: 90_000 });
  await checkPage(page, 'estimates-draft');

  // Send it: the e-mail arrives with the estimate's PDF.
  await page.getByRole('button', { name: 'Send estimate' }).click();
  const send = page.getByRole('dialog', { name: 'Send estimate 1' });
  // The client's invoice e-mail address comes first.
  await expect(send.getByRole('textbox', { name: 'Recipient e-mail' })).toHaveValue('ap@acme.example');
  await expect(send.getByText('Filled in with the client’s invoice e-mail address.')).toBeVisible();
  await send.getByRole('textbox', { name: 'Recipient name' }).fill('Anna Acme');
  // An address without a dot in its domain is refused in place; once mended, one press sends
  // (the message leaves as the address is typed, not when the press takes the focus away).
  const address = send.getByRole('textbox', { name: 'Recipient e-mail' });
  await address.fill('anna@acme');
  await send.getByRole('button', { name: 'Send' }).click();
  await expect(address).toHaveAccessibleDescription('Enter an e-mail address, such as name@example.com.');
  await address.pressSequentially('.example');
  await expect(address).not.toHaveAttribute('aria-invalid', 'true');
  await checkPage(page, 'estimates-send-dialog');
  await send.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The estimate is on its way' })).toBeVisible();
  await expect(page.getByText('Sent', { exact: true }).first()).toBeVisible();
  const delivered = () => sheaf.mail!.received.find((m) => m.rcpt.includes('anna@acme.example') && m.raw.includes(workspace.name));
  await expect.poll(() => (delivered() ? 'arrived' : 'not yet'), { timeout: 45_000 }).toBe('arrived');
  expect(delivered()!.raw).toMatch(/estimate-1\.pdf/);
  expect(delivered()!.raw).toMatch(/Content-Type: application\/pdf/i);
  expect(delivered()!.raw.replace(/=\r\n/g, '')).toMatch(/\/c#[\w-]{43}/);
  await expect(page.getByText('1 link works. The client has not opened the estimate yet.')).toBeVisible();

  // The client said yes: mark it accepted, then convert it.
  await page.getByRole('button', { name: 'Mark accepted' }).click();
  await page.getByRole('dialog', { name: 'Mark estimate 1 accepted?' }).getByRole('button', { name: 'Mark accepted' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The estimate is accepted.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send again' })).toHaveCount(0);
  await checkPage(page, 'estimates-accepted');
  await page.getByRole('button', { name: 'Convert to invoice' }).click();
  const convert = page.getByRole('dialog', { name: 'Convert estimate 1 to an invoice?' });
  await checkPage(page, 'estimates-convert-dialog');
  await convert.getByRole('button', { name: 'Convert to invoice' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Invoice / })).toBeVisible();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Totals')).toContainText(money(296.3));

  // The estimate links to its invoice; the list shows it accepted.
  const [estimate] = (await ok(workspace.api('GET', '/web/api/estimates'))).estimates;
  expect(estimate).toMatchObject({ state: 'accepted', amount: 296.3 });
  expect(estimate.invoice).not.toBeNull();
  await visit(page, `/estimates/${estimate.id}`, 'estimates-converted');
  await expect(page.getByRole('link', { name: `Invoice ${estimate.invoice.number}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Convert to invoice' })).toHaveCount(0);
  await visit(page, '/estimates', 'estimates-list');
  await expect(page.getByRole('row', { name: /Estimate 1, Acme/ })).toContainText('Accepted');
});

test('sending an estimate past its validity says first that the client can no longer accept it', async ({ page, workspace }) => {
  const acme = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));
  const e = await ok(
    workspace.api('POST', '/web/api/estimates', { client_id: acme.id, issue_date: '2026-01-01', valid_until: '2026-01-31', line_items: [{ description: 'Audit', quantity: 1, unit_price: 100 }] }),
  );
  await visit(page, `/estimates/${e.id}`, 'estimates-expired');
  await page.getByRole('button', { name: 'Send estimate' }).click();
  const send = page.getByRole('dialog', { name: `Send estimate ${e.number}` });
  await expect(send.getByRole('status').filter({ hasText: 'This estimate was valid until 2026-01-31' })).toContainText('no longer accept it');
  await checkPage(page, 'estimates-send-expired');
  // One still valid says nothing of the kind.
  const valid = await ok(workspace.api('POST', '/web/api/estimates', { client_id: acme.id, valid_until: '2099-12-31', line_items: [{ description: 'Audit', quantity: 1, unit_price: 100 }] }));
  await visit(page, `/estimates/${valid.id}`, 'estimates-valid');
  await page.getByRole('button', { name: 'Send estimate' }).click();
  await expect(page.getByRole('dialog', { name: `Send estimate ${valid.number}` }).getByRole('textbox', { name: 'Recipient e-mail' })).toBeVisible();
  await expect(page.getByText(/was valid until/)).toHaveCount(0);
});

test('a declined estimate is reopened as a draft and edited', async ({ page, workspace }) => {
  const acme = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));
  const e = await ok(workspace.api('POST', '/web/api/estimates', { client_id: acme.id, line_items: [{ description: 'Audit', quantity: 2, unit_price: 100 }] }));
  await ok(workspace.api('POST', `/web/api/estimates/${e.id}/send`, { recipients: [{ email: 'anna@acme.example' }] }));

  await visit(page, `/estimates/${e.id}`, 'estimates-sent');
  await page.getByRole('button', { name: 'Mark declined' }).click();
  await page.getByRole('dialog', { name: `Mark estimate ${e.number} declined?` }).getByRole('button', { name: 'Mark declined' }).click();
  await expect(page.getByText('Declined', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await checkPage(page, 'estimates-declined');
  await page.getByRole('button', { name: 'Reopen as draft' }).click();
  await expect(page.getByText('Draft', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Edit estimate ${e.number}` })).toBeVisible();
  await page.getByRole('listitem', { name: 'Line 1' }).getByRole('textbox', { name: 'Quantity' }).fill('3');
  await checkPage(page, 'estimates-edit');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Estimate ${e.number}` })).toBeVisible();
  await expect(page.getByLabel('Totals')).toContainText(money(300));
});

test('estimates in German', async ({ page, workspace }) => {
  await workspace.seed.german();
  const acme = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR' }));
  const e = await ok(
    workspace.api('POST', '/web/api/estimates', { client_id: acme.id, tax: 19, line_items: [{ description: 'Beratung', quantity: 1.5, unit_price: 1000 }] }),
  );
  await visit(page, '/estimates', 'estimates-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Angebote' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(`Angebot ${e.number}, Acme`) })).toContainText('Entwurf');
  await visit(page, `/estimates/${e.id}`, 'estimates-de-one');
  await expect(page.getByRole('button', { name: 'Angebot senden' })).toBeVisible();
  await expect(page.getByLabel('Summen')).toContainText('1.785,00');
  await page.goto('/estimates/new');
  await expect(page.getByRole('heading', { level: 1, name: 'Neues Angebot' })).toBeVisible();
  await checkPage(page, 'estimates-de-new');
});

test('members do not see estimates', async ({ page, workspace }) => {
  const mia = await workspace.seed.memberWithPassword('Mia', 'member');
  await page.context().clearCookies();
  await page.context().request.post('/web/api/session', { data: { email: mia.email, password: mia.password } });
  await page.goto('/');
  await expect(page.locator('h1')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Estimates' })).toHaveCount(0);
});

/** The client link in the newest e-mail to `to` (quoted-printable soft breaks removed). */
async function linkTo(sheaf: { mail?: { received: Array<{ rcpt: string[]; raw: string }> } }, to: string) {
  let token: string | undefined;
  await expect
    .poll(
      () => {
        const mail = [...sheaf.mail!.received].reverse().find((m) => m.rcpt.includes(to));
        token = mail && /\/c#([\w-]{43})/.exec(mail.raw.replace(/=\r\n/g, ''))?.[1];
        return token ? 'arrived' : 'not yet';
      },
      { timeout: 45_000 },
    )
    .toBe('arrived');
  return `/c#${token}`;
}

test('the client declines an estimate with a reason on its page; the team sees it', async ({ page, workspace, sheaf, browser, baseURL }) => {
  const acme = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Acme', currency: 'EUR', address: '5 Harbour Road\nHamburg' }));
  const e = await ok(
    workspace.api('POST', '/web/api/estimates', {
      client_id: acme.id,
      subject: 'New website',
      tax: 19,
      valid_until: '2099-01-31',
      line_items: [{ description: 'Design', quantity: 2, unit_price: 120 }],
    }),
  );
  await ok(workspace.api('POST', `/web/api/estimates/${e.id}/send`, { recipients: [{ email: 'buyer@acme.example' }] }));
  const link = await linkTo(sheaf, 'buyer@acme.example');

  // The client: another browser, no session.
  const context = await browser.newContext({ baseURL, acceptDownloads: true });
  const client = await context.newPage();
  const calls = await visit(client, link, 'client-estimate');
  expect(calls.length, calls.join(', ')).toBe(1);
  await expect(client.getByRole('heading', { level: 1 })).toHaveText(`Estimate ${e.number}`);
  await expect(client.getByText('Awaiting your answer')).toBeVisible();
  await expect(client.getByText('31 Jan 2099')).toBeVisible();
  await expect(client.getByRole('row', { name: /Design/ })).toContainText(money(240));
  await expect(client.getByRole('definition').filter({ hasText: money(285.6) }).first()).toBeVisible();
  const download = client.waitForEvent('download');
  await client.getByRole('button', { name: 'Download PDF' }).click();
  expect((await download).suggestedFilename()).toBe(`estimate-${e.number}.pdf`);

  await client.getByRole('button', { name: 'Decline estimate' }).click();
  const dialog = client.getByRole('dialog', { name: `Decline estimate ${e.number}?` });
  await dialog.getByRole('textbox', { name: 'Reason (optional)' }).fill('Too expensive for this year.');
  await checkPage(client, 'client-estimate-decline');
  await dialog.getByRole('button', { name: 'Decline estimate' }).click();
  await expect(client.getByRole('status').filter({ hasText: 'Thank you: your answer was sent.' })).toBeVisible();
  await expect(client.getByText('Declined', { exact: true })).toBeVisible();
  await expect(client.getByText('Reason given: Too expensive for this year.')).toBeVisible();
  await expect(client.getByRole('button', { name: /Accept estimate|Decline estimate/ })).toHaveCount(0);
  await checkPage(client, 'client-estimate-declined');
  expect(await ok(workspace.api('GET', `/web/api/estimates/${e.id}`))).toMatchObject({ state: 'declined', answered_by_client: true, decline_reason: 'Too expensive for this year.' });

  // The team sees the answer, by the client, with the reason.
  await visit(page, `/estimates/${e.id}`, 'estimates-declined-by-client');
  await expect(page.getByText('(by the client)')).toBeVisible();
  await expect(page.getByText('Too expensive for this year.')).toBeVisible();
  await expect(page.getByText(/1 link works\./)).toBeVisible();
  await context.close();
});

test('a German client accepts on its page; a revoked link stops at once', async ({ page, workspace, sheaf, browser, baseURL }) => {
  const muller = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Müller GmbH', currency: 'EUR', language: 'de' }));
  const e = await ok(workspace.api('POST', '/web/api/estimates', { client_id: muller.id, line_items: [{ description: 'Beratung', quantity: 1.5, unit_price: 1000 }] }));
  await ok(workspace.api('POST', `/web/api/estimates/${e.id}/send`, { recipients: [{ email: 'einkauf@mueller.example' }] }));
  const link = await linkTo(sheaf, 'einkauf@mueller.example');

  const context = await browser.newContext({ baseURL, acceptDownloads: true });
  const client = await context.newPage();
  await visit(client, link, 'client-estimate-de');
  await expect(client.getByRole('heading', { level: 1 })).toHaveText(`Angebot ${e.number}`);
  await expect(client.getByText('Ohne Enddatum')).toBeVisible();
  // The PDF is saved under the name the server gives it, in the client's language.
  const pdf = client.waitForEvent('download');
  await client.getByRole('button', { name: 'PDF herunterladen' }).click();
  expect((await pdf).suggestedFilename()).toBe(`Angebot-${e.number}.pdf`);
  await client.getByRole('button', { name: 'Angebot annehmen' }).click();
  const dialog = client.getByRole('dialog', { name: `Angebot ${e.number} annehmen?` });
  await expect(dialog).toContainText('1.500,00');
  await checkPage(client, 'client-estimate-de-accept');
  await dialog.getByRole('button', { name: 'Angebot annehmen' }).click();
  await expect(client.getByRole('status').filter({ hasText: 'Vielen Dank: Ihre Zusage wurde übermittelt.' })).toBeVisible();
  await expect(client.getByText('Angenommen', { exact: true })).toBeVisible();
  await checkPage(client, 'client-estimate-de-accepted');

  // The team sees it accepted by the client, and revokes the link: the client's next load says it does not work.
  await visit(page, `/estimates/${e.id}`, 'estimates-accepted-by-client');
  await expect(page.getByText('Accepted', { exact: true }).first()).toBeVisible();
  await expect(page.getByText('(by the client)')).toBeVisible();
  await page.getByRole('button', { name: 'Revoke links' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke them' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The links no longer work.' })).toBeVisible();
  await expect(page.getByText('No link works now.')).toBeVisible();
  await client.reload();
  await expect(client.getByRole('heading', { level: 1 })).toHaveText('This link does not work'); // no estimate yet to say the client's language: the browser's
  await context.close();
});
