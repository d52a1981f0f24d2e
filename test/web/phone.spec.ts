import { expect, test } from './fixtures.ts';
import { checkPage, visit } from './visit.ts';

/** At 390 px (issue 21 item 13): the timer bar is one line, the week grid and wide tables stack, nothing scrolls sideways. */

test.use({ viewport: { width: 390, height: 844 } });

const scrollsSideways = (page: import('@playwright/test').Page) =>
  page.evaluate(() => [...document.querySelectorAll('table')].some((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1));

test('the timer bar is one line until a project is chosen, then the notes join', async ({ page, workspace }) => {
  await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'] });
  await page.goto('/time/week');
  const bar = page.getByRole('region', { name: 'Timer' });
  const picker = bar.getByRole('combobox', { name: 'Project and task' });
  const start = bar.getByRole('button', { name: 'Start timer' });
  await expect(picker).toHaveAttribute('placeholder', 'Project and task');
  // The placeholder is the field's only visible label here: a label's grey (stone-600), not a hint's (stone-400, 2.6:1).
  const labelGrey = await page.evaluate(() => {
    const probe = document.body.appendChild(Object.assign(document.createElement('span'), { className: 'text-stone-600' }));
    const color = getComputedStyle(probe).color;
    probe.remove();
    return color;
  });
  expect(await picker.evaluate((el) => getComputedStyle(el, '::placeholder').color)).toBe(labelGrey);
  await expect(bar.getByRole('textbox', { name: 'Notes' })).toBeHidden();
  const [p, s] = [await picker.boundingBox(), await start.boundingBox()];
  expect(Math.abs(p!.y + p!.height / 2 - (s!.y + s!.height / 2)), 'the picker and Start on one line').toBeLessThan(4);
  expect((await bar.boundingBox())!.height).toBeLessThan(80);

  await picker.fill('webs');
  await page.getByRole('option', { name: /Website - Design/ }).click();
  await expect(bar.getByRole('textbox', { name: 'Notes' })).toBeVisible();
  await bar.getByRole('textbox', { name: 'Notes' }).fill('Phone call');
  await start.click();
  await expect(bar.getByRole('button', { name: 'Stop timer' })).toBeVisible();
  await checkPage(page, 'phone-timer-running');
});

test('the week grid stacks into days per row, and wide lists into labelled lines', async ({ page, workspace }) => {
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'] });
  expect((await workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: project.taskIds[0], spent_date: '2026-01-06', hours: 1.5 })).status).toBe(201);

  await visit(page, '/time/week?start=2026-01-05', 'phone-week');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await scrollsSideways(page)).toBe(false);
  const tuesday = page.getByRole('textbox', { name: /Website.*Design.*Tue 6 Jan/ });
  await expect(tuesday).toBeVisible();
  await expect(tuesday).toHaveValue('1:30');
  // The cell says its day on the left (its column's name, copied from the header).
  await expect(page.locator('td', { has: tuesday })).toHaveAttribute('data-label', 'Tue 6 Jan');
  await tuesday.fill('2:00');
  await tuesday.press('Enter');
  await expect.poll(async () => (await workspace.api('GET', '/api/v2/time_entries?from=2026-01-06&to=2026-01-06')).body.time_entries[0]?.hours).toBe(2);

  for (const [path, name] of [
    ['/projects', 'phone-projects'],
    ['/time/day?date=2026-01-06', 'phone-day'],
  ] as const) {
    await visit(page, path, name);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await scrollsSideways(page), path).toBe(false);
  }
  await expect(page.locator('td[data-label]').first()).toBeVisible();
  // The day's total row names only what it totals: its filler under Billable is not shown.
  await expect(page.locator('tfoot td[data-label="Hours"]')).toBeVisible();
  await expect(page.locator('tfoot td[data-label="Billable"]')).toBeHidden();
});

test('a stacked cell holds its column’s name, however many lines the name takes', async ({ page, workspace }) => {
  const project = await workspace.seed.project({ client: 'Acme', name: 'Website', tasks: ['Design'] });
  expect((await workspace.api('POST', '/api/v2/time_entries', { project_id: project.id, task_id: project.taskIds[0], spent_date: '2026-01-06', hours: 1.5 })).status).toBe(201);

  // The team report's amount columns have the longest names ("Billable amount (EUR)").
  await visit(page, '/reports/team?from=2026-01-01&to=2026-01-31', 'phone-team-report');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator('td[data-label]').first()).toBeVisible();
  const cells = await page.locator('td[data-label]').evaluateAll((tds) =>
    tds.map((td) => {
      const name = getComputedStyle(td, '::before');
      return { label: td.getAttribute('data-label'), cell: td.getBoundingClientRect().height, name: parseFloat(name.height) + parseFloat(name.marginTop) };
    }),
  );
  expect(cells.some((c) => c.name > 30), 'a name of two lines or more').toBe(true);
  for (const c of cells) expect(c.cell, `the cell of ${c.label}`).toBeGreaterThanOrEqual(c.name);
});
