import type { Locator, Page } from '@playwright/test';
import { deliverDueWebhooks } from '../../src/modules/integrations/webhooks/index.ts';
import { fannedOut } from '../fixtures/webhooks.ts';
import { expect, ok, signIn, test } from './fixtures.ts';
import { checkPage, expectNoSidewaysScroll, expectAccessible, expectClean, visit } from './visit.ts';

/**
 * Settings → Webhooks: an owner sees what webhooks are while there are none, adds an endpoint
 * (its signing secret shown once, gone once closed; a private address and a non-http URL
 * refused under the URL field), changes its events; on the endpoint's page turns it off and on,
 * rotates the secret (the new one shown once), sees a client's creation in the delivery log,
 * sends it again and deletes the endpoint. A member finds no Webhooks in the settings and is
 * told at its address that it is not for their role; the pages in German. With a long URL and
 * long errors the delivery log fits beside the settings' navigation at 1280 px and stacks at
 * 390 px, in English and German.
 */

const settingsNav = (page: Page, name = 'Settings') => page.getByRole('navigation', { name });
const SECRET = /^whsec_[A-Za-z0-9+/=]{40,}$/;
/** Ticks or unticks a checkbox or switch: React Aria's input is visually hidden, its label takes the click. */
const toggle = (checkbox: Locator) => checkbox.locator('xpath=ancestor::label[1]').click();

test('an owner adds an endpoint, sees its secret once and changes its events', async ({ page, workspace }) => {
  test.setTimeout(480_000); // many checked views and dialogs, on a shared machine
  await visit(page, '/settings/workspace', 'webhooks-nav');
  await settingsNav(page).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();

  const calls = await visit(page, '/settings/webhooks', 'webhooks-empty');
  expect(calls.filter((c) => c === 'GET /web/api/webhook_endpoints'), calls.join(', ')).toHaveLength(1);
  await expect(page.getByRole('heading', { level: 2, name: 'No webhook endpoints yet' })).toBeVisible();
  await expect(page.getByText(/posts the event there as JSON, signed by the Standard Webhooks scheme/)).toBeVisible();

  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'New webhook endpoint' });
  const url = dialog.getByRole('textbox', { name: 'URL' });
  await expect(url).toBeFocused();
  await expect(dialog.getByRole('checkbox', { name: 'Active: send events to this endpoint' })).toBeChecked();

  // No event chosen: said at the events, nothing sent.
  await url.fill('https://hooks.example.com/sheaf');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Choose at least one event.');

  // "Select all" of a group ticks its kinds; one unticked leaves it mixed.
  const clients = dialog.getByRole('group', { name: 'Clients' });
  await toggle(clients.getByRole('checkbox', { name: 'Select all Clients events' }));
  for (const kind of ['client.created', 'client.updated', 'client.archived', 'client.deleted']) {
    await expect(clients.getByRole('checkbox', { name: new RegExp(kind.replace('.', '\\.')) })).toBeChecked();
  }
  await toggle(clients.getByRole('checkbox', { name: /client\.deleted/ }));
  await expect(clients.getByRole('checkbox', { name: 'Select all Clients events' })).toBeChecked({ indeterminate: true });
  await toggle(dialog.getByRole('group', { name: 'Invoices' }).getByRole('checkbox', { name: /invoice\.paid/ }));
  await dialog.getByRole('textbox', { name: 'Description (optional)' }).fill('Accounting sync');

  // A private address: the server's message under the URL field.
  await url.fill('http://127.0.0.1:9/x');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByText('This address is in a private network (such as 10.x.x.x or localhost), which Sheaf does not post to. Use an address the internet can reach; whoever runs Sheaf can allow private ones.')).toBeVisible();
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'the new endpoint dialog with an error');
  await checkPage(page, 'webhooks-new-error');

  // Not http(s): refused the same way.
  await url.fill('ftp://x');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(dialog.getByText('Sheaf posts events over http or https only: start the address with https:// (or http://).')).toBeVisible();
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  // The refused field takes the focus, so its message is in view however far the button is below it.
  await expect(url).toBeFocused();
  expect((await workspace.api('GET', '/web/api/webhook_endpoints')).body.webhook_endpoints).toEqual([]);

  // A public name is accepted: the secret is shown once, in its own dialog.
  await url.fill('https://hooks.example.com/sheaf');
  await dialog.getByRole('button', { name: 'Add endpoint' }).click();
  const secretDialog = page.getByRole('dialog', { name: 'Copy the signing secret now' });
  const secretText = secretDialog.getByText(SECRET);
  await expect(secretText).toBeVisible();
  const secret = (await secretText.textContent())!;
  await expect(secretDialog).toContainText('This is the only time the secret is shown.');
  await expect(secretDialog).toContainText('webhook-signature header');
  await expect(secretDialog).toContainText('Standard Webhooks libraries');
  await expect(secretDialog.getByRole('button', { name: 'Copy secret' })).toBeVisible();
  await checkPage(page, 'webhooks-secret');
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await expect(secretDialog).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'The webhook endpoint https://hooks.example.com/sheaf is added.' })).toBeVisible();

  const card = page.getByRole('list', { name: 'Webhook endpoints' }).getByRole('listitem').filter({ hasText: 'https://hooks.example.com/sheaf' });
  await expect(card).toContainText('Accounting sync');
  await expect(card).toContainText('4 events · Invoices: paid · Clients: created, updated, archived');
  await expect(card).toContainText('Active');
  await expect(card).toContainText('0 pending');
  await expect(card).toContainText('0 failed');
  await checkPage(page, 'webhooks-list');
  // Never again: not after a reload, not from the API.
  await page.reload();
  await expect(card).toBeVisible();
  await expect(page.getByText(/whsec_/)).toHaveCount(0);
  const [stored] = (await workspace.api('GET', '/web/api/webhook_endpoints')).body.webhook_endpoints;
  expect(stored).not.toHaveProperty('secret');
  expect(stored.events).toEqual(['invoice.paid', 'client.created', 'client.updated', 'client.archived']);

  // Edit the events: all the invoices' kinds, no clients.
  await card.getByRole('button', { name: 'Edit https://hooks.example.com/sheaf' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit the webhook endpoint' });
  await expect(edit.getByRole('textbox', { name: 'URL' })).toHaveValue('https://hooks.example.com/sheaf');
  await expect(edit.getByRole('checkbox', { name: /invoice\.paid/ })).toBeChecked();
  // Clients are partly chosen: "select all" first ticks them all, then clears them.
  const allClients = edit.getByRole('checkbox', { name: 'Select all Clients events' });
  await toggle(allClients);
  await expect(edit.getByRole('checkbox', { name: /client\.deleted/ })).toBeChecked();
  await toggle(allClients);
  await expect(edit.getByRole('group', { name: 'Clients' }).getByRole('checkbox', { checked: true })).toHaveCount(0);
  await toggle(edit.getByRole('checkbox', { name: 'Select all Invoices events' }));
  await checkPage(page, 'webhooks-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);
  await expect(card).toContainText('5 events · Invoices: all');
  expect((await workspace.api('GET', `/web/api/webhook_endpoints/${stored.id}`)).body.events).toEqual([
    'invoice.created',
    'invoice.updated',
    'invoice.sent',
    'invoice.paid',
    'invoice.deleted',
  ]);
  await expectClean(page);
});

test('an endpoint’s page: off and on, a rotated secret, the delivery log, resend and delete', async ({ page, workspace, sheaf }) => {
  test.setTimeout(480_000);
  const endpoint = await ok(workspace.api('POST', '/web/api/webhook_endpoints', { url: 'https://hooks.example.com/sheaf', events: ['client.created'], description: 'CRM' }));
  // 51 clients: one page of the log (50) and an older one.
  for (let i = 1; i <= 51; i++) await ok(workspace.api('POST', '/api/v2/clients', { name: `Client ${i}` }));
  // The server's worker would make their deliveries within a second; here, before the page is open.
  await fannedOut(sheaf.db);

  const calls = await visit(page, `/settings/webhooks/${endpoint.id}`, 'webhooks-endpoint');
  expect(calls.filter((c) => c.startsWith('GET /web/api/webhook_endpoints')).sort(), calls.join(', ')).toEqual([
    `GET /web/api/webhook_endpoints/${endpoint.id}`,
    `GET /web/api/webhook_endpoints/${endpoint.id}/deliveries`,
  ]);
  await expect(page.getByRole('heading', { level: 1, name: 'https://hooks.example.com/sheaf' })).toBeVisible();
  await expect(settingsNav(page).getByRole('link', { name: 'Webhooks' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('CRM')).toBeVisible();
  await expect(page.getByText('Clients: created')).toBeVisible();

  // The log: newest first, one row per client, 50 at a time.
  const log = page.getByRole('table', { name: 'Deliveries to https://hooks.example.com/sheaf, newest first' });
  const rows = log.getByRole('row').filter({ hasText: 'client.created' });
  await expect(rows).toHaveCount(50);
  await expect(rows.first()).toContainText(/Pending|Failed|Delivered/);
  await page.getByRole('button', { name: 'Load older deliveries' }).click();
  await expect(rows).toHaveCount(51);
  await expect(page.getByRole('button', { name: 'Load older deliveries' })).toHaveCount(0);

  // Resend the newest: it shows pending (again).
  const first = rows.first();
  await first.getByRole('button', { name: /^Resend client\.created of / }).click();
  await expect(first.getByText('Pending')).toBeVisible();
  await expect(first).toContainText('Due now');
  const [newest] = (await workspace.api('GET', `/web/api/webhook_endpoints/${endpoint.id}/deliveries?per_page=1`)).body.deliveries;
  expect(newest).toMatchObject({ event_type: 'client.created', state: 'pending', attempts: 0 });

  // Off and on, at once.
  const active = page.getByRole('switch', { name: 'Active' });
  await expect(active).toBeChecked();
  await toggle(active);
  await expect(active).not.toBeChecked();
  await expect(page.getByText('Off: it gets no new events.')).toBeVisible();
  expect((await workspace.api('GET', `/web/api/webhook_endpoints/${endpoint.id}`)).body.is_active).toBe(false);
  await checkPage(page, 'webhooks-endpoint-off');
  await toggle(active);
  await expect(active).toBeChecked();
  await expect(page.getByText('On: events are sent to it.')).toBeVisible();
  expect((await workspace.api('GET', `/web/api/webhook_endpoints/${endpoint.id}`)).body.is_active).toBe(true);

  // Rotate: asked first, then the new secret once; the old one signs for another 24 hours.
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
  await expect(rotate).toContainText('For 24 hours, deliveries are signed with both the new and the old secret');
  await expectAccessible(page, 'the rotate dialog');
  await rotate.getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = page.getByRole('dialog', { name: 'Copy the new signing secret now' });
  const secretText = rotated.getByText(SECRET);
  await expect(secretText).toBeVisible();
  const secret = (await secretText.textContent())!;
  expect(secret).not.toBe(endpoint.secret);
  await expect(rotated).toContainText('This is the only time the secret is shown.');
  await checkPage(page, 'webhooks-rotated');
  await page.keyboard.press('Escape');
  await expect(rotated).toHaveCount(0);
  await expect(page.getByText(/whsec_/)).toHaveCount(0);
  await expect(page.getByText(/The previous secret also signs until /)).toBeVisible();

  // Delete: asked first; back on the list, it is gone.
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this webhook endpoint?' });
  await expect(confirm).toContainText('Its delivery log goes with it');
  await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(page).toHaveURL(/\/settings\/webhooks$/);
  await expect(page.getByRole('status').filter({ hasText: 'The webhook endpoint https://hooks.example.com/sheaf is deleted.' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'No webhook endpoints yet' })).toBeVisible();
  expect((await workspace.api('GET', '/web/api/webhook_endpoints')).body.webhook_endpoints).toEqual([]);
  await expectClean(page);
});

test('an endpoint Sheaf turned off says why, and turning it on makes you its administrator', async ({ page, workspace, sheaf }) => {
  test.setTimeout(300_000);
  // Ada, an administrator, adds it; once she is a member again, the delivery worker turns it off.
  const ada = await workspace.seed.memberWithPassword('Ada', 'administrator');
  const endpoint = await ok(workspace.api('POST', '/web/api/webhook_endpoints', { url: 'https://hooks.example.com/off', events: ['client.created'] }, ada.id));
  await ok(workspace.api('PATCH', `/web/api/members/${ada.id}`, { role: 'member' }));
  const reason = 'Turned off by Sheaf: whoever added it or last turned it on is no longer an administrator. Turn it on, and its events carry your view.';
  const card = page.getByRole('list', { name: 'Webhook endpoints' }).getByRole('listitem');
  // Off from the moment Ada is no longer an administrator, before any event reaches the worker.
  await visit(page, '/settings/webhooks', 'webhooks-held');
  await expect(card).toContainText('Off');
  await expect(card).toContainText(reason);
  await ok(workspace.api('POST', '/api/v2/clients', { name: 'Initech' }));
  await deliverDueWebhooks({ db: sheaf.db, clock: sheaf.clock.now, allowPrivate: false, baseUrl: sheaf.url });

  await visit(page, '/settings/webhooks', 'webhooks-disabled');
  await expect(card).toContainText('Off');
  await expect(card).toContainText(reason);
  await expect(card).toContainText('1 pending');
  await card.getByRole('link', { name: 'https://hooks.example.com/off' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'https://hooks.example.com/off' })).toBeVisible();
  await expect(page.getByText(reason)).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'Ada Tester' })).toBeVisible();
  // What waits for it is not "due now": it goes once the endpoint is on again.
  const held = page.getByRole('table', { name: /^Deliveries to / }).getByRole('row').filter({ hasText: 'client.created' });
  await expect(held).toContainText('Waits until the endpoint is turned on');
  await checkPage(page, 'webhooks-disabled-endpoint');
  const active = page.getByRole('switch', { name: 'Active' });
  await expect(active).not.toBeChecked();
  await toggle(active);
  await expect(active).toBeChecked();
  await expect(page.getByText(reason)).toHaveCount(0);
  await expect(page.getByRole('definition').filter({ hasText: 'Olive Owner' })).toBeVisible();
  expect((await workspace.api('GET', `/web/api/webhook_endpoints/${endpoint.id}`)).body).toMatchObject({ is_active: true, disabled_reason: null });
  await expectClean(page);
});

test('a long URL and long errors: the delivery log fits beside the settings’ navigation at 1280 px, in English and German', async ({ page, workspace, sheaf }) => {
  test.setTimeout(300_000);
  const url = 'https://automation.integrationen.beispiel-unternehmen.example/webhooks/sheaf/eingehend/7f3c9a2e-41b8-4c1d-9e6a-2b5d8f0c3a71?quelle=zeiterfassung&signatur=pruefen';
  const host = new URL(url).hostname;
  const endpoint = await ok(workspace.api('POST', '/web/api/webhook_endpoints', { url, events: ['client.created', 'project.created', 'time_entry.created'], description: 'Buchhaltung und Controlling (DATEV-Export)' }));
  const project = await workspace.seed.project({ client: 'Bundesanstalt für Landwirtschaft und Ernährung', name: 'Relaunch der Unternehmenswebsite mit Barrierefreiheitsprüfung', tasks: ['Konzeption'] });
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: project.taskIds[0], spent_date: '2026-01-06', hours: 1.5 }));
  // The receiver's name stands for a private address, or for none: each attempt fails with a long error (and waits for its next).
  let n = 0;
  const resolve = async (name: string) => {
    if (n++ % 2 === 0) return [{ address: '10.20.30.40', family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  };
  await fannedOut(sheaf.db);
  // Until each of the three was tried once: a pass may claim only some (a record's events wait for the fan-out).
  const untried = async () =>
    Number((await sheaf.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll().as('n')).where('endpoint_id', '=', endpoint.id).where('attempts', '=', 0).executeTakeFirstOrThrow()).n);
  // One moment for every pass: a failed attempt is due again 5 s later, and a retry in a later pass
  // would take another of the alternating answers (on a loaded machine passes can be 5 s apart).
  const moment = sheaf.clock.now();
  for (let pass = 0; pass < 20 && (pass === 0 || (await untried()) > 0); pass++) {
    await deliverDueWebhooks({ db: sheaf.db, clock: () => moment, allowPrivate: false, baseUrl: sheaf.url, resolve });
  }
  expect(await untried()).toBe(0);

  await visit(page, `/settings/webhooks/${endpoint.id}`, 'webhooks-long');
  const log = page.getByRole('table', { name: `Deliveries to ${url}, newest first` });
  await expect(log.getByRole('row').filter({ hasText: 'time_entry.created' })).toContainText(/Pending/);
  // Both long errors are in the log (how the attempts fall between the two answers varies with the passes: at least one each).
  await expect(log.getByRole('row').filter({ hasText: `${host} resolves to 10.20.30.40, a private, loopback or link-local address` }).first()).toBeVisible();
  await expect(log.getByRole('row').filter({ hasText: `getaddrinfo ENOTFOUND ${host}` }).first()).toBeVisible();
  const region = page.getByRole('region', { name: `Deliveries to ${url}, newest first` });
  await expectNoSidewaysScroll(page, region, 1280);
  await expectNoSidewaysScroll(page, region, 390);

  await workspace.seed.german();
  await visit(page, `/settings/webhooks/${endpoint.id}`, 'webhooks-long-de');
  await expect(page.getByRole('table', { name: `Zustellungen an ${url}, neueste zuerst` }).getByRole('row').filter({ hasText: 'project.created' })).toContainText('Ausstehend');
  const regionDe = page.getByRole('region', { name: `Zustellungen an ${url}, neueste zuerst` });
  await expectNoSidewaysScroll(page, regionDe, 1280);
  await expectNoSidewaysScroll(page, regionDe, 390);
  await expectClean(page);
});

test.describe('as a member', () => {
  test.use({ signedIn: false });
  test('a member finds no webhooks in the settings, and the address says why', async ({ page, workspace }) => {
    test.setTimeout(300_000);
    const mia = await workspace.seed.member('Mia');
    await signIn(page, mia);
    await visit(page, '/settings/profile', 'webhooks-member-settings');
    await expect(settingsNav(page).getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(settingsNav(page).getByRole('link', { name: 'Webhooks' })).toHaveCount(0);
    const calls = await visit(page, '/settings/webhooks', 'webhooks-member');
    await expect(page.getByRole('heading', { level: 1, name: 'Not available to your role' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add endpoint' })).toHaveCount(0);
    expect(calls.filter((c) => c.includes('webhook')), calls.join(', ')).toEqual([]);
    // The server agrees.
    expect((await workspace.api('GET', '/web/api/webhook_endpoints', undefined, mia.id)).status).toBe(403);
    await expectClean(page);
  });
});

test('the webhooks pages in German', async ({ page, workspace, sheaf }) => {
  test.setTimeout(300_000);
  await workspace.seed.german();
  await visit(page, '/settings/webhooks', 'webhooks-de-empty');
  await expect(settingsNav(page, 'Einstellungen').getByRole('link', { name: 'Webhooks' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Noch keine Webhook-Endpunkte' })).toBeVisible();
  await page.getByRole('button', { name: 'Endpunkt hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neuer Webhook-Endpunkt' });
  await expect(dialog.getByRole('textbox', { name: 'Beschreibung (optional)' })).toBeVisible();
  await expect(dialog.getByRole('group', { name: 'Zeiteinträge' }).getByRole('checkbox', { name: /Angelegt time_entry\.created/ })).toBeVisible();
  await expect(dialog.getByRole('checkbox', { name: 'Alle wählen: Kunden' })).toBeVisible();
  await checkPage(page, 'webhooks-de-new');
  // A refused URL is worded in the reader's language, not in the API's English.
  const url = dialog.getByRole('textbox', { name: 'URL' });
  await url.fill('https://nutzer:geheim@hooks.example.com/sheaf');
  await toggle(dialog.getByRole('checkbox', { name: 'Alle wählen: Kunden' }));
  await dialog.getByRole('button', { name: 'Endpunkt hinzufügen' }).click();
  await expect(dialog.getByText('Lassen Sie Benutzername und Passwort aus der Adresse weg: Der Empfänger prüft stattdessen die Signatur jedes Ereignisses.')).toBeVisible();
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Escape');

  const endpoint = await ok(workspace.api('POST', '/web/api/webhook_endpoints', { url: 'https://hooks.example.com/sheaf', events: ['client.created', 'client.deleted'] }));
  await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex' }));
  await fannedOut(sheaf.db);
  await visit(page, `/settings/webhooks/${endpoint.id}`, 'webhooks-de-endpoint');
  await expect(page.getByRole('heading', { level: 2, name: 'Zustellprotokoll' })).toBeVisible();
  await expect(page.getByText('Kunden: angelegt, gelöscht')).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Aktiv' })).toBeChecked();
  const row = page.getByRole('table', { name: /^Zustellungen an / }).getByRole('row').filter({ hasText: 'client.created' });
  await expect(row).toContainText(/Ausstehend|Fehlgeschlagen|Zugestellt/);
  await expect(row.getByRole('button', { name: /^client\.created vom .* erneut senden$/ })).toBeVisible();
  await expectClean(page);
});
