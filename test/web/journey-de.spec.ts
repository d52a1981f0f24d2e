import type { Page } from '@playwright/test';
import { expect, ok, signIn, test, type TestWorkspace } from './fixtures.ts';
import { png } from './png.ts';
import { checkPage, expectClean, visit } from './visit.ts';

/**
 * The journey of journey.spec.ts in German (issue 21 item 12): everyone's language is German,
 * with day-month-year dates and decimal hours, and the client is German. Mia tracks with the
 * timer and the week grid, records an expense with a receipt and submits her week; Max, her
 * manager, gets the German e-mail, reviews the week and approves it; the owner invoices the
 * work, sends the invoice (the German e-mail with its PDF arrives) and records the payment.
 * Every page is checked as visit() checks it (axe, both widths, no console error: a missing
 * text is one).
 */

test.use({ mail: true, signedIn: false });

async function team(workspace: TestWorkspace) {
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: true }));
  const mia = await workspace.seed.memberWithPassword('Mia');
  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  for (const id of [mia.id, max.id, workspace.owner.id]) await workspace.seed.german(id);
  await ok(workspace.api('PATCH', `/web/api/members/${max.id}`, { teammate_ids: [mia.id] }));
  await ok(workspace.api('PATCH', `/web/api/members/${mia.id}`, { expected_weekly_hours: '40' }));
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex', currency: 'EUR', language: 'de' }));
  const task = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const project = await ok(
    workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Website', task_ids: [task.id], is_billable: true, bill_by: 'project', hourly_rate: 100 }),
  );
  await ok(workspace.api('POST', `/api/v2/projects/${project.id}/user_assignments`, { user_id: mia.id }));
  await ok(workspace.api('POST', '/api/v2/expense_categories', { name: 'Reisekosten' }));
  const week = await ok(workspace.api('GET', '/web/api/approvals/week', undefined, mia.id));
  return { mia, max, client, from: week.from as string, to: week.to as string };
}

async function signInAs(page: Page, who: { email: string; password: string }) {
  await page.context().clearCookies();
  await signIn(page, who);
}

const dotted = (date: string) => date.split('-').reverse().join('.');
const CELL_DAY = new Intl.DateTimeFormat('de-DE', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const cellDay = (date: string) => CELL_DAY.format(new Date(`${date}T00:00:00Z`));
/** Quoted-printable bodies break long lines with `=` at the end: joined again to read. */
const text = (raw: string) => raw.replace(/=\r?\n/g, '');

test('Zeit erfassen, Ausgabe, einreichen, freigeben, abrechnen, senden, bezahlt: the whole journey in German', async ({ page, workspace, sheaf }) => {
  test.slow();
  const t = await team(workspace);
  const week = `${dotted(t.from)} – ${dotted(t.to)}`;

  // Mia: the timer, then three hours on the week's first day, typed as decimal hours.
  await signInAs(page, t.mia);
  await visit(page, `/time/week?start=${t.from}`, 'journey-de-week');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.getByRole('combobox', { name: 'Projekt und Aufgabe' }).first().fill('webs des');
  await page.getByRole('option', { name: 'Globex - Website - Design' }).click();
  await page.getByRole('textbox', { name: 'Notizen' }).fill('Auftaktgespräch');
  await page.getByRole('button', { name: 'Timer starten' }).click();
  await expect(page.getByRole('timer')).toHaveText(/^0:00:\d\d$/);
  await page.getByRole('button', { name: 'Timer stoppen' }).click();
  await expect(page.getByRole('button', { name: 'Timer starten' })).toBeVisible();
  const cell = page.getByRole('textbox', { name: `Website, Design, ${cellDay(t.from)}` });
  await cell.fill('3,5');
  await cell.press('Enter');
  await expect(cell).toHaveValue('3,50');
  await expect
    .poll(async () => (await ok(workspace.api('GET', `/api/v2/time_entries?from=${t.from}&to=${t.from}`, undefined, t.mia.id))).time_entries.map((e: { hours: number }) => e.hours))
    .toContain(3.5);

  // An expense with a receipt, the amount typed with a German decimal comma.
  await visit(page, '/expenses/new', 'journey-de-expense');
  await page.getByRole('combobox', { name: 'Projekt', exact: true }).fill('webs');
  await page.getByRole('option', { name: 'Globex - Website' }).click();
  await page.getByRole('button', { name: /Kategorie$/ }).click();
  await page.getByRole('option', { name: 'Reisekosten' }).click();
  await page.getByRole('textbox', { name: 'Gesamtbetrag' }).fill('42,50');
  await page.locator('input[type="file"]:not([capture])').setInputFiles({ name: 'bahn.png', mimeType: 'image/png', buffer: png() });
  await page.getByRole('button', { name: 'Ausgabe erfassen' }).click();
  await expect(page).toHaveURL(/\/expenses$/);
  const expense = (await ok(workspace.api('GET', `/api/v2/expenses?user_id=${t.mia.id}`, undefined, t.mia.id))).expenses[0];
  expect(expense.total_cost).toBe(42.5);
  if (expense.spent_date < t.from || expense.spent_date > t.to) await ok(workspace.api('PATCH', `/api/v2/expenses/${expense.id}`, { spent_date: t.from }, t.mia.id));

  // She submits the week; Max gets the German e-mail.
  await visit(page, '/approvals', 'journey-de-submit');
  await page.getByRole('button', { name: 'Woche zur Freigabe einreichen' }).click();
  await expect(page.getByRole('status').filter({ hasText: /zur Freigabe eingereicht\.$/ })).toBeVisible();
  const submittedMail = () => sheaf.mail!.received.find((m) => m.rcpt.includes(t.max.email));
  await expect.poll(() => !!submittedMail(), { message: 'the approval e-mail reached Max', timeout: 20_000 }).toBe(true);
  expect(text(submittedMail()!.raw)).toContain(`hat Zeiten vom ${dotted(t.from)} bis ${dotted(t.to)} eingereicht`);

  // Max reviews the week in German and approves it, acknowledging the short-week warning.
  await signInAs(page, t.max);
  await visit(page, '/approvals', 'journey-de-queue');
  await page.getByRole('button', { name: `Mia Tester, ${week} prüfen` }).click();
  const review = page.getByRole('dialog');
  await expect(review).toContainText('3,50');
  await expect(review).toContainText('42,50 €');
  // Each warning is a checkbox to acknowledge (its text is the server's, which stays English).
  for (const warning of await review.locator('label', { has: page.getByRole('checkbox') }).all()) await warning.click();
  await expect(review.getByRole('checkbox', { checked: false })).toHaveCount(0);
  await checkPage(page, 'journey-de-review');
  await review.getByRole('button', { name: 'Bestätigen und die Woche freigeben' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^\d+ Einträge von Mia Tester, .* freigegeben\.$/ })).toBeVisible();

  // The owner invoices the approved work, sends it and records the payment.
  await signInAs(page, workspace.owner);
  await visit(page, `/invoices/new?client_id=${t.client.id}&from=${t.from}&to=${t.to}`, 'journey-de-invoice-new');
  await page.getByRole('button', { name: 'Vorschau' }).click();
  await expect(page.getByRole('heading', { name: /Vorschau der Rechnung/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Website: Reisekosten/ })).toContainText('42,50');
  await page.getByRole('button', { name: 'Rechnung erstellen' }).click();
  await expect(page).toHaveURL(/\/invoices\/[0-9a-f-]{36}$/);
  const invoiceId = page.url().split('/').pop()!;
  await checkPage(page, 'journey-de-invoice');
  // 3.5 h at 100 and the 42.50 expense.
  await expect(page.getByText('392,50 €').first()).toBeVisible();

  await page.getByRole('button', { name: 'Rechnung senden' }).click();
  const send = page.getByRole('dialog', { name: /^Rechnung .* senden$/ });
  await send.getByRole('textbox', { name: 'E-Mail von Empfänger 1' }).fill('ap@globex.example');
  await send.getByRole('button', { name: 'Rechnung senden' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Die Rechnung ist unterwegs.' })).toBeVisible();
  const invoiceMail = () => sheaf.mail!.received.find((m) => m.rcpt.includes('ap@globex.example') && m.raw.includes(workspace.name)); // other tests of this worker mail the same address
  await expect.poll(() => !!invoiceMail(), { message: 'the invoice e-mail arrived', timeout: 20_000 }).toBe(true);
  expect(text(invoiceMail()!.raw)).toContain('anbei erhalten Sie die Rechnung');
  expect(invoiceMail()!.raw).toMatch(/Content-Type: application\/pdf/i);

  await page.getByRole('button', { name: 'Zahlung erfassen' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Zahlung erfassen' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Zahlung erfasst: Die Rechnung ist bezahlt.' })).toBeVisible();
  expect((await ok(workspace.api('GET', `/api/v2/invoices/${invoiceId}`))).state).toBe('paid');
  await expectClean(page);
});
