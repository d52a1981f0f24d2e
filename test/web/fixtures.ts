import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { TEST_SECRET_KEY } from '../secret-key.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import type { DB, Role } from '../../src/db/types.ts';
import { createMember, deactivateMember } from '../../src/modules/people/users/service.ts';
import { createWorkspace } from '../../src/provisioning.ts';
import { issueLink } from '../../src/auth/one-time-links.ts';
import { setPassword } from '../../src/modules/people/sessions/service.ts';
import { createSession, SESSION_COOKIE } from '../../src/auth/sessions.ts';
import { copyTemplate } from './global-setup.ts';
import { startSmtp, type Received } from '../fixtures/smtp.ts';
import { operatorPrincipal } from '../../src/access/operator.ts';

/**
 * Fixtures of the browser tests (after mtlynch/screenjournal's e2e/fixtures.ts):
 * each worker runs its own Sheaf in-process, on PGlite in a temporary directory, on a
 * free port, serving the production build of web/dist with the production headers and
 * a clock the tests can move; each test gets a fresh workspace and owner (isolation by
 * workspace), seeded through the services, never by writing tables.
 */

/** A clock the tests move (the server reads it through config.clock). */
export class MovableClock {
  private offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

export interface SheafServer {
  url: string;
  app: FastifyInstance;
  db: Kysely<DB>;
  clock: MovableClock;
  /** With the `mail` option: the e-mails the outbox worker delivered to a local SMTP sink. */
  mail?: { received: Received[]; mails: (count: number, ms: number) => Promise<void> };
}

export interface Owner {
  id: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export interface TestWorkspace {
  id: string;
  name: string;
  owner: Owner;
  seed: {
    /** Another workspace the owner also belongs to, with the given role. */
    otherWorkspace(name: string, role: Role): Promise<{ id: string; name: string }>;
    /** A member of this workspace without a password (as the first start's owner, or someone added by the CLI). */
    memberWithoutPassword(firstName: string, role?: Role): Promise<{ id: string; email: string }>;
    /** A member of this workspace who signs in with a password. */
    memberWithPassword(firstName: string, role?: Role): Promise<{ id: string; email: string; password: string }>;
    /** A one-time link token for that person, as the first start or a reset e-mail hands it out. */
    link(userId: string, purpose: 'sign_in' | 'password_reset'): Promise<string>;
    /** Deactivates the owner's membership of another workspace (as its administrators would). */
    deactivateOwnerIn(companyId: string): Promise<void>;
    /** A client, a project and its tasks, through the API as the owner; `members` are assigned to it. */
    project(o: { client: string; name: string; tasks: string[]; members?: string[] }): Promise<{ id: string; taskIds: string[] }>;
    /** A member with a password, who can sign in. */
    member(firstName: string): Promise<{ id: string; email: string; password: string }>;
    /** Sets a person's (default: the owner's) profile to German, DD.MM.YYYY dates and decimal hours, as the profile page would. */
    german(userId?: string): Promise<void>;
  };
  /** Calls the API as the owner (a session of their own, not the page's). */
  api(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown, as?: string): Promise<{ status: number; body: any }>;
}

interface Options {
  /** Whether `page` starts signed in as the workspace's owner (true); sign-in tests turn it off. */
  signedIn: boolean;
  /** Extra route plugins for the worker's server (none by default). */
  serverPlugins: FastifyPluginAsync[];
  /** Deliver e-mail: SMTP_URL points at a local sink (test/fixtures/smtp.ts) and the outbox worker runs. */
  mail: boolean;
}

const unique = () => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

export const test = base.extend<{ workspace: TestWorkspace } & Pick<Options, 'signedIn'>, { sheaf: SheafServer } & Pick<Options, 'serverPlugins' | 'mail'>>({
  signedIn: [true, { option: true }],
  serverPlugins: [[], { option: true, scope: 'worker' }],
  mail: [false, { option: true, scope: 'worker' }],

  sheaf: [
    async ({ serverPlugins, mail }, use) => {
      const dist = process.env.SHEAF_WEB_DIST!;
      const dataDir = copyTemplate();
      let database: Database | undefined;
      let app: FastifyInstance | undefined;
      const smtp = mail ? await startSmtp() : undefined;
      let stopDelivery: (() => Promise<void>) | undefined;
      try {
        database = await openDatabase({ dataDir });
        const clock = new MovableClock();
        const config = loadConfig(
          { LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000', SHEAF_SECRET_KEY: TEST_SECRET_KEY, ...(smtp ? { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } : {}) },
          { port: 0, host: '127.0.0.1', dataDir, clock: clock.now, webDist: dist, webBuild: false },
        );
        app = await buildApp({ config, db: database.db, plugins: serverPlugins });
        await app.listen({ port: 0, host: '127.0.0.1' });
        if (smtp) {
          // As `sheaf serve` runs it (src/server.ts), polling often so a test waits little.
          const { createSmtpTransport } = await import('../../src/outbox/mailer.ts');
          const { startOutboxWorker } = await import('../../src/outbox/worker.ts');
          const { invoiceRenderers } = await import('../../src/modules/billing/invoices/pdf.ts');
          const { estimateRenderers } = await import('../../src/modules/billing/estimates/index.ts');
          const { eInvoiceRenderers } = await import('../../src/modules/billing/invoices/e-invoice.ts');
          const transport = createSmtpTransport(config.smtpUrl!, { from: config.smtpFrom });
          // With the invoice PDF renderer, as src/server.ts: an invoice e-mail carries its PDF.
          const stop = startOutboxWorker({ db: database.db, transport, renderers: { ...invoiceRenderers, ...eInvoiceRenderers, ...estimateRenderers }, clock: clock.now, log: app.log }, 200);
          stopDelivery = async () => {
            await stop();
            transport.close();
          };
        }
        const address = app.server.address();
        const port = typeof address === 'object' && address ? address.port : 0;
        // As `sheaf serve` does (src/server.ts): links in e-mails, and the passkeys' site, name the real port.
        config.publicUrl ??= `http://127.0.0.1:${port}`;
        await use({ url: `http://127.0.0.1:${port}`, app, db: database.db, clock, mail: smtp && { received: smtp.received, mails: smtp.mails } });
      } finally {
        await stopDelivery?.();
        await smtp?.close();
        await app?.close();
        await database?.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],

  baseURL: async ({ sheaf }, use) => use(sheaf.url),

  workspace: async ({ sheaf }, use) => {
    const name = `Acme ${unique()}`;
    const company = await createWorkspace(sheaf.db, { name });
    const email = `olive.${unique()}@example.com`;
    const member = await createMember(sheaf.db, operatorPrincipal(company.id), { email, first_name: 'Olive', last_name: 'Owner', role: 'owner' });
    const password = `correct horse ${unique()}`;
    await setPassword(sheaf.db, member.user_id, password);
    const owner = { id: member.user_id, email, password, firstName: 'Olive', lastName: 'Owner' };
    const seed = {
      async otherWorkspace(otherName: string, role: Role) {
        const other = await createWorkspace(sheaf.db, { name: otherName });
        await createMember(sheaf.db, operatorPrincipal(other.id), { email, first_name: 'Olive', last_name: 'Owner', role });
        return { id: other.id, name: otherName };
      },
      async memberWithoutPassword(firstName: string, role: Role = 'member') {
        const email = `${firstName.toLowerCase()}.${unique()}@example.com`;
        const m = await createMember(sheaf.db, operatorPrincipal(company.id), { email, first_name: firstName, last_name: 'Tester', role });
        return { id: m.user_id, email };
      },
      async memberWithPassword(firstName: string, role: Role = 'member') {
        const email = `${firstName.toLowerCase()}.${unique()}@example.com`;
        const m = await createMember(sheaf.db, operatorPrincipal(company.id), { email, first_name: firstName, last_name: 'Tester', role });
        const password = `battery staple ${unique()}`;
        await setPassword(sheaf.db, m.user_id, password);
        return { id: m.user_id, email, password };
      },
      link: (userId: string, purpose: 'sign_in' | 'password_reset') => issueLink(sheaf.db, userId, purpose, sheaf.clock.now()),
      async deactivateOwnerIn(companyId: string) {
        await deactivateMember(sheaf.db, operatorPrincipal(companyId), member.user_id);
      },
      async project(o: { client: string; name: string; tasks: string[]; members?: string[] }) {
        const client = await ok(api('POST', '/api/v2/clients', { name: o.client }));
        const taskIds: string[] = [];
        for (const task of o.tasks) taskIds.push((await ok(api('POST', '/api/v2/tasks', { name: `${task}` }))).id);
        const project = await ok(api('POST', '/api/v2/projects', { client_id: client.id, name: o.name, task_ids: taskIds }));
        for (const userId of o.members ?? []) await ok(api('POST', `/api/v2/projects/${project.id}/user_assignments`, { user_id: userId }));
        return { id: project.id as string, taskIds };
      },
      async member(firstName: string) {
        const email = `${firstName.toLowerCase()}.${unique()}@example.com`;
        const m = await createMember(sheaf.db, operatorPrincipal(company.id), { email, first_name: firstName, last_name: 'Tester', role: 'member' });
        const password = `correct horse ${unique()}`;
        await setPassword(sheaf.db, m.user_id, password);
        return { id: m.user_id, email, password };
      },
      async german(userId = member.user_id) {
        await ok(api('PATCH', '/web/api/profile', { language: 'de', date_format: 'DD.MM.YYYY', duration_format: 'decimal' }, userId));
      },
    };
    const sessions = new Map<string, Record<string, string>>();
    async function api(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown, as = member.user_id) {
      let headers = sessions.get(as);
      if (!headers) {
        const { token, session } = await createSession(sheaf.db, { userId: as, companyId: company.id, now: sheaf.clock.now() });
        sessions.set(as, (headers = { cookie: `${SESSION_COOKIE}=${token}`, 'x-csrf-token': session.csrf_token }));
      }
      const res = await sheaf.app.inject({ method, url, headers, payload: body as object | undefined });
      return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
    }
    async function ok(pending: Promise<{ status: number; body: any }>) {
      const res = await pending;
      if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    }
    await use({ id: company.id, name, owner, seed, api });
  },

  page: async ({ page, signedIn, workspace }, use) => {
    if (signedIn) await signIn(page, workspace.owner);
    await use(page);
  },
});

/** Signs in through the API on the page's own request context, so the session cookie lands in the browser. */
export async function signIn(page: Page, who: { email: string; password: string }) {
  const response = await page.context().request.post('/web/api/session', { data: { email: who.email, password: who.password } });
  expect(response.status(), await response.text()).toBe(200);
}

/** The body of an API call that must succeed (any 3xx-5xx fails the test, naming status and body). */
export async function ok(pending: Promise<{ status: number; body: any }>) {
  const res = await pending;
  if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export { expect };
