import { expect, test } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * The time pages and home in German (issue 21 items 11 and 12): an owner who reads German,
 * writes dates as DD.MM.YYYY and hours as decimals sees the timer bar, the day view with an
 * entry, the week grid, the calendar and home in German, with German dates, decimal hours
 * with a comma and money as Germans write it.
 */

async function ok(pending: Promise<{ status: number; body: any }>) {
  const res = await pending;
  if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const GERMAN_DAY = new Intl.DateTimeFormat('de-DE', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const GERMAN_WEEKDAY = new Intl.DateTimeFormat('de-DE', { weekday: 'short', timeZone: 'UTC' });
const utc = (date: string) => new Date(`${date}T00:00:00Z`);
/** "2026-01-12" as "12.01.2026" (the person's pattern). */
const dotted = (date: string) => date.split('-').reverse().join('.');
/** A grid column's day: "Mo., 12. Jan.". */
const gridDay = (date: string) => GERMAN_DAY.format(utc(date));
/** A heading's day: "Mo., 12.01.2026". */
const longDay = (date: string) => `${GERMAN_WEEKDAY.format(utc(date))}., ${dotted(date)}`;

test('the timer bar, the day, the week, the calendar and home in German', async ({ page, workspace }) => {
  await workspace.seed.german();
  // 1.5 h at 823 EUR an hour: 1.234,50 € not yet invoiced (without approvals, unapproved time is invoiceable).
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: false }));
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex', currency: 'EUR' }));
  const task = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const project = await ok(workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Website', task_ids: [task.id], is_billable: true, bill_by: 'project', hourly_rate: 823 }));
  const sheet = await ok(workspace.api('GET', '/web/api/timesheet'));
  const today = sheet.today as string;
  const from = sheet.from as string;
  await ok(workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: task.id, spent_date: today, started_time: '09:00', ended_time: '10:30', notes: 'Entwurf' }));

  // Home: the week in decimal hours, the amount in German, the timer bar's words.
  await visit(page, '/', 'home-de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Willkommen, Olive');
  await expect(page.getByRole('main')).toContainText('Sie sind bei');
  await expect(page.getByRole('main')).toContainText('Ihre Rolle: Inhaber.');
  await expect(page.getByRole('region', { name: 'Diese Woche' })).toContainText('1,50');
  await expect(page.getByRole('region', { name: 'Diese Woche' }).getByRole('link', { name: gridDay(today) })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Läuft gerade' })).toContainText('Kein Timer läuft.');
  await expect(page.getByRole('list', { name: 'Nicht abgerechnete Beträge pro Währung' })).toContainText('1.234,50 €');
  await expect(page.getByRole('region', { name: 'Letzte Arbeit' }).getByRole('button', { name: 'Globex – Website – Design fortsetzen: Entwurf' })).toBeVisible();
  const timer = page.getByRole('region', { name: 'Timer' });
  await expect(timer.getByRole('button', { name: 'Timer starten' })).toBeVisible();
  await expect(timer.getByRole('combobox', { name: 'Projekt und Aufgabe' })).toBeVisible();

  // The day: German columns, the entry's decimal hours, the date as DD.MM.YYYY, the editor in German.
  await visit(page, `/time/day?date=${today}`, 'time-day-de');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Zeit');
  await expect(page.getByRole('main')).toContainText(longDay(today));
  const row = page.getByRole('row', { name: /Entwurf/ });
  await expect(row).toContainText('09:00 – 10:30');
  await expect(row).toContainText('1,50');
  await expect(page.getByRole('row', { name: /^Summe/ })).toContainText('1,50');
  await expect(page.getByRole('columnheader', { name: 'Beginn – Ende' })).toBeAttached();
  const add = page.getByRole('region', { name: 'Eintrag hinzufügen' });
  await add.getByRole('button', { name: 'Eintrag hinzufügen' }).click();
  await expect(add).toContainText('Wählen Sie ein Projekt und eine Aufgabe.');
  await expect(add).toContainText('Geben Sie die Stunden ein, oder Beginn und Ende.');
  await row.getByRole('button', { name: 'Eintrag bearbeiten: Website, Design' }).click();
  const dialog = page.getByRole('dialog', { name: 'Eintrag bearbeiten' });
  await expect(dialog.getByRole('textbox', { name: 'Stunden' })).toHaveValue('1,50');
  await expect(dialog.getByRole('button', { name: 'Eintrag speichern' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Eintrag löschen: Website, Design' }).click();
  const confirm = page.getByRole('dialog', { name: 'Diesen Eintrag löschen?' });
  await expect(confirm).toContainText(`1,50 für Website, Design, ${longDay(today)}, werden gelöscht.`);
  await confirm.getByRole('button', { name: 'Behalten' }).click();
  await expect(confirm).toBeHidden();
  // Escape from inside the editor: pressed on the page, it could land in the moment before the
  // closed confirmation hands the focus back to the editor, and nothing would close.
  await dialog.getByRole('button', { name: 'Eintrag speichern' }).press('Escape');
  await expect(dialog).toBeHidden();

  // An empty day says so in German.
  await page.getByRole('link', { name: /^Nächster Tag/ }).click();
  await expect(page.getByRole('table')).toContainText('Keine Einträge an diesem Tag.');

  // The calendar: German day columns, the block's times, New entry in German.
  await visit(page, `/time/calendar?start=${from}`, 'time-calendar-de');
  await expect(page.getByRole('region', { name: longDay(today) })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Website, Design, 09:00 – / })).toBeVisible();
  await expect(page.getByRole('button', { name: `Neuer Eintrag am ${gridDay(today)}` })).toBeVisible();
  await page.getByRole('button', { name: `Neuer Eintrag am ${gridDay(today)}` }).click();
  const create = page.getByRole('dialog', { name: `Neuer Eintrag, ${gridDay(today)}` });
  await expect(create.getByRole('textbox', { name: 'Beginn' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(create).toBeHidden();

  // The week grid: German days, the cell in decimal hours (typed back as the person writes them).
  await visit(page, `/time/week?start=${from}`, 'time-week-de');
  await expect(page.getByRole('main')).toContainText(`Woche vom ${dotted(from)}`);
  // The person picker names the caller in German too (its label is memoised past the session's language).
  await expect(page.getByRole('combobox', { name: 'Person' })).toHaveValue(/^Ich \(/);
  await expect(page.getByRole('columnheader', { name: gridDay(today) })).toBeVisible();
  const cell = page.getByRole('textbox', { name: `Website, Design, ${gridDay(today)}` });
  await expect(cell).toHaveValue('1,50');
  await cell.fill('2,25');
  await cell.press('Enter');
  await expect(cell).toHaveValue('2,25');
  await expect.poll(async () => (await ok(workspace.api('GET', '/web/api/timesheet'))).entries.map((e: { hours: number }) => e.hours)).toEqual([2.25]);
  await expect(page.getByRole('button', { name: 'Zeilen der Vorwoche übernehmen' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Zeile hinzufügen' })).toBeVisible();
  await page.getByRole('link', { name: 'Vorige Woche' }).click();
  await expect(page.getByRole('table')).toContainText('Diese Woche noch keine Zeit.');

  // The timer bar: start and stop in German.
  await timer.getByRole('combobox', { name: 'Projekt und Aufgabe' }).fill('design');
  await page.getByRole('option', { name: 'Globex - Website - Design' }).click();
  await timer.getByRole('button', { name: 'Timer starten' }).click();
  await expect(timer.getByRole('timer', { name: 'Verstrichene Zeit' })).toHaveText(/^0:00:\d\d$/);
  await checkPage(page, 'time-timer-running-de');
  await timer.getByRole('button', { name: 'Timer stoppen' }).click();
  await expect(timer.getByRole('button', { name: 'Timer starten' })).toBeVisible();
  await expectClean(page);
});
