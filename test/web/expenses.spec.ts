import { expect, ok, signIn, test } from './fixtures.ts';
import { png } from './png.ts';
import { checkPage, expectAccessible, expectClean, visit } from './visit.ts';

/**
 * The expenses area (issue 16 item 2): a member records an expense with a receipt
 * photo, finds it in the list with its thumbnail, changes it, filters the list; the
 * server's copy of the receipt is byte for byte the file chosen.
 */

test.use({ signedIn: false });

test('a member records an expense with a receipt, sees it listed, changes it and filters the list', async ({ page, workspace }) => {
  const mia = await workspace.seed.member('Mia');
  await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'], members: [mia.id] });
  const mileage = await workspace.api('POST', '/api/v2/expense_categories', { name: 'Mileage', unit_name: 'km', unit_price: 0.5 });
  expect(mileage.status).toBe(201);
  await signIn(page, mia);

  const calls = await visit(page, '/expenses', 'expenses-empty');
  expect(calls.length, calls.join(', ')).toBeLessThanOrEqual(3); // session, timer, the list with its choices
  await expect(page.getByText('No expenses yet.')).toBeVisible();

  // Record one with a receipt photo.
  await page.getByRole('link', { name: 'Record an expense' }).click();
  await expect(page.getByRole('heading', { name: 'Record an expense' })).toBeVisible();
  // A click opens the list, before anything is typed.
  await page.getByRole('combobox', { name: 'Project', exact: true }).click();
  await expect(page.getByRole('option', { name: 'Acme - Website' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Project', exact: true }).fill('webs');
  await page.getByRole('option', { name: 'Acme - Website' }).click();
  await page.getByRole('button', { name: /Category$/ }).click();
  await page.getByRole('option', { name: 'LLM usage' }).click();
  await page.getByRole('textbox', { name: 'Total cost' }).fill('42.50');
  await page.getByRole('form', { name: /expense/i }).getByRole('textbox', { name: 'Notes' }).fill('Taxi to the client');
  const receipt = png();
  await page.locator('input[type="file"]:not([capture])').setInputFiles({ name: 'taxi.png', mimeType: 'image/png', buffer: receipt });
  await expect(page.getByRole('img', { name: 'New receipt: taxi.png' })).toBeVisible();
  await checkPage(page, 'expense-new');
  await page.getByRole('button', { name: 'Record expense' }).click();

  await expect(page).toHaveURL(/\/expenses$/);
  const taxi = page.getByRole('row', { name: /Taxi to the client/ });
  await expect(taxi).toContainText('42.50');
  await expect(taxi).toContainText('Website');
  await expect(taxi.getByRole('img', { name: 'Receipt: taxi.png' })).toBeVisible();
  await expect.poll(() => taxi.getByRole('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
  await checkPage(page, 'expenses-list');

  // The server has it, with the very bytes chosen.
  const listed = (await workspace.api('GET', `/api/v2/expenses?user_id=${mia.id}`, undefined, mia.id)).body.expenses;
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatchObject({ total_cost: 42.5, notes: 'Taxi to the client', source: 'web', receipt: { file_name: 'taxi.png', content_type: 'image/png' } });
  const bytes = await page.context().request.get(listed[0].receipt_download_url);
  expect(bytes.status()).toBe(200);
  expect(Buffer.compare(await bytes.body(), receipt)).toBe(0);

  // Change it.
  await taxi.getByRole('link', { name: /^Edit expense of/ }).click();
  await expect(page.getByRole('heading', { name: 'Edit expense' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Receipt: taxi.png' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Total cost' }).fill('45');
  await page.getByRole('button', { name: 'Save expense' }).click();
  await expect(page).toHaveURL(/\/expenses$/);
  await expect(taxi).toContainText('45.00');
  // The changed expense's thumbnail is fetched anew: let it finish drawing before the page is
  // left, or the browser logs the interrupted blob: load as an error (ERR_FILE_NOT_FOUND).
  await expect.poll(() => taxi.getByRole('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(8);
  expect((await workspace.api('GET', `/api/v2/expenses/${listed[0].id}`, undefined, mia.id)).body).toMatchObject({ total_cost: 45, receipt: { file_name: 'taxi.png' } });

  // Units priced by the category; the API's refusal shows beside the field.
  await visit(page, '/expenses/new', 'expense-new-units');
  await page.getByRole('combobox', { name: 'Project', exact: true }).fill('webs');
  await page.getByRole('option', { name: 'Acme - Website' }).click();
  await page.getByRole('button', { name: /Category$/ }).click();
  await page.getByRole('option', { name: /^Mileage/ }).click();
  const units = page.getByRole('textbox', { name: 'Units (km)' });
  await units.fill('12.34567');
  await page.getByRole('button', { name: 'Record expense' }).click();
  await expect(units).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('units takes at most 4 decimal places.')).toBeVisible();
  await checkPage(page, 'expense-new-error');
  await units.fill('12');
  await units.press('Enter'); // Enter submits

  await expect(page).toHaveURL(/\/expenses$/);
  const drive = page.getByRole('row', { name: /Mileage/ });
  await expect(drive).toContainText('12 km');
  await expect(drive).toContainText('6.00');

  // Filter by category, then by a period with nothing in it.
  await page.getByRole('button', { name: /Category$/ }).click();
  await page.getByRole('option', { name: 'Mileage' }).click();
  await expect(page).toHaveURL(/expense_category_id=/);
  await expect(drive).toBeVisible();
  await expect(taxi).toBeHidden();
  await page.getByRole('button', { name: /Period$/ }).click();
  await page.getByRole('option', { name: 'Last year' }).click();
  await expect(page.getByText('No expenses match these filters.')).toBeVisible();
  await checkPage(page, 'expenses-filtered-empty');
  await page.reload();
  await expect(page.getByText('No expenses match these filters.')).toBeVisible();
  await page.getByRole('link', { name: 'Show all expenses' }).click();
  await expect(taxi).toBeVisible();
  await expect(drive).toBeVisible();

  // Delete one, after confirming.
  await drive.getByRole('link', { name: /^Edit expense of/ }).click();
  await page.getByRole('button', { name: 'Delete expense' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this expense?' });
  await expectAccessible(page, 'the delete dialog');
  await dialog.getByRole('button', { name: 'Delete expense' }).click();
  await expect(page).toHaveURL(/\/expenses$/);
  await expect(drive).toBeHidden();
  await expect(taxi).toBeVisible();
  const left = (await workspace.api('GET', `/api/v2/expenses?user_id=${mia.id}`, undefined, mia.id)).body.expenses;
  expect(left.map((e: { notes: string }) => e.notes)).toEqual(['Taxi to the client']);
  await expectClean(page);
});

test("a manager opens a teammate's expenses; an approved one is read-only and says why", async ({ page, workspace }) => {
  await ok(workspace.api('PATCH', '/web/api/workspace', { approvals_enabled: true }));
  const mia = await workspace.seed.memberWithPassword('Mia');
  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  await ok(workspace.api('PATCH', `/web/api/members/${max.id}`, { teammate_ids: [mia.id] }));
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'], members: [mia.id] });
  const category = (await ok(workspace.api('GET', '/api/v2/expense_categories'))).expense_categories[0];
  const week = await ok(workspace.api('GET', '/web/api/approvals/week', undefined, mia.id));
  const hotel = await ok(
    workspace.api('POST', '/api/v2/expenses', { project_id: project.id, expense_category_id: category.id, spent_date: week.from, total_cost: 180, notes: 'Hotel in Lyon' }, mia.id),
  );
  await ok(workspace.api('POST', '/api/v2/approvals/submit', { from: week.from, to: week.to }, mia.id));
  const approve = (body: object) => workspace.api('POST', '/api/v2/approvals/approve', { user_id: mia.id, from: week.from, to: week.to, ...body });
  const first = await approve({});
  if (first.status === 409) {
    await ok(approve({ preflight_fingerprint: first.body.preflight.fingerprint, acknowledged_warning_codes: first.body.preflight.warnings.map((w: { code: string }) => w.code) }));
  } else expect(first.status, JSON.stringify(first.body)).toBe(200);

  await signIn(page, max);
  await visit(page, '/expenses', 'expenses-manager-own');
  await page.getByRole('combobox', { name: 'Person' }).fill('Mia');
  await page.getByRole('option', { name: /^Mia / }).click();
  await expect(page).toHaveURL(new RegExp(`user=${mia.id}`));
  await expect(page.getByRole('heading', { name: /^Expenses of Mia / })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Record an expense' })).toBeHidden(); // one records only one's own
  const row = page.getByRole('row', { name: /Hotel in Lyon/ });
  await expect(row).toContainText('Approved');
  await checkPage(page, 'expenses-of-teammate');

  await row.getByRole('link', { name: /^View expense of/ }).click();
  await expect(page.getByText('This expense is approved, so it cannot be changed or deleted. Ask an approver to withdraw the approval.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Total cost' })).toBeDisabled();
  await expect(page.getByRole('combobox', { name: 'Project', exact: true })).toHaveValue('Acme - Website');
  await expect(page.getByRole('heading', { level: 1, name: 'Expense' })).toBeVisible();
  await expect(page.getByText('No receipt.')).toBeVisible();
  await checkPage(page, 'expense-locked');
  await page.getByRole('link', { name: 'Back to expenses' }).click();
  await expect(page).toHaveURL(new RegExp(`/expenses\\?user=${mia.id}$`));
  expect((await workspace.api('GET', `/api/v2/expenses/${hotel.id}`, undefined, mia.id)).body).toMatchObject({ total_cost: 180, is_locked: true });
  await expectClean(page);
});

test('a create whose answer is lost is sent again with the same key: one expense; offline, what was typed stays', async ({ page, workspace }) => {
  const mia = await workspace.seed.member('Mia');
  await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'], members: [mia.id] });
  await signIn(page, mia);
  const keys: string[] = [];
  let mode: 'lose-answer' | 'offline' | 'pass' = 'offline';
  await page.route('**/api/v2/expenses', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    keys.push((await route.request().headerValue('idempotency-key')) ?? '');
    if (mode === 'offline') return route.abort('internetdisconnected');
    if (mode === 'pass') return route.continue();
    await route.fetch(); // the server does the work...
    mode = 'pass';
    return route.abort('connectionreset'); // ...and the answer never arrives
  });

  await visit(page, '/expenses/new', 'expense-new-retry');
  await page.getByRole('combobox', { name: 'Project', exact: true }).fill('webs');
  await page.getByRole('option', { name: 'Acme - Website' }).click();
  await page.getByRole('button', { name: /Category$/ }).click();
  await page.getByRole('option', { name: 'LLM usage' }).click();
  await page.getByRole('textbox', { name: 'Total cost' }).fill('19.99');
  await page.getByRole('button', { name: 'Record expense' }).click();
  // No connection through every retry: the form says so and keeps the input.
  await expect(page.getByText('Sheaf cannot be reached. Check your connection and try again.')).toBeVisible({ timeout: 15_000 });
  expect(keys.length).toBe(4); // the first try and three retries
  expect(new Set(keys).size).toBe(1);
  await expect(page.getByRole('textbox', { name: 'Total cost' })).toHaveValue(/19\.99/);

  // Back online; the server's answer to the next try is lost, the retry gets the stored answer.
  mode = 'lose-answer';
  await page.getByRole('button', { name: 'Record expense' }).click();
  await expect(page).toHaveURL(/\/expenses$/);
  expect(new Set(keys).size).toBe(1); // the same key all along
  const listed = (await workspace.api('GET', `/api/v2/expenses?user_id=${mia.id}`, undefined, mia.id)).body.expenses;
  expect(listed.map((e: { total_cost: number }) => e.total_cost)).toEqual([19.99]);
});
