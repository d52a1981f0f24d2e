import { expect, ok, signIn, test, type SheafServer } from './fixtures.ts';
import { checkPage, expectClean, visit } from './visit.ts';
import { typeDate } from './dates.ts';
import { createMember } from '../../src/modules/people/users/service.ts';
import { createWorkspace } from '../../src/provisioning.ts';
import { FIRST_OWNER_EMAIL } from '../../src/modules/people/users/email.ts';
import { issueLink } from '../../src/auth/one-time-links.ts';
import { operatorPrincipal } from '../../src/access/operator.ts';

// Issue 21, item 3. A real SMTP sink and the outbox worker: the confirmation link travels by e-mail.
test.use({ mail: true });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The token of the newest e-mail change link sent to `email` (quoted-printable soft breaks undone). */
async function confirmationToken(sheaf: SheafServer, email: string): Promise<string> {
  const mine = () => sheaf.mail!.received.filter((m) => m.rcpt.includes(email));
  await expect.poll(() => mine().length, { message: `confirmation e-mail to ${email}`, timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  const text = mine().at(-1)!.raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');
  expect(text).toMatch(/Subject: Confirm your new Sheaf e-mail address/);
  return /\/confirm-email#([A-Za-z0-9_-]{43})/.exec(text)![1];
}

// The e-mail change and the sign-in checks each cost a password hash (scrypt): slow on a busy machine.
const SAVING = { timeout: 20_000 };

test('reach the profile from the sidebar, change your name and preferences', async ({ page, workspace }) => {
  await page.goto('/');
  await page.getByRole('link', { name: /^Your profile: Olive Owner/ }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');

  await visit(page, '/settings/profile', 'profile');
  await page.getByRole('textbox', { name: 'First name' }).fill('Olivia');
  await page.getByRole('textbox', { name: 'Last name' }).fill('Ortiz');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your name is saved.' })).toBeVisible();
  // The navigation follows without a reload; the server agrees.
  await expect(page.getByRole('link', { name: /^Your profile: Olivia Ortiz/ }).first()).toBeAttached();
  expect((await workspace.api('GET', '/web/api/profile')).body).toMatchObject({ first_name: 'Olivia', last_name: 'Ortiz' });

  await page.getByRole('button', { name: /Language$/ }).click();
  // Each language in its own name.
  await expect(page.getByRole('option', { name: 'English' })).toBeVisible();
  await page.getByRole('option', { name: 'Deutsch' }).click();
  await page.getByRole('button', { name: /Dates$/ }).click();
  await page.getByRole('option', { name: '31.01.2025' }).click();
  await page.getByRole('button', { name: /Durations$/ }).click();
  await page.getByRole('option', { name: /decimal hours/ }).click();
  await page.getByRole('button', { name: 'Save preferences' }).click();
  // The page switches to German at once, without a reload.
  await expect(page.getByRole('status').filter({ hasText: 'Ihre Einstellungen sind gespeichert.' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Profil' })).toBeVisible();
  const session = (await workspace.api('GET', '/web/api/session')).body;
  expect(session.user.preferences).toEqual({ language: 'de', date_format: 'DD.MM.YYYY', duration_format: 'decimal', theme: 'system' });

  await page.reload();
  await expect(page.getByRole('button', { name: /Sprache$/ })).toContainText('Deutsch');
  await expect(page.getByRole('button', { name: /Dauern$/ })).toContainText('1,50');
  await expectClean(page);
});

test('change the e-mail address through the link sent to the new one', async ({ page, workspace, sheaf }) => {
  const newEmail = `olive.moved.${unique()}@example.com`;
  await visit(page, '/settings/profile', 'profile-email');
  await page.getByRole('textbox', { name: 'New e-mail address' }).fill(newEmail);
  await page.getByLabel('Current password').fill(workspace.owner.password);
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByText(`We sent a link to ${newEmail}.`)).toBeVisible(SAVING);
  await checkPage(page, 'profile-email-pending');
  // Nothing changed yet.
  expect((await workspace.api('GET', '/web/api/profile')).body).toMatchObject({ email: workspace.owner.email, pending_email: newEmail });

  const token = await confirmationToken(sheaf, newEmail);
  await visit(page, `/confirm-email#${token}`, 'confirm-email');
  await expect(page.getByRole('heading', { level: 1, name: 'Your e-mail address is changed' })).toBeVisible();
  await expect(page.getByText(`From now on you sign in with ${newEmail}.`)).toBeVisible();
  // The old address was told.
  await expect.poll(() => sheaf.mail!.received.filter((m) => m.rcpt.includes(workspace.owner.email) && /was changed/.test(m.raw)).length).toBe(1);

  await page.getByRole('link', { name: 'Continue to Sheaf' }).click();
  await expect(page.getByText(`as Olive Owner (${newEmail})`)).toBeVisible();
  const request = page.context().request;
  expect((await request.post('/web/api/session', { data: { email: newEmail, password: workspace.owner.password } })).status()).toBe(200);

  // The link works once.
  await page.goto('about:blank');
  await visit(page, `/confirm-email#${token}`, 'confirm-email-used');
  await expect(page.getByRole('heading', { level: 1, name: 'This link can’t be used' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask for a new link on your profile' })).toBeVisible();
  await expectClean(page);
});

test('an address another account has is refused in place, and nothing is sent', async ({ page, workspace, sheaf }) => {
  const other = await workspace.seed.memberWithoutPassword('Taken');
  await visit(page, '/settings/profile', 'profile-email-taken');
  await page.getByRole('textbox', { name: 'New e-mail address' }).fill(other.email);
  await page.getByLabel('Current password').fill(workspace.owner.password);
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByText('Another Sheaf account already uses this e-mail address.')).toBeVisible(SAVING);
  await checkPage(page, 'profile-email-taken-error');
  expect(sheaf.mail!.received.filter((m) => m.rcpt.includes(other.email))).toHaveLength(0);
});

test('sign out everywhere else: a second browser loses its session, this one stays', async ({ page, workspace, browser, baseURL }) => {
  const second = await browser.newContext({ baseURL });
  try {
    const other = await second.newPage();
    await signIn(other, workspace.owner);
    await other.goto('/');
    await expect(other.getByRole('heading', { level: 1 })).toHaveText('Welcome, Olive');

    await visit(page, '/settings/profile', 'profile-sessions');
    const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await expect(sessions).toHaveCount(2);
    await expect(sessions.filter({ hasText: 'This browser' })).toHaveCount(1);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'You are signed out everywhere else.' })).toBeVisible();
    await expect(sessions).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toBeDisabled();
    await checkPage(page, 'profile-sessions-alone');

    await other.reload();
    await expect(other).toHaveURL(/\/sign-in/);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  } finally {
    await second.close();
  }
  await expectClean(page);
});

test('sign out one other session', async ({ page, workspace, browser, baseURL }) => {
  const second = await browser.newContext({ baseURL });
  try {
    const other = await second.newPage();
    await signIn(other, workspace.owner);
    await visit(page, '/settings/profile', 'profile-one-session');
    const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await expect(sessions).toHaveCount(2);
    await page.getByRole('button', { name: /^Sign out .*, signed in / }).click();
    await expect(sessions).toHaveCount(1);
    await other.goto('/');
    await expect(other).toHaveURL(/\/sign-in/);
  } finally {
    await second.close();
  }
  await expectClean(page);
});

test.describe('the first start’s owner', () => {
  test.use({ signedIn: false });

  test('is asked for a real name and e-mail address first, then a password', async ({ page, sheaf }) => {
    // As the first start makes it (src/bootstrap.ts): one per installation, so an earlier run's is removed.
    await sheaf.db.deleteFrom('users').where('email', '=', FIRST_OWNER_EMAIL).execute();
    const company = await createWorkspace(sheaf.db, { name: `My workspace ${unique()}` });
    const owner = await createMember(sheaf.db, operatorPrincipal(company.id), { email: FIRST_OWNER_EMAIL, first_name: 'Workspace', last_name: 'Owner', role: 'owner' });
    const token = await issueLink(sheaf.db, owner.user_id, 'sign_in', sheaf.clock.now());
    const email = `ada.${unique()}@example.com`;

    await page.goto(`/sign-in/link#${token}`);
    await expect(page).toHaveURL('/welcome');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Sheaf' })).toBeVisible();
    await checkPage(page, 'welcome-first-owner');
    // Any other page sends back here until it is done.
    await page.goto('/settings/workspace');
    await expect(page).toHaveURL('/welcome?next=%2Fsettings%2Fworkspace');

    await page.getByRole('textbox', { name: 'First name' }).fill('Ada');
    await page.getByRole('textbox', { name: 'Last name' }).fill('Lovelace');
    await page.getByRole('textbox', { name: 'E-mail address' }).fill(email);
    // The business's name, the sender of the invoices: the first start's "My workspace" until changed here.
    await expect(page.getByRole('textbox', { name: 'Business name' })).toHaveValue(company.name);
    await page.getByRole('textbox', { name: 'Business name' }).fill('Lovelace Analytical Engines');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page).toHaveURL('/settings/password', SAVING);
    await page.getByLabel('Password', { exact: true }).fill('the analytical engine');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('link', { name: 'Continue to your workspace' }).click(SAVING);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Ada');
    await expect(page.getByText(`as Ada Lovelace (${email})`)).toBeVisible();

    // Done once: /welcome now moves on.
    await page.goto('/welcome');
    await expect(page).toHaveURL('/');
    const row = await sheaf.db.selectFrom('users').select(['email', 'first_name']).where('id', '=', owner.user_id).executeTakeFirstOrThrow();
    expect(row).toEqual({ email, first_name: 'Ada' });
    expect((await sheaf.db.selectFrom('companies').select('name').where('id', '=', company.id).executeTakeFirstOrThrow()).name).toBe('Lovelace Analytical Engines');
    await expectClean(page);
  });
});

test("date fields are typed in the order of the person's date pattern; the calendar stays in the app's language", async ({ page, workspace }) => {
  await visit(page, '/time-off', 'date-order-iso');
  await page.getByRole('button', { name: 'Add time off' }).click();
  const dialog = page.getByRole('dialog', { name: 'New time off' });
  const firstDay = dialog.getByRole('group', { name: 'First day' });
  // The default pattern, as the rest of the app writes dates: 2026-03-31.
  await expect(firstDay).toHaveText('yyyy-mm-dd');
  await typeDate(dialog, 'First day', '2026-03-31');
  await expect(firstDay).toHaveText('2026-03-31');
  // The calendar: English month names, the week from Monday.
  await dialog.getByRole('button', { name: 'Calendar' }).first().click();
  await expect(page.getByRole('heading', { name: 'March 2026' })).toBeVisible();
  // (the weekday letters are hidden from screen readers, which read each day's full date)
  await expect(page.locator('.react-aria-CalendarHeaderCell')).toHaveText(['M', 'T', 'W', 'T', 'F', 'S', 'S']);
  await page.keyboard.press('Escape');

  await ok(workspace.api('PATCH', '/web/api/profile', { date_format: 'MM/DD/YYYY' }));
  await page.reload();
  await page.getByRole('button', { name: 'Add time off' }).click();
  await expect(dialog.getByRole('group', { name: 'First day' })).toHaveText('mm/dd/yyyy');
  await typeDate(dialog, 'First day', '2026-03-31');
  await expect(dialog.getByRole('group', { name: 'First day' })).toHaveText('03/31/2026');
  await checkPage(page, 'date-order-us');
});
