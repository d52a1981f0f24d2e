import type { Page } from '@playwright/test';
import { expect, signIn, test, type TestWorkspace } from './fixtures.ts';
import { expectClean, visit } from './visit.ts';

/**
 * Issue 21, item 7: a role sees only the pages and actions it may use. For a member, a
 * manager without and with every permission, an administrator and an owner: which entries
 * the main and settings navigation hold, which create actions the lists offer; and every
 * page a role may not use, typed as an address, shows "Not available to your role" inside
 * the shell (h1, a way home) instead of a form the server would refuse. The server's
 * refusal is checked beside it, so the two rules cannot drift apart.
 */

test.use({ signedIn: false });
// Up to ten pages per role, checked at both widths; the shared machine is slow at times.
test.describe.configure({ timeout: 300_000 });

const MAIN = ['Home', 'Time', 'Time off', 'Expenses', 'Approvals', 'Planning', 'Projects', 'Clients', 'Tasks', 'Reports', 'Invoices', 'Estimates', 'Settings'];
const SETTINGS = ['Profile', 'Workspace', 'Members', 'Invitations', 'Holidays & breaks', 'Expense categories', 'API and Developers', 'Password', 'Invoicing', 'Bank accounts', 'Item categories', 'Webhooks', 'Single sign-on', 'Audit log', 'Import'];
const ALL_PERMISSIONS = ['edit_projects', 'edit_clients_and_tasks', 'view_billable_rates', 'view_invoices', 'approve_managed_projects', 'view_internal_costs'];

/** Pages only some roles may use, with the API request each one's page relies on (what the server says for that role). */
const GUARDED = {
  '/settings/members': '/web/api/members',
  '/settings/invitations': '/web/api/invitations',
  '/projects/new': null,
  '/clients/new': null,
  '/invoices': '/api/v2/invoices',
  '/invoices/new': '/api/v2/invoices',
  '/reports/team': null,
  '/reports/budget': null,
  '/reports/uninvoiced': null,
  '/reports/planned': '/web/api/reports/planned_vs_tracked?from=2026-01-01&to=2026-01-31',
  '/planning': '/web/api/schedule?from=2026-01-05',
} as const;
type Guarded = keyof typeof GUARDED;

interface Case {
  who: string;
  role: 'member' | 'manager' | 'administrator' | 'owner';
  permissions?: string[];
  main: string[];
  settings: string[];
  creates: { project: boolean; client: boolean; task: boolean };
  reports: string[];
  refused: Guarded[];
}

const CASES: Case[] = [
  {
    who: 'member',
    role: 'member',
    main: MAIN.filter((e) => e !== 'Invoices' && e !== 'Estimates' && e !== 'Planning'),
    settings: ['Profile', 'Workspace', 'API and Developers', 'Password'],
    creates: { project: false, client: false, task: false },
    reports: ['Time', 'Saved'],
    refused: Object.keys(GUARDED) as Guarded[],
  },
  {
    who: 'manager-plain',
    role: 'manager',
    permissions: [],
    main: MAIN,
    settings: ['Profile', 'Workspace', 'API and Developers', 'Password'],
    creates: { project: false, client: false, task: false },
    reports: ['Time', 'Team', 'Planned vs tracked', 'Saved'],
    refused: ['/settings/members', '/settings/invitations', '/projects/new', '/clients/new', '/reports/budget', '/reports/uninvoiced'],
  },
  {
    who: 'manager-all',
    role: 'manager',
    permissions: ALL_PERMISSIONS,
    main: MAIN,
    settings: ['Profile', 'Workspace', 'Expense categories', 'API and Developers', 'Password'],
    creates: { project: true, client: true, task: true },
    reports: ['Time', 'Team', 'Project budget', 'Uninvoiced', 'Planned vs tracked', 'Saved'],
    refused: ['/settings/members', '/settings/invitations'],
  },
  {
    who: 'administrator',
    role: 'administrator',
    main: MAIN,
    settings: SETTINGS,
    creates: { project: true, client: true, task: true },
    reports: ['Time', 'Team', 'Project budget', 'Uninvoiced', 'Planned vs tracked', 'Saved'],
    refused: [],
  },
  { who: 'owner', role: 'owner', main: MAIN, settings: SETTINGS, creates: { project: true, client: true, task: true }, reports: ['Time', 'Team', 'Project budget', 'Uninvoiced', 'Planned vs tracked', 'Saved'], refused: [] },
];

async function person(workspace: TestWorkspace, c: Case) {
  if (c.role === 'owner') return workspace.owner;
  const p = await workspace.seed.memberWithPassword(c.who.replace('-', ''), c.role);
  if (c.permissions?.length) {
    const res = await workspace.api('PATCH', `/web/api/members/${p.id}`, { permissions: c.permissions });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return p;
}

const links = (page: Page, nav: string) => page.getByRole('navigation', { name: nav }).getByRole('link');

for (const c of CASES) {
  test(`${c.who}: the navigation and actions the role may use, and nothing else`, async ({ page, workspace }) => {
    await signIn(page, await person(workspace, c));

    await visit(page, '/settings/workspace', `roles-${c.who}-settings`);
    await expect(links(page, 'Main')).toHaveText(c.main);
    await expect(links(page, 'Settings')).toHaveText(c.settings);

    // The lists offer "New …" only to whom may create (each page's h1 first: the page is drawn).
    const opened = async (path: string, h1: string) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
    };
    await opened('/projects', 'Projects');
    await expect(page.getByRole('link', { name: 'New project' })).toHaveCount(c.creates.project ? 1 : 0);
    await opened('/clients', 'Clients');
    await expect(page.getByRole('link', { name: 'New client' })).toHaveCount(c.creates.client ? 1 : 0);
    await opened('/tasks', 'Tasks');
    await expect(page.getByRole('button', { name: 'New task' })).toHaveCount(c.creates.task ? 1 : 0);
    await opened('/reports/time', 'Reports');
    await expect(links(page, 'Reports')).toHaveText(c.reports);

    // Every page the role may use opens as itself (not the refusal).
    for (const path of (Object.keys(GUARDED) as Guarded[]).filter((p) => !c.refused.includes(p))) {
      await page.goto(path);
      await expect(page.locator('h1')).toBeVisible();
      await expect(page.getByRole('heading', { level: 1, name: 'Not available to your role' })).toHaveCount(0);
    }

    await expectClean(page);
  });

  // Each page the role may not use, typed as an address: one test each (every one is checked at both widths).
  for (const path of c.refused) {
    test(`${c.who} typing ${path} is told it is not available to their role`, async ({ page, workspace }) => {
      await signIn(page, await person(workspace, c));
      await visit(page, path, `roles-${c.who}-refused${path.replaceAll('/', '-')}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not available to your role');
      // Inside the shell: the navigation stays, and a way home.
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeAttached();
      await expect(page.getByRole('link', { name: 'Go to the start page' })).toBeVisible();
      // No form of the page was drawn.
      await expect(page.getByRole('button', { name: /Add agent|Invite someone|Create|Save/ })).toHaveCount(0);
      // The server refuses the same role.
      const api = GUARDED[path];
      if (api) expect((await page.context().request.get(api)).status(), `${api} as ${c.who}`).toBe(403);
      await expectClean(page);
    });
  }
}

test('the way home from the refusal works, and the refused page asked the server for nothing', async ({ page, workspace }) => {
  const mia = await workspace.seed.memberWithPassword('Mia');
  await signIn(page, mia);
  const calls = await visit(page, '/settings/members', 'roles-member-members');
  expect(calls.filter((c) => c.includes('/members') || c.includes('/invitations'))).toEqual([]);
  await page.getByRole('link', { name: 'Go to the start page' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Not available to your role');
});
