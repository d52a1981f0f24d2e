import type { Response } from '@playwright/test';
import { expect, signIn, test } from './fixtures.ts';
import { expectAccessible, expectClean, visit } from './visit.ts';

/**
 * The task catalog (issue 16 item 4, tasks): an administrator adds a task with a default
 * rate, changes it, archives and restores it; a duplicate name is refused beside the
 * field; a manager who may edit tasks but not see rates gets no rate anywhere (not in
 * the page, not in a response); a member reads the catalog only.
 */

test('an administrator adds a task with a rate, edits, archives and restores it', async ({ page, workspace }) => {
  await visit(page, '/tasks', 'tasks-empty');
  await expect(page.getByText('No tasks yet.')).toBeVisible();

  await page.getByRole('button', { name: 'New task' }).click();
  const dialog = page.getByRole('dialog', { name: 'New task' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Design');
  await dialog.getByRole('textbox', { name: 'Default hourly rate' }).fill('120');
  await dialog.getByText('Add to every new project').click(); // React Aria's input is visually hidden: the label takes the click
  await expect(dialog.getByRole('checkbox', { name: 'Add to every new project' })).toBeChecked();
  await expectAccessible(page, 'the new task dialog');
  await dialog.getByRole('button', { name: 'Create task' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: /Design/ });
  await expect(row).toContainText('120.00');
  await expect(row).toContainText('Billable');
  const [design] = (await workspace.api('GET', '/api/v2/tasks')).body.tasks;
  expect(design).toMatchObject({ name: 'Design', default_hourly_rate: 120, billable_by_default: true, is_default: true, is_active: true });

  // A duplicate name: the API's 409, under the name field.
  await page.getByRole('button', { name: 'New task' }).click();
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('design');
  await dialog.getByRole('button', { name: 'Create task' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Name', exact: true })).toHaveAccessibleDescription('This name is already used in this workspace.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Edit: only what changed is sent.
  const patches: unknown[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PATCH' && r.url().includes('/api/v2/tasks/')) patches.push(r.postDataJSON());
  });
  await page.getByRole('button', { name: 'Edit Design' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Design' });
  await edit.getByText(/Billable by default/).click();
  await expect(edit.getByRole('checkbox', { name: /Billable by default/ })).not.toBeChecked();
  await edit.getByRole('textbox', { name: 'Default hourly rate' }).fill('135.5');
  await edit.getByRole('button', { name: 'Save task' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Not billable');
  await expect(row).toContainText('135.5');
  expect(patches).toEqual([{ billable_by_default: false, default_hourly_rate: 135.5 }]);

  await visit(page, '/tasks', 'tasks-list');
  await page.getByRole('button', { name: 'Archive Design' }).click();
  await expect(row).toBeHidden();
  expect((await workspace.api('GET', `/api/v2/tasks/${design.id}`)).body.is_active).toBe(false);
  await page.getByRole('button', { name: /Show$/ }).click();
  await page.getByRole('option', { name: 'Archived tasks' }).click();
  await expect(page).toHaveURL(/status=archived/);
  await page.getByRole('button', { name: 'Restore Design' }).click();
  await expect(row).toBeHidden();
  expect((await workspace.api('GET', `/api/v2/tasks/${design.id}`)).body.is_active).toBe(true);
  await expectClean(page);
});

test('a manager without rate permission never sees a rate; a member only reads', async ({ page, workspace }) => {
  const created = await workspace.api('POST', '/api/v2/tasks', { name: 'Research', default_hourly_rate: 987.65 });
  expect(created.status).toBe(201);

  const max = await workspace.seed.memberWithPassword('Max', 'manager');
  expect((await workspace.api('PATCH', `/web/api/members/${max.id}`, { permissions: ['edit_clients_and_tasks'] })).status).toBe(200);
  const bodies: Promise<string>[] = [];
  page.on('response', (r: Response) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/') || path.startsWith('/web/api/')) bodies.push(r.text().catch(() => ''));
  });
  await signIn(page, max);
  await visit(page, '/tasks', 'tasks-manager');
  await expect(page.getByRole('row', { name: /Research/ })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Hourly rate' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit Research' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Research' });
  await expect(edit.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Research');
  await expect(edit.getByRole('textbox', { name: 'Default hourly rate' })).toHaveCount(0);
  await edit.getByRole('textbox', { name: 'Name', exact: true }).fill('Research and discovery');
  await edit.getByRole('button', { name: 'Save task' }).click();
  await expect(page.getByRole('row', { name: /Research and discovery/ })).toBeVisible();
  await page.getByRole('button', { name: 'New task' }).click();
  await expect(page.getByRole('dialog', { name: 'New task' }).getByRole('textbox', { name: 'Default hourly rate' })).toHaveCount(0);
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  expect(await page.locator('body').innerText()).not.toContain('987');
  for (const body of await Promise.all(bodies)) {
    expect(body).not.toContain('987.65');
    expect(body).not.toContain('default_hourly_rate');
  }
  // The rate survived the manager's edit.
  expect((await workspace.api('GET', `/api/v2/tasks/${created.body.id}`)).body).toMatchObject({ name: 'Research and discovery', default_hourly_rate: 987.65 });

  // A member reads the catalog: no rate, no actions.
  const mia = await workspace.seed.member('Mia');
  await page.context().clearCookies();
  await signIn(page, mia);
  await visit(page, '/tasks', 'tasks-member');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Research and discovery/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New task' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Edit|Archive) / })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Hourly rate' })).toHaveCount(0);
  expect(await page.locator('body').innerText()).not.toContain('987');
  await expectClean(page);
});
