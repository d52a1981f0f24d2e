import { expect, test, type SheafServer } from './fixtures.ts';
import { expectClean, visit } from './visit.ts';

// A real SMTP sink and the outbox worker in this file's server: the reset link travels by e-mail.
test.use({ mail: true, signedIn: false });

/** The token of the newest reset link e-mailed to `email` (quoted-printable soft breaks undone). */
async function resetToken(sheaf: SheafServer, email: string): Promise<string> {
  const mine = () => sheaf.mail!.received.filter((m) => m.rcpt.includes(email));
  await expect.poll(() => mine().length, { message: `reset e-mail to ${email}`, timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  const text = mine().at(-1)!.raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');
  expect(text).toMatch(/Subject: Reset your Sheaf password/);
  return /\/reset-password#([A-Za-z0-9_-]{43})/.exec(text)![1];
}

test('forgot password: the e-mailed link sets a new password and signs in; the old password stops working', async ({ page, workspace, sheaf }) => {
  await visit(page, '/forgot-password', 'forgot-password-mail');
  await page.getByLabel('E-mail address').fill(workspace.owner.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText(`If ${workspace.owner.email} has an account, a link to choose a new password is on its way.`);

  const token = await resetToken(sheaf, workspace.owner.email);
  await visit(page, `/reset-password#${token}`, 'reset-password-from-mail');
  await page.getByLabel('New password').fill('chosen after the e-mail');
  await page.getByRole('button', { name: 'Save and sign in' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome, Olive');

  const request = page.context().request;
  expect((await request.post('/web/api/session', { data: { email: workspace.owner.email, password: workspace.owner.password } })).status()).toBe(401);
  expect((await request.post('/web/api/session', { data: { email: workspace.owner.email, password: 'chosen after the e-mail' } })).status()).toBe(200);
  await expectClean(page);
});
