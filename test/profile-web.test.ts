import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createTestContext, createWorkspaceWithOwner, request, sessionFor, type Caller, type TestContext } from './helpers.ts';
import { setPassword } from '../src/modules/people/sessions/service.ts';
import { createMember } from '../src/modules/people/users/service.ts';
import { createWorkspace } from '../src/provisioning.ts';
import { FIRST_OWNER_EMAIL } from '../src/modules/people/users/email.ts';
import { issueLink } from '../src/auth/one-time-links.ts';
import { newId } from '../src/ids.ts';
import { operatorPrincipal } from '../src/access/operator.ts';

/**
 * Issue 21, item 3: a person's own profile under /web/api/profile (name,
 * preferences, an e-mail change confirmed by a link to the new address, their
 * sessions) and the first owner's first sign-in, which replaces the first
 * start's placeholder identity.
 */

let ctx: TestContext;
let companyId: string;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  ctx = await createTestContext();
  companyId = (await createWorkspaceWithOwner(ctx.db, 'Profile Inc')).company.id;
});
afterAll(() => ctx.close());

async function person(options: { password?: boolean } = {}) {
  const m = await addMember(ctx.db, companyId, { role: 'member', firstName: 'Pia', lastName: 'Person' });
  if (options.password) await setPassword(ctx.db, m.userId, PASSWORD);
  return { ...m, session: await sessionFor(ctx.db, m, ctx.clock.now()) };
}

const call = (who: Caller | null, method: 'GET' | 'PATCH' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  request(ctx.app, who, { method, url, ...(payload ? { payload } : {}) });

const userRow = (id: string) =>
  ctx.db.selectFrom('users').select(['email', 'first_name', 'last_name', 'language', 'date_format', 'duration_format']).where('id', '=', id).executeTakeFirstOrThrow();

const mails = (kind: string) =>
  ctx.db
    .selectFrom('outbox')
    .select(['payload'])
    .where('kind', '=', kind)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map((r) => r.payload as { to: Array<{ email: string }>; subject: string; text: string }));

/** The confirmation token e-mailed to `email` (the newest). */
async function confirmationToken(email: string): Promise<string> {
  const mail = (await mails('email_change')).filter((m) => m.to[0].email === email).at(-1);
  expect(mail, `a confirmation mail to ${email}`).toBeDefined();
  const link = /(http:\/\/\S+)\/confirm-email#([A-Za-z0-9_-]{43})/.exec(mail!.text);
  expect(link?.[1]).toBe(`http://${ctx.config.host}:${ctx.config.port}`);
  return link![2];
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe('name and preferences', () => {
  it('the session and the profile return the defaults; a change is stored and returned by both', async () => {
    const p = await person();
    const session = (await call(p.session, 'GET', '/web/api/session')).json();
    expect(session.user).toMatchObject({ needs_identity: false, preferences: { language: 'en', date_format: 'YYYY-MM-DD', duration_format: 'h:mm', theme: 'system' } });

    const res = await call(p.session, 'PATCH', '/web/api/profile', {
      first_name: ' Paula ',
      last_name: 'Neu',
      language: 'de',
      date_format: 'DD.MM.YYYY',
      duration_format: 'decimal',
      theme: 'dark',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id: p.userId,
      first_name: 'Paula',
      last_name: 'Neu',
      email: p.email,
      pending_email: null,
      has_password: false,
      preferences: { language: 'de', date_format: 'DD.MM.YYYY', duration_format: 'decimal', theme: 'dark' },
    });
    expect(await userRow(p.userId)).toMatchObject({ first_name: 'Paula', last_name: 'Neu', language: 'de', duration_format: 'decimal' });
    const after = (await call(p.session, 'GET', '/web/api/session')).json();
    expect(after.user).toMatchObject({ first_name: 'Paula', preferences: { language: 'de', date_format: 'DD.MM.YYYY', duration_format: 'decimal', theme: 'dark' } });
    // The name is the identity's: the members list of the workspace shows it.
    const users = (await call(p, 'GET', '/api/v2/users?per_page=100')).json().users as Array<{ id: string; first_name: string }>;
    expect(users.find((u) => u.id === p.userId)?.first_name).toBe('Paula');
  });

  it('refuses unknown fields, wrong types, unknown choices, a blank first name and an empty change, and changes nothing', async () => {
    const p = await person();
    const before = await userRow(p.userId);
    const cases: Array<[object, string]> = [
      [{ nickname: 'P' }, 'unknown_field'],
      [{ email: 'x@example.com' }, 'unknown_field'],
      [{ first_name: 42 }, 'invalid_request'],
      [{ language: 'fr' }, 'invalid_request'],
      [{ date_format: 'D/M/Y' }, 'invalid_request'],
      [{ duration_format: 'minutes' }, 'invalid_request'],
      [{ theme: 'sepia' }, 'invalid_request'],
      [{ first_name: '   ' }, 'invalid_request'],
      [{ last_name: 'x'.repeat(256) }, 'invalid_request'],
      [{}, 'invalid_request'],
    ];
    for (const [payload, code] of cases) {
      const res = await call(p.session, 'PATCH', '/web/api/profile', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error, JSON.stringify(payload)).toBe(code);
    }
    expect(await userRow(p.userId)).toEqual(before);
  });

  it('needs the CSRF token and a session: an API key is refused on /web/api', async () => {
    const p = await person();
    const noToken = await ctx.app.inject({ method: 'PATCH', url: '/web/api/profile', headers: { cookie: p.session.headers.cookie }, payload: { first_name: 'Evil' } });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.json().error).toBe('csrf_failed');
    const withKey = await call(p, 'PATCH', '/web/api/profile', { first_name: 'Evil' });
    expect(withKey.statusCode).toBe(403);
    expect(withKey.json().error).toBe('session_required');
    expect((await call(null, 'GET', '/web/api/profile')).statusCode).toBe(401);
    expect((await userRow(p.userId)).first_name).toBe('Pia');
  });
});

describe('changing the e-mail address', () => {
  it('sends a link to the new address; the change applies only when it is opened, once; the old address is told', async () => {
    const p = await person();
    const newEmail = `pia.new.${unique()}@example.com`;
    const res = await call(p.session, 'POST', '/web/api/profile/email', { email: ` ${newEmail.toUpperCase()} ` });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ email: p.email, pending_email: newEmail });
    // Nothing changed yet.
    expect((await userRow(p.userId)).email).toBe(p.email);
    expect((await call(p.session, 'GET', '/web/api/profile')).json().pending_email).toBe(newEmail);

    const token = await confirmationToken(newEmail);
    const oldReset = await issueLink(ctx.db, p.userId, 'password_reset', ctx.clock.now());
    const confirm = await call(null, 'POST', '/web/api/profile/email/confirm', { token });
    expect(confirm.statusCode, confirm.body).toBe(200);
    expect(confirm.json()).toEqual({ email: newEmail });
    expect((await userRow(p.userId)).email).toBe(newEmail);
    expect((await call(p.session, 'GET', '/web/api/session')).json().user.email).toBe(newEmail);
    expect((await call(p.session, 'GET', '/web/api/profile')).json().pending_email).toBeNull();

    const notice = (await mails('email_changed')).filter((m) => m.to[0].email === p.email);
    expect(notice).toHaveLength(1);
    expect(notice[0].text).toContain(`is now ${newEmail}`);

    const again = await call(null, 'POST', '/web/api/profile/email/confirm', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('link_invalid');
    // A reset link sent to the old address before the change no longer works.
    const reset = await call(null, 'POST', '/web/api/password-resets/redeem', { token: oldReset, password: 'a long enough password' });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().error).toBe('link_invalid');
  });

  it("the confirmation and the notice are in the person's language (set on the profile): German, or English as before", async () => {
    const base = `http://${ctx.config.host}:${ctx.config.port}`;
    const change = async (p: Awaited<ReturnType<typeof person>>) => {
      const newEmail = `pia.lang.${unique()}@example.com`;
      expect((await call(p.session, 'POST', '/web/api/profile/email', { email: newEmail })).statusCode).toBe(202);
      const token = await confirmationToken(newEmail);
      const confirmation = (await mails('email_change')).filter((m) => m.to[0].email === newEmail).at(-1)!;
      expect((await call(null, 'POST', '/web/api/profile/email/confirm', { token })).statusCode).toBe(200);
      const [notice] = (await mails('email_changed')).filter((m) => m.to[0].email === p.email);
      return { newEmail, token, confirmation, notice };
    };

    const de = await person();
    expect((await call(de.session, 'PATCH', '/web/api/profile', { language: 'de' })).statusCode).toBe(200);
    const german = await change(de);
    expect(german.confirmation.subject).toBe('Bestätigen Sie Ihre neue E-Mail-Adresse für Sheaf');
    expect(german.confirmation.text).toBe(
      [
        'Guten Tag Pia,',
        '',
        `Sie möchten sich bei Sheaf künftig mit ${german.newEmail} statt mit ${de.email} anmelden.`,
        'Öffnen Sie diesen Link innerhalb von 24 Stunden, um die neue Adresse zu bestätigen:',
        '',
        `${base}/confirm-email#${german.token}`,
        '',
        `Bis dahin bleibt Ihre Adresse ${de.email}. Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Es ändert sich nichts.`,
      ].join('\n'),
    );
    expect(german.notice.subject).toBe('Ihre E-Mail-Adresse für Sheaf wurde geändert');
    expect(german.notice.text).toBe(
      [
        'Guten Tag Pia,',
        '',
        `Die E-Mail-Adresse Ihres Sheaf-Kontos lautet jetzt ${german.newEmail}; mit ${de.email} ist keine Anmeldung mehr möglich.`,
        '',
        'Falls Sie diese Änderung nicht selbst vorgenommen haben, wenden Sie sich bitte umgehend an eine Administratorin oder einen Administrator Ihres Arbeitsbereichs.',
      ].join('\n'),
    );

    const en = await person();
    const english = await change(en);
    expect(english.confirmation.subject).toBe('Confirm your new Sheaf e-mail address');
    expect(english.confirmation.text).toBe(
      [
        'Hello Pia,',
        '',
        `You asked to sign in to Sheaf with ${english.newEmail} instead of ${en.email}.`,
        'Open this link within 24 hours to confirm the new address:',
        '',
        `${base}/confirm-email#${english.token}`,
        '',
        `Until then, your address stays ${en.email}. If you did not ask for this, ignore this e-mail: nothing changes.`,
      ].join('\n'),
    );
    expect(english.notice.subject).toBe('Your Sheaf e-mail address was changed');
    expect(english.notice.text).toBe(
      [
        'Hello Pia,',
        '',
        `The e-mail address of your Sheaf account is now ${english.newEmail}; ${en.email} no longer signs in.`,
        '',
        'If you did not make this change, tell an administrator of your workspace at once.',
      ].join('\n'),
    );
  });

  it('an expired link, an unknown or malformed one is a clear 400 and changes nothing', async () => {
    const p = await person();
    const newEmail = `late.${unique()}@example.com`;
    expect((await call(p.session, 'POST', '/web/api/profile/email', { email: newEmail })).statusCode).toBe(202);
    const token = await confirmationToken(newEmail);
    ctx.clock.advance(24 * 60 * 60 * 1000 + 1000);
    try {
      for (const t of [token, 'x'.repeat(43), 'short']) {
        const res = await call(null, 'POST', '/web/api/profile/email/confirm', { token: t });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe('link_invalid');
      }
      // A sign-in link is no e-mail change link.
      const signIn = await issueLink(ctx.db, p.userId, 'sign_in', ctx.clock.now());
      expect((await call(null, 'POST', '/web/api/profile/email/confirm', { token: signIn })).json().error).toBe('link_invalid');
      expect((await userRow(p.userId)).email).toBe(p.email);
      expect((await call(p.session, 'GET', '/web/api/profile')).json().pending_email).toBeNull();
    } finally {
      ctx.clock.advance(-(24 * 60 * 60 * 1000 + 1000));
    }
  });

  it('a newer request replaces the earlier link', async () => {
    const p = await person();
    const first = `first.${unique()}@example.com`;
    const second = `second.${unique()}@example.com`;
    await call(p.session, 'POST', '/web/api/profile/email', { email: first });
    const firstToken = await confirmationToken(first);
    await call(p.session, 'POST', '/web/api/profile/email', { email: second });
    expect((await call(null, 'POST', '/web/api/profile/email/confirm', { token: firstToken })).statusCode).toBe(400);
    expect((await call(null, 'POST', '/web/api/profile/email/confirm', { token: await confirmationToken(second) })).statusCode).toBe(200);
    expect((await userRow(p.userId)).email).toBe(second);
  });

  it('refuses an address another account has, in any workspace, with 409 that names no workspace, and sends nothing', async () => {
    const p = await person();
    const elsewhere = await createWorkspace(ctx.db, { name: 'Secret Client Ltd' });
    const other = await createMember(ctx.db, operatorPrincipal(elsewhere.id), { email: `taken.${unique()}@example.com`, first_name: 'Taken' });
    const before = (await mails('email_change')).length;
    const res = await call(p.session, 'POST', '/web/api/profile/email', { email: other.email.toUpperCase() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: 'email_taken',
      error_description: 'This e-mail address is already used by another Sheaf account.',
      message: 'This e-mail address is already used by another Sheaf account.',
      field: 'email',
    });
    expect(res.body).not.toContain('Secret Client');
    expect((await mails('email_change')).length).toBe(before);
  });

  it('refuses at confirmation an address someone took meanwhile (409), and the person keeps theirs', async () => {
    const p = await person();
    const wanted = `wanted.${unique()}@example.com`;
    await call(p.session, 'POST', '/web/api/profile/email', { email: wanted });
    const token = await confirmationToken(wanted);
    await createMember(ctx.db, operatorPrincipal(companyId), { email: wanted, first_name: 'Quick' });
    const res = await call(null, 'POST', '/web/api/profile/email/confirm', { token });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('email_taken');
    expect((await userRow(p.userId)).email).toBe(p.email);
  });

  it('refuses a malformed address, the current one, unknown fields and wrong types', async () => {
    const p = await person();
    for (const [payload, code] of [
      [{ email: 'not-an-address' }, 'invalid_request'],
      [{ email: p.email }, 'invalid_request'],
      [{ email: FIRST_OWNER_EMAIL }, 'invalid_request'],
      [{ email: 7 }, 'invalid_request'],
      [{ email: 'a@b.example', confirm: true }, 'unknown_field'],
      [{}, 'invalid_request'],
    ] as Array<[object, string]>) {
      const res = await call(p.session, 'POST', '/web/api/profile/email', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error, JSON.stringify(payload)).toBe(code);
    }
    expect((await call(p.session, 'GET', '/web/api/profile')).json().pending_email).toBeNull();
  });

  it('needs the current password of a person who has one', async () => {
    const p = await person({ password: true });
    const email = `pw.${unique()}@example.com`;
    const missing = await call(p.session, 'POST', '/web/api/profile/email', { email });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().field).toBe('current_password');
    expect((await call(p.session, 'POST', '/web/api/profile/email', { email, current_password: 'wrong' })).statusCode).toBe(400);
    expect((await call(p.session, 'GET', '/web/api/profile')).json().pending_email).toBeNull();
    expect((await call(p.session, 'POST', '/web/api/profile/email', { email, current_password: PASSWORD })).statusCode).toBe(202);
  });
});

describe('your sessions', () => {
  it('lists your live sessions (never another person\'s), marks the current one, and signs out elsewhere', async () => {
    const p = await person();
    const other = await sessionFor(ctx.db, p, ctx.clock.now());
    const stranger = await person();
    const list = await call(p.session, 'GET', '/web/api/profile/sessions');
    expect(list.statusCode).toBe(200);
    const sessions = list.json().sessions as Array<{ id: string; current: boolean; created_at: string; last_seen_at: string }>;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ created_at: expect.stringMatching(/Z$/), last_seen_at: expect.stringMatching(/Z$/), ip: null, user_agent: null });

    const res = await call(p.session, 'DELETE', '/web/api/profile/sessions');
    expect(res.statusCode).toBe(204);
    expect((await call(p.session, 'GET', '/web/api/session')).statusCode).toBe(200);
    expect((await call(other, 'GET', '/web/api/session')).statusCode).toBe(401);
    expect((await call(stranger.session, 'GET', '/web/api/session')).statusCode).toBe(200);
    expect((await call(p.session, 'GET', '/web/api/profile/sessions')).json().sessions).toHaveLength(1);
  });

  it('signs out one other session; another person\'s session id or an unknown one is 404, the current one 400', async () => {
    const p = await person();
    const other = await sessionFor(ctx.db, p, ctx.clock.now());
    const stranger = await person();
    const ids = (who: Caller) => call(who, 'GET', '/web/api/profile/sessions').then((r) => r.json().sessions as Array<{ id: string; current: boolean }>);
    const [mine, theirs] = await Promise.all([ids(p.session), ids(stranger.session)]);
    const otherId = mine.find((s) => !s.current)!.id;
    const currentId = mine.find((s) => s.current)!.id;

    for (const id of [theirs[0].id, newId(), 'not-an-id']) {
      const res = await call(p.session, 'DELETE', `/web/api/profile/sessions/${id}`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect((await call(stranger.session, 'GET', '/web/api/session')).statusCode).toBe(200);
    expect((await call(p.session, 'DELETE', `/web/api/profile/sessions/${currentId}`)).statusCode).toBe(400);
    const noToken = await ctx.app.inject({ method: 'DELETE', url: `/web/api/profile/sessions/${otherId}`, headers: { cookie: p.session.headers.cookie } });
    expect(noToken.statusCode).toBe(403);
    expect((await call(other, 'GET', '/web/api/session')).statusCode).toBe(200);

    expect((await call(p.session, 'DELETE', `/web/api/profile/sessions/${otherId}`)).statusCode).toBe(204);
    expect((await call(other, 'GET', '/web/api/session')).statusCode).toBe(401);
    expect((await call(p.session, 'GET', '/web/api/session')).statusCode).toBe(200);
  });
});

describe('the first owner\'s first sign-in', () => {
  async function placeholderOwner() {
    // As the first start makes it (src/bootstrap.ts); one per installation, so removed again afterwards.
    const company = await createWorkspace(ctx.db, { name: 'My workspace' });
    const owner = await createMember(ctx.db, operatorPrincipal(company.id), { email: FIRST_OWNER_EMAIL, first_name: 'Workspace', last_name: 'Owner', role: 'owner' });
    const session = await sessionFor(ctx.db, { userId: owner.user_id, companyId: company.id }, ctx.clock.now());
    return { id: owner.user_id, session };
  }
  const remove = (id: string) => ctx.db.deleteFrom('users').where('id', '=', id).execute();

  it('the session says needs_identity; the real name and address are set at once, once', async () => {
    const owner = await placeholderOwner();
    try {
      expect((await call(owner.session, 'GET', '/web/api/session')).json().user.needs_identity).toBe(true);
      const email = `real.owner.${unique()}@example.com`;
      const bad = await call(owner.session, 'PUT', '/web/api/profile/identity', { first_name: 'Ada', last_name: 'Lovelace', email: FIRST_OWNER_EMAIL });
      expect(bad.statusCode).toBe(400);
      const missing = await call(owner.session, 'PUT', '/web/api/profile/identity', { first_name: 'Ada', email });
      expect(missing.statusCode).toBe(400);
      const res = await call(owner.session, 'PUT', '/web/api/profile/identity', { first_name: 'Ada', last_name: 'Lovelace', email: email.toUpperCase() });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace', email, needs_identity: false });
      expect(await userRow(owner.id)).toMatchObject({ email, first_name: 'Ada' });
      const again = await call(owner.session, 'PUT', '/web/api/profile/identity', { first_name: 'Eve', last_name: 'X', email: `eve.${unique()}@example.com` });
      expect(again.statusCode).toBe(409);
      expect((await userRow(owner.id)).first_name).toBe('Ada');
    } finally {
      await remove(owner.id);
    }
  });

  it('refuses an address another account has (409), and only the placeholder owner may use it', async () => {
    const owner = await placeholderOwner();
    try {
      const other = await person();
      const taken = await call(owner.session, 'PUT', '/web/api/profile/identity', { first_name: 'Ada', last_name: 'L', email: other.email });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().error).toBe('email_taken');
      expect((await userRow(owner.id)).email).toBe(FIRST_OWNER_EMAIL);
      const notPlaceholder = await call(other.session, 'PUT', '/web/api/profile/identity', { first_name: 'Ada', last_name: 'L', email: `x.${unique()}@example.com` });
      expect(notPlaceholder.statusCode).toBe(409);
      expect((await userRow(other.userId)).email).toBe(other.email);
    } finally {
      await remove(owner.id);
    }
  });
});
