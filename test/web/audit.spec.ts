import type { Page } from '@playwright/test';
import { MANAGER_PERMISSIONS } from '../../src/db/types.ts';
import { deliverDueWebhooks } from '../../src/modules/integrations/webhooks/index.ts';
import { expect, ok, signIn as signInAs, test } from './fixtures.ts';
import { checkPage, expectNoSidewaysScroll, expectClean, visit } from './visit.ts';

/**
 * Settings → Audit log (issue 28 items 4 and 5): an owner sees a member's sign-in (with its
 * address) and failed sign-in, a key created and revoked, filters by kind
 * and person (the list follows, the URL and the CSV link carry the filters), an empty filtered
 * list says so; signs the member out everywhere on the Members page, which the log then
 * shows; changes to clients, projects, planning, a member's deactivation and a webhook endpoint
 * turned off and on read as sentences (no raw codes), in English and German; a member finds no
 * audit log. With long names, URLs and reasons the log fits beside the settings' navigation at
 * 1280 px and stacks at 390 px, in English and German. Screenshots at 1280 and 390 px
 * (checkPage); German three times.
 */

const settingsNav = (page: Page, name = 'Settings') => page.getByRole('navigation', { name });

test('an owner reads, filters and exports the audit log, and signs a member out everywhere', async ({ page, workspace, sheaf }) => {
  test.setTimeout(300_000);
  const mia = await workspace.seed.memberWithPassword('Mia');
  // Mia signs in (her own session), then someone fails with her address.
  const signIn = (password: string) => fetch(`${sheaf.url}/web/api/session`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'AuditSpec/1.0' }, body: JSON.stringify({ email: mia.email, password }) });
  expect((await signIn(mia.password)).status).toBe(200);
  expect((await signIn('not her password')).status).toBe(401);
  const key = await ok(workspace.api('POST', '/web/api/keys', { kind: 'integration', name: 'Zapier sync' }));
  await ok(workspace.api('DELETE', `/web/api/keys/${key.key.id}`));

  await visit(page, '/settings/workspace', 'audit-nav');
  await settingsNav(page).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const calls = await visit(page, '/settings/audit', 'audit-all');
  expect(calls.filter((c) => c === 'GET /web/api/audit_logs'), calls.join(', ')).toHaveLength(1);
  const table = page.getByRole('table', { name: 'Audit log entries, newest first' });
  const miaName = 'Mia';
  await expect(table.getByRole('row').filter({ hasText: 'Failed to sign in (wrong password)' })).toContainText(miaName);
  await expect(table.getByRole('row').filter({ hasText: /^.*Signed in.*$/ }).first()).toContainText(/from (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
  await expect(table.getByRole('row').filter({ hasText: 'Created the API key Zapier sync' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'Revoked the API key Zapier sync' })).toBeVisible();

  // Kind: sign-ins only; the URL and the CSV link carry it.
  await page.getByRole('button', { name: /Kind$/ }).click();
  await page.getByRole('option', { name: 'Sign-ins and sessions' }).click();
  await expect(page).toHaveURL(/[?&]kind=sign_ins/);
  await expect(table.getByRole('row').filter({ hasText: 'Created the API key' })).toHaveCount(0);
  await expect(table.getByRole('row').filter({ hasText: 'Failed to sign in' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/web/api/audit_logs.csv?kind=sign_ins');
  await checkPage(page, 'audit-sign-ins');

  // The CSV the link names: the same rows, as a file.
  const csv = await page.context().request.get('/web/api/audit_logs.csv?kind=sign_ins');
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
  const text = await csv.text();
  expect(text).toContain('session.sign_in_failed');
  expect(text).not.toContain('credential.created');

  // Person: the list follows the chosen person; a period in the future has nothing.
  await page.getByRole('button', { name: /Person$/ }).click();
  await page.getByRole('option', { name: new RegExp(`^${workspace.owner.firstName}`) }).click();
  await expect(page).toHaveURL(/[?&]person=/);
  await visit(page, `/settings/audit?kind=deletions&from=2099-01-01`, 'audit-empty');
  await expect(page.getByRole('heading', { level: 2, name: 'Nothing recorded' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(table.getByRole('row').filter({ hasText: 'Revoked the API key Zapier sync' })).toBeVisible();

  // Members: sign Mia out everywhere; the log says so.
  await visit(page, '/settings/members', 'audit-members');
  await page.getByRole('button', { name: /^Sign out Mia.* everywhere$/ }).click();
  const dialog = page.getByRole('dialog', { name: /^Sign out Mia.* everywhere\?$/ });
  await expect(dialog).toContainText('their API keys keep working');
  await checkPage(page, 'audit-sign-out-dialog');
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('status').filter({ hasText: /was signed out of 1 session\./ })).toBeVisible();
  await visit(page, '/settings/audit?kind=sign_ins', 'audit-signed-out');
  await expect(table.getByRole('row').filter({ hasText: /Signed Mia.* out everywhere/ })).toBeVisible();
  await expectClean(page);
});

test('the audit log words changes to records, members and webhook endpoints, in English and German', async ({ page, workspace }) => {
  test.setTimeout(200_000);
  const mia = await workspace.seed.memberWithPassword('Mia');
  const project = await workspace.seed.project({ client: 'Globex', name: 'Website', tasks: ['Design'] });
  const { client_id: clientId } = await ok(workspace.api('GET', `/api/v2/projects/${project.id}`)).then((p) => ({ client_id: p.client.id as string }));
  await ok(workspace.api('PATCH', `/api/v2/clients/${clientId}`, { address: 'Main Street 1' }));
  await ok(workspace.api('PATCH', `/api/v2/projects/${project.id}`, { notes: 'Relaunch' }));
  await ok(workspace.api('POST', '/web/api/planning_assignments', { project_id: project.id, user_id: mia.id, starts_on: '2026-06-08', ends_on: '2026-06-12', hours_per_day: 4 }));
  await ok(workspace.api('PATCH', `/web/api/members/${mia.id}`, { is_active: false }));
  const hook = await ok(workspace.api('POST', '/web/api/webhook_endpoints', { url: 'https://hooks.example.com/sheaf', events: ['client.created'] }));
  await ok(workspace.api('PATCH', `/web/api/webhook_endpoints/${hook.id}`, { is_active: false }));
  await ok(workspace.api('PATCH', `/web/api/webhook_endpoints/${hook.id}`, { is_active: true }));

  await visit(page, '/settings/audit', 'audit-words');
  const table = page.getByRole('table', { name: 'Audit log entries, newest first' });
  const row = (text: string) => table.getByRole('row').filter({ hasText: text });
  await expect(row('Changed the client Globex')).toBeVisible();
  await expect(row('Changed the project Website')).toBeVisible();
  await expect(row('Planned work on Website')).toBeVisible();
  await expect(row('Deactivated Mia Tester')).toBeVisible();
  await expect(row('Turned off the webhook endpoint https://hooks.example.com/sheaf')).toBeVisible();
  await expect(row('Turned on the webhook endpoint https://hooks.example.com/sheaf')).toBeVisible();
  // Every action is a sentence: no raw code in the list.
  await expect(table.locator('code')).toHaveCount(0);

  await workspace.seed.german();
  await visit(page, '/settings/audit', 'audit-words-de');
  const tableDe = page.getByRole('table', { name: 'Protokolleinträge, neueste zuerst' });
  const rowDe = (text: string) => tableDe.getByRole('row').filter({ hasText: text });
  await expect(rowDe('Kunde Globex geändert')).toBeVisible();
  await expect(rowDe('Projekt Website geändert')).toBeVisible();
  await expect(rowDe('Arbeit an Website eingeplant')).toBeVisible();
  await expect(rowDe('Mia Tester deaktiviert')).toBeVisible();
  await expect(rowDe('Webhook-Endpunkt https://hooks.example.com/sheaf ausgeschaltet')).toBeVisible();
  await expect(rowDe('Webhook-Endpunkt https://hooks.example.com/sheaf eingeschaltet')).toBeVisible();
  await expect(tableDe.locator('code')).toHaveCount(0);
  await expectClean(page);
});

test('long names, URLs and reasons: the log fits beside the settings’ navigation at 1280 px, in English and German', async ({ page, workspace, sheaf }) => {
  test.setTimeout(300_000);
  // A member with a long name signs in; a manager with every permission and a teammate becomes a member.
  const maxi = await workspace.seed.memberWithPassword('Maximiliane-Charlotte');
  const signedIn = await fetch(`${sheaf.url}/web/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: maxi.email, password: maxi.password }) });
  expect(signedIn.status).toBe(200);
  const konstantin = await workspace.seed.memberWithPassword('Konstantin-Alexander', 'manager');
  await ok(workspace.api('PATCH', `/web/api/members/${konstantin.id}`, { permissions: [...MANAGER_PERMISSIONS], teammate_ids: [maxi.id] }));
  await ok(workspace.api('PATCH', `/web/api/members/${konstantin.id}`, { role: 'member' }));
  // A long client and project, changed through a key with a long name.
  const key = await ok(workspace.api('POST', '/web/api/keys', { kind: 'integration', name: 'Buchhaltungs-Synchronisierung (DATEV-Export, nächtlich)' }));
  const viaKey = await fetch(`${sheaf.url}/api/v2/clients`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key.secret}`, 'service-account-id': workspace.id },
    body: JSON.stringify({ name: 'Bundesanstalt für Landwirtschaft und Ernährung (Referat 412, Digitalisierung)' }),
  });
  expect(viaKey.status).toBe(201);
  await workspace.seed.project({ client: 'Landesbetrieb Straßenbau Nordrhein-Westfalen', name: 'Relaunch der Unternehmenswebsite mit Barrierefreiheitsprüfung', tasks: ['Konzeption'] });
  // A webhook endpoint with a long URL, added by an administrator who is then a member: Sheaf turns it off, with its reason.
  const ada = await workspace.seed.memberWithPassword('Ada', 'administrator');
  const url = 'https://automation.integrationen.beispiel-unternehmen.example/webhooks/sheaf/eingehend/7f3c9a2e-41b8-4c1d-9e6a-2b5d8f0c3a71?quelle=zeiterfassung';
  await ok(workspace.api('POST', '/web/api/webhook_endpoints', { url, events: ['client.created'] }, ada.id));
  await ok(workspace.api('PATCH', `/web/api/members/${ada.id}`, { role: 'member' }));
  await ok(workspace.api('POST', '/api/v2/clients', { name: 'Initech' }));
  await deliverDueWebhooks({ db: sheaf.db, clock: sheaf.clock.now, allowPrivate: false, baseUrl: sheaf.url });

  await visit(page, '/settings/audit', 'audit-long');
  const table = page.getByRole('table', { name: 'Audit log entries, newest first' });
  const row = (text: string) => table.getByRole('row').filter({ hasText: text });
  await expect(row(`Turned off the webhook endpoint ${url} automatically`)).toContainText('The administrator whose view its events carry is no longer an active owner or administrator');
  await expect(row('Manager permissions removed: ')).toContainText('Changed the membership of Konstantin-Alexander Tester');
  await expect(row('Added the client Bundesanstalt für Landwirtschaft')).toContainText('key “Buchhaltungs-Synchronisierung (DATEV-Export, nächtlich)”');
  await expect(row('Added the project Relaunch der Unternehmenswebsite mit Barrierefreiheitsprüfung')).toBeVisible();
  const region = page.getByRole('region', { name: 'Audit log entries, newest first' });
  await expectNoSidewaysScroll(page, region, 1280);
  await expectNoSidewaysScroll(page, region, 390);

  await workspace.seed.german();
  await visit(page, '/settings/audit', 'audit-long-de');
  const rowDe = (text: string) => page.getByRole('table', { name: 'Protokolleinträge, neueste zuerst' }).getByRole('row').filter({ hasText: text });
  await expect(rowDe('Manager-Rechte entfernt: ')).toContainText('Konstantin-Alexander Tester');
  await expect(rowDe(`Webhook-Endpunkt ${url} automatisch ausgeschaltet`)).toContainText('Die Person, deren Sicht seine Ereignisse tragen, ist nicht mehr aktiv als Inhaber oder Administrator');
  const regionDe = page.getByRole('region', { name: 'Protokolleinträge, neueste zuerst' });
  await expectNoSidewaysScroll(page, regionDe, 1280);
  await expectNoSidewaysScroll(page, regionDe, 390);
  await expectClean(page);
});

test('a member finds no audit log', async ({ page, workspace }) => {
  const mia = await workspace.seed.memberWithPassword('Mia');
  await page.context().clearCookies();
  await signInAs(page, mia);
  await visit(page, '/settings/profile', 'audit-member-profile');
  await expect(settingsNav(page).getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  const calls = await visit(page, '/settings/audit', 'audit-member');
  await expect(page.getByRole('heading', { level: 1, name: 'Not available to your role' })).toBeVisible();
  expect(calls.filter((c) => c.includes('audit')), calls.join(', ')).toEqual([]);
  expect((await workspace.api('GET', '/web/api/audit_logs', undefined, mia.id)).status).toBe(403);
  await expectClean(page);
});

test('the audit log in German', async ({ page, workspace }) => {
  test.setTimeout(200_000);
  await workspace.seed.german();
  const key = await ok(workspace.api('POST', '/web/api/keys', { kind: 'integration', name: 'Zapier sync' }));
  await ok(workspace.api('DELETE', `/web/api/keys/${key.key.id}`));
  await visit(page, '/settings/audit', 'audit-de');
  await expect(settingsNav(page, 'Einstellungen').getByRole('link', { name: 'Protokoll' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Protokoll' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Protokolleinträge, neueste zuerst' }).getByRole('row').filter({ hasText: 'API-Schlüssel Zapier sync widerrufen' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Als CSV exportieren' })).toBeVisible();
  await expectClean(page);
});
