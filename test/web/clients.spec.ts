import { expect, signIn, test } from './fixtures.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

/**
 * The clients area (issue 16 item 4, clients and contacts): an administrator creates a
 * client with custom payment terms (the API's payment_days message beside the field),
 * edits it, adds a contact, archives, restores and deletes it; a stale edit is a 412 in
 * words with a reload; a double click or a retried create makes one client; managers
 * and members see only what they may.
 */

test('an administrator creates a client with custom terms, edits it, adds a contact, archives, restores and deletes it', async ({ page, workspace }) => {
  const calls = await visit(page, '/clients', 'clients-empty');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3); // session, timer, the list
  await expect(page.getByText('No clients yet.')).toBeVisible();

  await page.getByRole('link', { name: 'New client' }).click();
  await expect(page.getByRole('heading', { name: 'New client' })).toBeVisible();
  const form = page.getByRole('form', { name: 'New client' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Globex');
  await form.getByRole('textbox', { name: 'Address' }).fill('1 Main Street\nSpringfield');
  await form.getByRole('textbox', { name: 'Currency' }).fill('eur');
  await form.getByRole('button', { name: /Payment terms$/ }).click();
  await page.getByRole('option', { name: 'Custom' }).click();
  const days = form.getByRole('textbox', { name: 'Days until due' });
  await expect(days).toHaveAccessibleDescription('Custom terms need a number of days, from 0 to 365.');
  await checkPage(page, 'client-new');

  // Custom terms without days: the API's message, under the days field.
  await form.getByRole('button', { name: 'Create client' }).click();
  await expect(days).toHaveAccessibleDescription(/custom' payment term requires payment_days/);
  await expect(days).toHaveAttribute('aria-invalid', 'true');
  await days.fill('20');
  await form.getByRole('textbox', { name: 'Tax (%)', exact: true }).fill('7.5');
  await form.getByRole('button', { name: 'Create client' }).click();

  await expect(page).toHaveURL(/\/clients\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Globex' })).toBeVisible();
  const id = page.url().split('/').pop()!;
  let server = (await workspace.api('GET', `/api/v2/clients/${id}`)).body;
  expect(server).toMatchObject({ name: 'Globex', currency: 'EUR', payment_terms: 'custom', payment_days: 20, tax: 7.5, address: '1 Main Street\nSpringfield', is_active: true });

  // Edit: only the changed field travels.
  const edit = page.getByRole('form', { name: 'Edit client' });
  await expect(edit.getByRole('textbox', { name: 'Days until due' })).toHaveValue('20');
  const patches: unknown[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PATCH' && r.url().includes(`/api/v2/clients/${id}`)) patches.push({ body: r.postDataJSON(), ifMatch: r.headers()['if-match'] });
  });
  await edit.getByRole('textbox', { name: 'Discount (%)' }).fill('5');
  await edit.getByRole('button', { name: 'Save client' }).click();
  await expect(edit.getByRole('status')).toHaveText('Saved.');
  expect(patches).toEqual([{ body: { discount: 5 }, ifMatch: expect.stringMatching(/^"/) }]);
  server = (await workspace.api('GET', `/api/v2/clients/${id}`)).body;
  expect(server).toMatchObject({ discount: 5, tax: 7.5, payment_days: 20 });

  // The invoice language (the PDF's and the invoice e-mails' default texts).
  await edit.getByRole('button', { name: /Invoice language$/ }).click();
  await page.getByRole('option', { name: 'Deutsch (German)' }).click();
  await edit.getByRole('button', { name: 'Save client' }).click();
  await expect(edit.getByRole('status')).toHaveText('Saved.');
  expect(patches.at(-1)).toEqual({ body: { language: 'de' }, ifMatch: expect.stringMatching(/^"/) });
  expect((await workspace.api('GET', `/api/v2/clients/${id}`)).body.language).toBe('de');

  // A contact, with an Idempotency-Key.
  const keys: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/v2/contacts')) keys.push(r.headers()['idempotency-key']);
  });
  await page.getByRole('button', { name: 'Add contact' }).click();
  const dialog = page.getByRole('dialog', { name: 'New contact at Globex' });
  await dialog.getByRole('textbox', { name: 'First name' }).fill('Hank');
  await dialog.getByRole('textbox', { name: 'Last name' }).fill('Scorpio');
  await dialog.getByRole('textbox', { name: 'E-mail' }).fill('hank@globex.example');
  await expectAccessible(page, 'the new contact dialog');
  await dialog.getByRole('button', { name: 'Add contact' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('region', { name: 'Contacts' }).getByText('Hank Scorpio')).toBeVisible();
  expect(keys).toHaveLength(1);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  const contacts = (await workspace.api('GET', `/api/v2/contacts?client_id=${id}`)).body.contacts;
  expect(contacts).toMatchObject([{ first_name: 'Hank', last_name: 'Scorpio', email: 'hank@globex.example' }]);
  const pageCalls = await visit(page, `/clients/${id}`, 'client-page');
  expect(pageCalls.length, pageCalls.join(', ')).toBeLessThanOrEqual(4); // session, timer, the client, its contacts

  // Archive, restore, archive, delete.
  await page.getByRole('button', { name: 'Archive client' }).click();
  await expect(page.getByText('Archived', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Restore client' })).toBeVisible();
  expect((await workspace.api('GET', `/api/v2/clients/${id}`)).body.is_active).toBe(false);
  await page.getByRole('button', { name: 'Restore client' }).click();
  await expect(page.getByRole('button', { name: 'Archive client' })).toBeVisible();
  expect((await workspace.api('GET', `/api/v2/clients/${id}`)).body.is_active).toBe(true);
  await page.getByRole('button', { name: 'Archive client' }).click();
  await page.getByRole('button', { name: 'Delete client' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this client?' });
  await expectAccessible(page, 'the delete dialog');
  await confirm.getByRole('button', { name: 'Delete client' }).click();
  await expect(page).toHaveURL(/\/clients\?status=archived$/);
  await expect(page.getByText('No archived clients.')).toBeVisible();
  expect((await workspace.api('GET', `/api/v2/clients/${id}`)).status).toBe(404);
  await expectClean(page);
});

test('the list filters by status in the URL, searches by name, and archives from a row; the 409s are said in words', async ({ page, workspace }) => {
  for (const name of ['Acme Anvils', 'Bluth Company', 'Cyberdyne', 'Dunder Mifflin']) {
    expect((await workspace.api('POST', '/api/v2/clients', { name })).status).toBe(201);
  }
  await workspace.seed.project({ client: 'Initech', name: 'TPS reports', tasks: ['Design'] });
  await visit(page, '/clients', 'clients-list');
  await expect(page.getByRole('row')).toHaveCount(6); // header + 5
  await page.getByRole('searchbox', { name: 'Search by name' }).pressSequentially('dunder');
  await expect(page).toHaveURL(/q=dunder/);
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('row', { name: /Dunder Mifflin/ })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search by name' }).fill('');

  // Archive from a row; it leaves the active list and shows under Archived.
  await page.getByRole('button', { name: 'Archive Cyberdyne' }).click();
  await expect(page.getByRole('row', { name: /Cyberdyne/ })).toBeHidden();
  await page.getByRole('button', { name: /Show$/ }).click();
  await page.getByRole('option', { name: 'Archived clients' }).click();
  await expect(page).toHaveURL(/status=archived/);
  await expect(page.getByRole('row', { name: /Cyberdyne/ })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('row', { name: /Cyberdyne/ })).toBeVisible();
  await page.getByRole('button', { name: 'Restore Cyberdyne' }).click();
  await expect(page.getByRole('row', { name: /Cyberdyne/ })).toBeHidden();

  // A client with an active project cannot be archived: the rule's refusal, in the app's words.
  await page.goto('/clients');
  await page.getByRole('button', { name: 'Archive Initech' }).click();
  await expect(page.getByRole('alert')).toContainText('Initech: The client has 1 active project: archive it first.');

  // Deleting a client with a project: the 409's reason in the dialog, nothing deleted.
  const initech = (await workspace.api('GET', '/api/v2/clients')).body.clients.find((c: { name: string }) => c.name === 'Initech');
  const project = (await workspace.api('GET', '/api/v2/projects')).body.projects[0];
  expect((await workspace.api('PATCH', `/api/v2/projects/${project.id}`, { is_active: false })).status).toBe(200);
  expect((await workspace.api('PATCH', `/api/v2/clients/${initech.id}`, { is_active: false })).status).toBe(200);
  await page.goto(`/clients/${initech.id}`);
  await page.getByRole('button', { name: 'Delete client' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete client' }).click();
  await expect(page.getByRole('dialog').getByRole('alert')).toContainText('The client has 1 project: delete it first.');
  expect((await workspace.api('GET', `/api/v2/clients/${initech.id}`)).status).toBe(200);
  await expectClean(page);
});

test('a stale edit is refused with a reload action', async ({ page, workspace }) => {
  const { body: client } = await workspace.api('POST', '/api/v2/clients', { name: 'Vandelay Industries' });
  await visit(page, `/clients/${client.id}`, 'client-stale');
  const form = page.getByRole('form', { name: 'Edit client' });
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Vandelay Industries');

  // Someone else changes it meanwhile.
  expect((await workspace.api('PATCH', `/api/v2/clients/${client.id}`, { address: 'Importer street 1' })).status).toBe(200);

  await form.getByRole('textbox', { name: 'Tax (%)', exact: true }).fill('10');
  await form.getByRole('button', { name: 'Save client' }).click();
  const stale = page.getByRole('alert').filter({ hasText: 'Someone else changed this client' });
  await expect(stale).toContainText('Reload to see their version');
  expect((await workspace.api('GET', `/api/v2/clients/${client.id}`)).body.tax).toBeNull();
  await checkPage(page, 'client-stale-412');

  await stale.getByRole('button', { name: 'Reload client' }).click();
  await expect(form.getByRole('textbox', { name: 'Address' })).toHaveValue('Importer street 1');
  await expect(stale).toBeHidden();
  await form.getByRole('textbox', { name: 'Tax (%)', exact: true }).fill('10');
  await form.getByRole('button', { name: 'Save client' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');
  expect((await workspace.api('GET', `/api/v2/clients/${client.id}`)).body).toMatchObject({ tax: 10, address: 'Importer street 1' });
  await expectClean(page);
});

test('a double click, or a create retried after a lost answer, makes one client', async ({ page, workspace }) => {
  const keys: string[] = [];
  let dropFirst = true;
  await page.route('**/api/v2/clients', async (route) => {
    const request = route.request();
    if (request.method() !== 'POST') return route.continue();
    keys.push(request.headers()['idempotency-key']);
    if (dropFirst) {
      // The server creates it, but the answer never reaches the browser.
      dropFirst = false;
      await route.fetch();
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  await page.goto('/clients/new');
  const form = page.getByRole('form', { name: 'New client' });
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Soylent');
  // The lost answer is retried by itself with the same key (the server replays its answer); a double click adds nothing.
  await form.getByRole('button', { name: 'Create client' }).dblclick();
  await expect(page).toHaveURL(/\/clients\/[0-9a-f-]{36}$/);
  expect(keys.length).toBeGreaterThanOrEqual(2);
  expect(new Set(keys).size).toBe(1);
  const clients = (await workspace.api('GET', '/api/v2/clients')).body.clients.filter((c: { name: string }) => c.name === 'Soylent');
  expect(clients).toHaveLength(1);
  await expect(page.getByRole('heading', { level: 1, name: 'Soylent' })).toBeVisible();
});

test('managers and members see only what their role allows', async ({ page, workspace }) => {
  const ours = await workspace.api('POST', '/api/v2/clients', { name: 'Wonka', payment_terms: 'net_30', tax: 19 });
  expect(ours.status).toBe(201);
  const mia = await workspace.seed.member('Mia');
  await workspace.seed.project({ client: 'Gringotts', name: 'Vault audit', tasks: ['Counting'], members: [mia.id] });
  const gringotts = (await workspace.api('GET', '/api/v2/clients')).body.clients.find((c: { name: string }) => c.name === 'Gringotts');

  // A member: the clients of their projects, read-only, without invoicing defaults.
  await signIn(page, mia);
  await visit(page, '/clients', 'clients-member');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clients' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Gringotts/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Wonka/ })).toBeHidden();
  await expect(page.getByRole('link', { name: 'New client' })).toBeHidden();
  await expect(page.getByRole('button', { name: /^Archive/ })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Payment terms' })).toBeHidden();
  await page.getByRole('link', { name: 'Gringotts' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Gringotts' })).toBeVisible();
  await expect(page.getByRole('form')).toHaveCount(0);
  await expect(page.getByText('Payment terms')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Add contact' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Archive client' })).toBeHidden();
  await checkPage(page, 'client-member');
  await page.goto(`/clients/${ours.body.id}`);
  await expect(page.getByRole('alert')).toContainText('not found');

  // A manager with "Edit clients and tasks": creates and edits, but cannot archive or delete.
  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  expect((await workspace.api('PATCH', `/web/api/members/${max.id}`, { permissions: ['edit_clients_and_tasks'] })).status).toBe(200);
  await page.context().clearCookies();
  await signIn(page, max);
  await visit(page, '/clients', 'clients-manager');
  await expect(page.getByRole('row', { name: /Wonka/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New client' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Archive/ })).toHaveCount(0);
  await page.getByRole('link', { name: 'Gringotts' }).click();
  const form = page.getByRole('form', { name: 'Edit client' });
  await expect(form).toBeVisible();
  await expect(form.getByRole('checkbox', { name: /Active/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Archive client' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Add contact' })).toBeVisible();
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Gringotts Bank');
  await form.getByRole('button', { name: 'Save client' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');
  expect((await workspace.api('GET', `/api/v2/clients/${gringotts.id}`)).body.name).toBe('Gringotts Bank');
  // The server still decides: archiving is refused to this manager.
  expect((await workspace.api('PATCH', `/api/v2/clients/${gringotts.id}`, { is_active: false }, max.id)).status).toBe(403);
  await expectClean(page);
});
