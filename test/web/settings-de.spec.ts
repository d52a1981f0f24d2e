import { expect, test } from './fixtures.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

/**
 * The settings, members and approvals pages in German (issue 21 items 11 and 12): the owner
 * prefers German, day-month-year dates and decimal hours; headings, buttons and empty states
 * read German, dates follow DD.MM.YYYY, hours have a German comma and money German grouping.
 */

async function ok(pending: Promise<{ status: number; body: any }>) {
  const res = await pending;
  if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A calendar day (YYYY-MM-DD) as DD.MM.YYYY. */
const de = (date: string) => date.split('-').reverse().join('.');

test('workspace settings and profile in German', async ({ page, workspace }) => {
  await workspace.seed.german();

  await visit(page, '/settings/workspace', 'settings-workspace-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Arbeitsbereich' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Zeit und Geld' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Name des Arbeitsbereichs' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Freigabe von Stundenzetteln' })).toBeAttached();
  await page.getByRole('textbox', { name: 'Zeitzone' }).fill('Mars/Olympus');
  await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
  await expect(page.getByText('Geben Sie eine IANA-Zeitzone wie Europe/Berlin ein.')).toBeVisible();

  await visit(page, '/settings/profile', 'settings-profile-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Profil' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Sprache$/ })).toContainText('Deutsch');
  await expect(page.getByRole('button', { name: /Datumsangaben$/ })).toContainText('31.01.2025');
  await expect(page.getByRole('button', { name: /Dauern$/ })).toContainText('1,50 (Dezimalstunden)');
  // The session list says when, in the person's date pattern (today, in the workspace's zone).
  const sessions = page.getByRole('list', { name: 'Sitzungen' });
  await expect(sessions.getByRole('listitem').first()).toContainText(/Angemeldet \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/);
  await expect(sessions.getByRole('listitem', { name: /dieser Browser$/ })).toBeVisible();

  // Back to English: the page switches at once.
  await page.getByRole('button', { name: /Sprache$/ }).click();
  await page.getByRole('option', { name: 'English' }).click();
  await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Your preferences are saved.' })).toBeVisible();
  await expectClean(page);
});

test('members, invitations and expense categories in German', async ({ page, workspace }) => {
  await workspace.seed.german();
  await workspace.seed.memberWithPassword('Mia');
  await ok(workspace.api('POST', '/web/api/invitations', { email: 'nina@example.org', role: 'manager', is_contractor: true }));

  await visit(page, '/settings/members', 'settings-members-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Mitglieder' })).toBeVisible();
  const members = page.getByRole('list', { name: 'Mitglieder' });
  await expect(members.getByRole('listitem').filter({ hasText: 'Mia' })).toContainText('Mitglied');
  await expect(members.getByRole('listitem').filter({ hasText: 'Olive' })).toContainText('Inhaber');
  await page.getByRole('button', { name: 'Mia Tester bearbeiten' }).click();
  const edit = page.getByRole('dialog', { name: 'Mia Tester bearbeiten' });
  await expect(edit.getByRole('textbox', { name: 'Erwartete Stunden pro Woche' })).toBeVisible();
  await expectAccessible(page, 'members edit dialog in German');
  await page.keyboard.press('Escape');

  await visit(page, '/settings/invitations', 'settings-invitations-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Einladungen' })).toBeVisible();
  const invitation = page.getByRole('list', { name: 'Einladungen' }).getByRole('listitem').filter({ hasText: 'nina@example.org' });
  await expect(invitation).toContainText('Manager, freie Mitarbeit · Offen');
  await expect(invitation).toContainText(/läuft ab \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/);
  await expect(page.getByRole('button', { name: 'Die Einladung an nina@example.org widerrufen' })).toBeVisible();
  await page.getByRole('button', { name: 'Jemanden einladen' }).click();
  const invite = page.getByRole('dialog', { name: 'Jemanden einladen' });
  // The browser's own checks speak the profile's language, not the browser's (English here).
  await invite.getByRole('button', { name: 'Einladung senden' }).click();
  await expect(invite.getByText('Füllen Sie dieses Feld aus.')).toBeVisible();
  await invite.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill('nina');
  await invite.getByRole('button', { name: 'Einladung senden' }).click();
  await expect(invite.getByText('Geben Sie eine E-Mail-Adresse ein, etwa name@example.com.')).toBeVisible();
  // An address the browser takes but the server would not (no dot in the domain) is said the same way.
  await invite.getByRole('textbox', { name: 'E-Mail-Adresse' }).fill('nina@example');
  await invite.getByRole('button', { name: 'Einladung senden' }).click();
  await expect(invite.getByText('Geben Sie eine E-Mail-Adresse ein, etwa name@example.com.')).toBeVisible();
  await expect(invite).not.toContainText('Please');
  await page.keyboard.press('Escape');

  await visit(page, '/settings/expense-categories', 'settings-expense-categories-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Ausgabenkategorien' })).toBeVisible();
  await page.getByRole('button', { name: 'Neue Kategorie' }).click();
  const dialog = page.getByRole('dialog', { name: 'Neue Ausgabenkategorie' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Kilometergeld');
  await dialog.getByRole('textbox', { name: 'Einheit (optional)' }).fill('km');
  await dialog.getByRole('textbox', { name: 'Stückpreis (optional)' }).fill('0,3'); // the number field reads the person's locale (German: a decimal comma)
  await dialog.getByRole('button', { name: 'Kategorie hinzufügen' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Kilometergeld ist hinzugefügt.' })).toBeVisible();
  const active = page.getByRole('list', { name: 'Aktive Kategorien' });
  await expect(active.getByRole('listitem').filter({ hasText: 'Kilometergeld' })).toContainText('0,30 pro km');
  await checkPage(page, 'settings-expense-categories-de-added');
});

test('approvals with a submitted week and its review in German', async ({ page, workspace }) => {
  test.slow(); // a dialog checked by axe besides the page
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: true, currency: 'EUR' }));
  await workspace.seed.german();
  const mia = await workspace.seed.memberWithPassword('Mia');
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex' }));
  const task = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const project = await ok(
    workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Website', task_ids: [task.id], is_billable: true, bill_by: 'project', hourly_rate: 823 }),
  );
  await ok(workspace.api('POST', `/api/v2/projects/${project.id}/user_assignments`, { user_id: mia.id }));
  await ok(workspace.api('PATCH', `/web/api/members/${mia.id}`, { expected_weekly_hours: '19.5' }));
  const week = await ok(workspace.api('GET', '/web/api/approvals/week', undefined, mia.id));
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: task.id, spent_date: week.from, hours: 1.5, notes: 'Startseite' }, mia.id));
  await ok(workspace.api('POST', '/api/v2/approvals/submit', { from: week.from, to: week.to }, mia.id));
  const range = `${de(week.from)} – ${de(week.to)}`;

  await visit(page, '/approvals', 'approvals-de');
  await expect(page.getByRole('heading', { level: 1, name: 'Freigaben' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: `Ihre Woche: ${range}` })).toBeVisible();
  await expect(page.getByText('In dieser Woche gibt es nichts einzureichen.')).toBeVisible();
  await expect(page.getByText('Keine freigegebenen Wochen in den letzten sechs Monaten.')).toBeVisible();
  const queue = page.getByRole('region', { name: 'Wartet auf Ihre Freigabe' });
  await expect(queue.getByRole('row', { name: /Mia Tester/ })).toContainText(range);
  await expect(queue.getByRole('row', { name: /Mia Tester/ })).toContainText('1,50');

  await queue.getByRole('button', { name: `Mia Tester, ${range} prüfen` }).click();
  const dialog = page.getByRole('dialog', { name: `Mia Tester, ${range}` });
  await expect(dialog).toContainText('1 Eintrag eingereicht.');
  const row = dialog.getByRole('row', { name: /Startseite/ });
  await expect(row).toContainText('1,50');
  await expect(row).toContainText('1.234,50 €');
  // The preflight's warning in German, its hours with a decimal comma.
  const warning = dialog.getByRole('checkbox', { name: '1,5 Std. erfasst, weniger als die für die Woche erwarteten 19,5 Std.' });
  await expect(warning).toBeVisible();
  const approve = dialog.getByRole('button', { name: 'Bestätigen und die Woche freigeben' });
  await expect(approve).toBeDisabled();
  await expectAccessible(page, 'approvals review dialog in German');
  await checkPage(page, 'approvals-review-de');
  await dialog.getByText('1,5 Std. erfasst', { exact: false }).click(); // React Aria's input is visually hidden: the label takes the click
  await expect(warning).toBeChecked();
  await approve.click();
  await expect(page.getByRole('status').filter({ hasText: `1 Eintrag von Mia Tester, ${range} freigegeben.` }).first()).toBeVisible();
  await expectClean(page);
});
