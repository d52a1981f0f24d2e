import type { Page } from '@playwright/test';
import { expect, ok, signIn, test, type TestWorkspace } from './fixtures.ts';
import { png } from './png.ts';
import { expectClean, visit } from './visit.ts';

/**
 * The whole story of issue 16, in one browser, against one real server with an SMTP sink:
 * a member tracks a day with the timer and the week grid (with a private note), adds an
 * expense with a receipt and submits the week; her manager sees the preflight warning,
 * acknowledges it and approves; the week is locked in her grid; an administrator withdraws
 * the approval and the week unlocks; the manager approves again; the owner creates an
 * invoice from the approved work (previewed first), edits a line, sends it (the PDF arrives
 * at the sink) and records the payment that makes it paid. The private note never leaves
 * the web app: not in the API, the backup, nor the e-mail.
 */

test.use({ mail: true, signedIn: false });

const PRIVATE_NOTE = 'Client was rude on the phone';

/** Mia (member, 40 h expected), Max her manager, Ada an administrator; Globex's Website billed at 100 an hour. */
async function team(workspace: TestWorkspace) {
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: true }));
  const mia = await workspace.seed.memberWithPassword('Mia');
  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  const ada = await workspace.seed.memberWithPassword('Ada', 'administrator');
  await ok(workspace.api('PATCH', `/web/api/members/${max.id}`, { teammate_ids: [mia.id] }));
  await ok(workspace.api('PATCH', `/web/api/members/${mia.id}`, { expected_weekly_hours: '40' }));
  const client = await ok(workspace.api('POST', '/api/v2/clients', { name: 'Globex', currency: 'EUR' }));
  const task = await ok(workspace.api('POST', '/api/v2/tasks', { name: 'Design' }));
  const project = await ok(
    workspace.api('POST', '/api/v2/projects', { client_id: client.id, name: 'Website', task_ids: [task.id], is_billable: true, bill_by: 'project', hourly_rate: 100 }),
  );
  await ok(workspace.api('POST', `/api/v2/projects/${project.id}/user_assignments`, { user_id: mia.id }));
  await ok(workspace.api('POST', '/api/v2/expense_categories', { name: 'Travel' }));
  const week = await ok(workspace.api('GET', '/web/api/approvals/week', undefined, mia.id));
  return { mia, max, ada, client, project, from: week.from as string, to: week.to as string };
}

async function signInAs(page: Page, who: { email: string; password: string }) {
  await page.context().clearCookies();
  await signIn(page, who);
}

// The owner's and the managers' date format is the default (YYYY-MM-DD): full dates read as the API's.
const weekText = (from: string, to: string) => `${from} – ${to}`;
const CELL_DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const cellDay = (date: string) => CELL_DAY.format(new Date(`${date}T00:00:00Z`)).replace(',', '');

test('track, expense, submit, approve, lock, withdraw, invoice, send, get paid; the private note stays in the web app', async ({ page, workspace, sheaf }) => {
  test.setTimeout(180_000);
  const t = await team(workspace);
  const week = weekText(t.from, t.to);

  // Mia: the timer, then the week grid, a private note in the day view.
  await signInAs(page, t.mia);
  await visit(page, `/time/week?start=${t.from}`, 'journey-week');
  await page.getByRole('combobox', { name: 'Project and task' }).fill('webs des');
  await page.getByRole('option', { name: 'Globex - Website - Design' }).click();
  await page.getByRole('textbox', { name: 'Notes' }).fill('Kick-off call');
  await page.getByRole('button', { name: 'Start timer' }).click();
  await expect(page.getByRole('timer')).toHaveText(/^0:00:\d\d$/);
  await page.getByRole('button', { name: 'Stop timer' }).click();
  await expect(page.getByRole('button', { name: 'Start timer' })).toBeVisible();
  // The timer's entry is today's; the grid gets 3 hours on the week's first day.
  const cell = page.getByRole('textbox', { name: `Website, Design, ${cellDay(t.from)}` });
  await cell.fill('3:00');
  await cell.press('Enter');
  await expect.poll(async () => (await ok(workspace.api('GET', `/api/v2/time_entries?from=${t.from}&to=${t.from}`, undefined, t.mia.id))).time_entries.length).toBeGreaterThan(0);
  const first = (await ok(workspace.api('GET', `/api/v2/time_entries?from=${t.from}&to=${t.from}`, undefined, t.mia.id))).time_entries[0];

  await visit(page, `/time/day?date=${t.from}`, 'journey-day');
  await page.getByRole('button', { name: 'Private note: Website, Design' }).first().click();
  const noteDialog = page.getByRole('dialog', { name: 'Private note' });
  await noteDialog.getByRole('textbox', { name: 'Private note' }).fill(PRIVATE_NOTE);
  await noteDialog.getByRole('button', { name: 'Save private note' }).click();
  await expect(noteDialog).toBeHidden();

  // An expense with a receipt.
  await visit(page, '/expenses/new', 'journey-expense');
  await page.getByRole('combobox', { name: 'Project', exact: true }).fill('webs');
  await page.getByRole('option', { name: 'Globex - Website' }).click();
  await page.getByRole('button', { name: /Category$/ }).click();
  await page.getByRole('option', { name: 'Travel' }).click();
  await page.getByRole('textbox', { name: 'Total cost' }).fill('42.50');
  await page.locator('input[type="file"]:not([capture])').setInputFiles({ name: 'train.png', mimeType: 'image/png', buffer: png() });
  await page.getByRole('button', { name: 'Record expense' }).click();
  await expect(page).toHaveURL(/\/expenses$/);
  // The form's date defaults to today; put the expense in the submitted week through the API if today is outside it.
  const expense = (await ok(workspace.api('GET', `/api/v2/expenses?user_id=${t.mia.id}`, undefined, t.mia.id))).expenses[0];
  if (expense.spent_date < t.from || expense.spent_date > t.to) await ok(workspace.api('PATCH', `/api/v2/expenses/${expense.id}`, { spent_date: t.from }, t.mia.id));

  // She submits the week.
  await visit(page, '/approvals', 'journey-submit');
  await page.getByRole('button', { name: 'Submit week for approval' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Submitted \d+ items? .* for approval\.$/ })).toBeVisible();

  // Max: the preflight warns (under 40 h); he acknowledges and approves.
  await signInAs(page, t.max);
  await visit(page, '/approvals', 'journey-queue');
  await page.getByRole('button', { name: `Review Mia Tester, ${week}` }).click();
  const review = page.getByRole('dialog');
  await expect(review.getByRole('checkbox', { name: /below the 40 h expected/ })).toBeVisible();
  await review.getByText(/below the 40 h expected/).click();
  await review.getByRole('button', { name: 'Acknowledge and approve' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Approved \d+ items? of Mia Tester/ })).toBeVisible();

  // Mia's week is locked.
  await signInAs(page, t.mia);
  await visit(page, `/time/week?start=${t.from}`, 'journey-locked');
  await expect(page.getByRole('link', { name: /Website, Design, .*approved, locked; open the day/ }).first()).toBeVisible();
  await expect(page.getByRole('textbox', { name: `Website, Design, ${cellDay(t.from)}` })).toHaveCount(0);

  // Ada withdraws the approval: the week unlocks.
  await signInAs(page, t.ada);
  await visit(page, '/approvals', 'journey-withdraw');
  await page.getByRole('button', { name: `Withdraw approval of Mia Tester, ${week}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Withdraw approval' }).click();
  await expect(page.getByRole('status').filter({ hasText: `the week of ${week} is unlocked` })).toBeVisible();
  expect((await ok(workspace.api('GET', `/api/v2/time_entries/${first.id}`, undefined, t.mia.id))).is_locked).toBe(false);

  // Max approves again (the work stays submitted after a withdrawal).
  await signInAs(page, t.max);
  await visit(page, '/approvals', 'journey-reapprove');
  await page.getByRole('button', { name: `Review Mia Tester, ${week}` }).click();
  await page.getByRole('dialog').getByText(/below the 40 h expected/).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Acknowledge and approve' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Approved \d+ items? of Mia Tester/ })).toBeVisible();

  // The owner invoices the approved work: preview, create, edit a line, send, record the payment.
  await signInAs(page, workspace.owner);
  await visit(page, `/invoices/new?client_id=${t.client.id}&from=${t.from}&to=${t.to}`, 'journey-invoice-new');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('heading', { name: /Preview of invoice/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Website: Travel/ })).toContainText('42.50');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await expect(page).toHaveURL(/\/invoices\/[0-9a-f-]{36}$/);
  const invoiceId = page.url().split('/').pop()!;
  await page.getByRole('link', { name: 'Edit' }).click();
  const line = page.getByRole('listitem', { name: 'Line 1' });
  await line.getByRole('textbox', { name: 'Description' }).fill('Website design');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/invoices/${invoiceId}$`));
  await expect(page.getByRole('row', { name: /Website design/ })).toBeVisible();

  await page.getByRole('button', { name: 'Send invoice' }).click();
  const send = page.getByRole('dialog', { name: /^Send invoice/ });
  await send.getByRole('textbox', { name: 'Recipient 1 e-mail' }).fill('ap@globex.example');
  await send.getByRole('button', { name: 'Send invoice' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The invoice is on its way.' })).toBeVisible();
  const invoiceMail = () => sheaf.mail!.received.find((m) => m.rcpt.includes('ap@globex.example') && m.raw.includes(workspace.name)); // other tests of this worker mail the same address
  await expect.poll(() => !!invoiceMail(), { message: 'the invoice e-mail arrived', timeout: 20_000 }).toBe(true);
  const mail = invoiceMail();
  expect(mail!.raw).toMatch(/Content-Type: application\/pdf/i);

  await page.getByRole('button', { name: 'Record a payment' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Record payment' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'the invoice is paid' })).toBeVisible();
  const invoice = await ok(workspace.api('GET', `/api/v2/invoices/${invoiceId}`));
  expect(invoice.state).toBe('paid');
  expect(invoice.due_amount ?? 0).toBe(0);
  await expectClean(page);

  // The private note is still there for Mia, and nowhere else.
  expect((await ok(workspace.api('GET', `/web/api/time_entries/${first.id}/private_notes`, undefined, t.mia.id))).private_notes).toBe(PRIVATE_NOTE);
  const outside = [
    JSON.stringify(await ok(workspace.api('GET', `/api/v2/time_entries/${first.id}`, undefined, t.mia.id))),
    JSON.stringify(await ok(workspace.api('GET', '/api/v2/time_entries?per_page=100'))),
    JSON.stringify(await ok(workspace.api('GET', '/api/v2/backup/time_entries?per_page=500'))),
    JSON.stringify(invoice),
    ...sheaf.mail!.received.map((m) => m.raw),
  ];
  for (const text of outside) expect(text).not.toContain(PRIVATE_NOTE);
});
