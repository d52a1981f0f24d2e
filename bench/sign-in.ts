/**
 * Server time per sign-in (issue 28's figures): a password alone (the baseline), a password then a
 * two-factor code, a passkey alone, and single sign-on through a real OpenID Connect provider
 * (oidc-provider on 127.0.0.1). Each sign-in's requests are sent to the server in this process
 * (Fastify's inject: no network), one after another, and timed from the first request of the
 * sign-in to its session; the provider's own work (its login form) is not counted, its answers
 * are (discovery, the token exchange). Also the process CPU per sign-in. Medians of N.
 *
 *   npm run bench:sign-in                  (40 sign-ins of each kind)
 *   npm run bench:sign-in -- --count 100
 *
 * DATABASE_URL selects PostgreSQL (its own schema, dropped at the end); else an in-memory PGlite.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { codeAt } from '../src/auth/two-factor.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createMember } from '../src/modules/people/users/index.ts';
import { operatorPrincipal } from '../src/access/operator.ts';
import { provisionWorkspace } from '../src/provisioning.ts';
import { setPassword } from '../src/modules/people/sessions/service.ts';
import { createSession, SESSION_COOKIE } from '../src/auth/sessions.ts';
import { SoftwareAuthenticator } from '../test/fixtures/software-authenticator.ts';
import { startProvider } from '../test/fixtures/oidc-provider.ts';
import { loadAverage, median, numberOption, schemaWayOut } from './harness.ts';
import { benchCommand, formatNumber, recordPerformance } from './performance.ts';

const { values } = parseArgs({ options: { count: { type: 'string' } }, strict: true });
const COUNT = numberOption('count', values.count, 'BENCH_COUNT', 40, true, 5);
const PUBLIC_URL = 'http://localhost:8080';
const ORIGIN = { origin: PUBLIC_URL, host: 'localhost:8080' };
const PASSWORD = 'correct horse battery staple';
/** The aim: each way in within this many times the password's server time (a scrypt hash dominates it). */
const AIM_RATIO = 2;

const databaseUrl = process.env.DATABASE_URL || undefined;
const schema = databaseUrl ? `sheaf_bench_${randomBytes(6).toString('hex')}` : undefined;
const database = await openDatabase({ databaseUrl, schema, dataDir: null });
let now = new Date();
const provider = await startProvider([`${PUBLIC_URL}/web/api/sso/callback`], { idTokenTtlSeconds: 600 });
// On PostgreSQL the run's schema is dropped at the end, also after Ctrl-C; PGlite is in memory.
const exit =
  schema && databaseUrl
    ? schemaWayOut(databaseUrl, schema, { stop: () => provider.stop(), close: () => database.close() })
    : { cleanup: async () => (await provider.stop(), await database.close()) };
const config = loadConfig(
  { LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000', SHEAF_SECRET_KEY: randomBytes(32).toString('base64url') },
  { dataDir: null, publicUrl: PUBLIC_URL, clock: () => now },
);
try {
  await migrate(database.db);
  const app = await buildApp({ config, db: database.db });
  const company = await provisionWorkspace(database.db, { name: 'Sign-in bench' });
  const domain = 'bench.example';
  const person = async (name: string) => {
    const email = `${name}.${randomBytes(4).toString('hex')}@${domain}`;
    const m = await createMember(database.db, operatorPrincipal(company.id), { email, first_name: name, last_name: 'Bench', role: 'owner' });
    await setPassword(database.db, m.user_id, PASSWORD);
    const { token, session } = await createSession(database.db, { userId: m.user_id, companyId: company.id, now });
    return { userId: m.user_id, email, headers: { cookie: `${SESSION_COOKIE}=${token}`, 'x-csrf-token': session.csrf_token, ...ORIGIN } };
  };
  const ok = <R extends { statusCode: number; body: string }>(res: R, status: number, what: string): R => {
    if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
    return res;
  };

  // The people: one with a password only, one with codes, one with a passkey, one at the provider.
  const plain = await person('plain');
  const coded = await person('coded');
  const setup = ok(await app.inject({ method: 'POST', url: '/web/api/two-factor/setup', headers: coded.headers, payload: {} }), 200, 'two-factor setup');
  const secret = setup.json().secret as string;
  ok(await app.inject({ method: 'POST', url: '/web/api/two-factor/enable', headers: coded.headers, payload: { code: codeAt(secret, now) } }), 200, 'two-factor enable');
  const keyed = await person('keyed');
  const authenticator = new SoftwareAuthenticator(PUBLIC_URL);
  const registration = ok(await app.inject({ method: 'POST', url: '/web/api/passkeys/registration-options', headers: keyed.headers, payload: {} }), 200, 'passkey options');
  ok(await app.inject({ method: 'POST', url: '/web/api/passkeys', headers: keyed.headers, payload: { credential: authenticator.create(registration.json().options) } }), 201, 'passkey');
  const federated = await person('federated');
  provider.accounts.set('federated', { email: federated.email, email_verified: true });
  ok(
    await app.inject({
      method: 'PUT',
      url: '/web/api/single-sign-on',
      headers: federated.headers,
      payload: { issuer: provider.issuer, client_id: provider.clientId, client_secret: provider.clientSecret, allowed_domains: [domain], new_member_role: 'member', allow_password_sign_in: true, display_name: 'Bench ID' },
    }),
    200,
    'single sign-on settings',
  );

  /** Times one sign-in: `run` returns the milliseconds and CPU it spent on Sheaf's requests. */
  async function measure(label: string, run: () => Promise<{ ms: number; cpuUs: number }>) {
    for (let i = 0; i < 3; i++) await run(); // warm-up
    const ms: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < COUNT; i++) {
      const r = await run();
      ms.push(r.ms);
      cpu.push(r.cpuUs);
    }
    const result = { label, ms: median(ms), cpuUs: median(cpu) };
    console.log(`  ${label.padEnd(28)} ${result.ms.toFixed(1).padStart(7)} ms  (CPU ${formatNumber(result.cpuUs / 1000, 1)} ms)`);
    return result;
  }
  /** Runs Sheaf's part of a sign-in, timed; `between` (the provider's) is not. */
  async function timed(steps: Array<() => Promise<unknown>>, between: Array<(() => Promise<void>) | null> = []) {
    let ms = 0;
    let cpuUs = 0;
    for (const [i, step] of steps.entries()) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await step();
      ms += performance.now() - t0;
      const c = process.cpuUsage(c0);
      cpuUs += c.user + c.system;
      await between[i]?.();
    }
    return { ms, cpuUs };
  }

  console.log(`sign-in benchmark: ${COUNT} of each, ${databaseUrl ? 'PostgreSQL' : 'PGlite'}; loadavg ${loadAverage().raw}`);
  const password = await measure('password', () =>
    timed([async () => ok(await app.inject({ method: 'POST', url: '/web/api/session', headers: ORIGIN, payload: { email: plain.email, password: PASSWORD } }), 200, 'password')]),
  );
  const totp = await measure('password + two-factor code', () => {
    now = new Date(now.getTime() + 30_000); // a code is accepted once: each sign-in in its own step
    let challenge = '';
    return timed([
      async () => {
        challenge = ok(await app.inject({ method: 'POST', url: '/web/api/session', headers: ORIGIN, payload: { email: coded.email, password: PASSWORD } }), 202, 'password step').json().challenge;
      },
      async () => ok(await app.inject({ method: 'POST', url: '/web/api/session/two-factor', headers: ORIGIN, payload: { challenge, code: codeAt(secret, now) } }), 200, 'code step'),
    ]);
  });
  const passkey = await measure('passkey', () => {
    let options: Record<string, unknown> = {};
    return timed([
      async () => {
        options = ok(await app.inject({ method: 'POST', url: '/web/api/session/passkey-options', headers: ORIGIN, payload: {} }), 200, 'passkey options').json().options;
      },
      async () =>
        ok(
          await app.inject({ method: 'POST', url: '/web/api/session/passkey', headers: ORIGIN, payload: { credential: authenticator.get(options as never) } }),
          200,
          'passkey sign-in',
        ),
    ]);
  });
  // The code steps moved Sheaf's clock on; the provider's ID tokens are checked against it.
  now = new Date();
  const sso = await measure('single sign-on (OIDC)', () => {
    let authorization = '';
    let callback: URL | null = null;
    return timed(
      [
        async () => {
          authorization = ok(await app.inject({ method: 'GET', url: `/web/api/sso/${company.id}/start` }), 302, 'start').headers.location as string;
        },
        async () => {
          const res = ok(await app.inject({ method: 'GET', url: `${callback!.pathname}${callback!.search}` }), 302, 'callback');
          if (!String(res.headers['set-cookie'] ?? '').includes(SESSION_COOKIE)) throw new Error(`callback without a session: ${res.headers.location}`);
        },
      ],
      [
        async () => {
          callback = await provider.login(authorization, 'federated');
        },
        null,
      ],
    );
  });

  const ratio = (r: { ms: number }) => r.ms / password.ms;
  const rows = [totp, passkey, sso].map((r, i) => {
    const key = ['sign-in-totp', 'sign-in-passkey', 'sign-in-sso'][i]!;
    const path = ['POST /web/api/session + /session/two-factor', 'POST /web/api/session/passkey-options + /session/passkey', 'GET /web/api/sso/:id/start + /sso/callback'][i]!;
    return {
      key,
      path: `${r.label}: ${path} (${databaseUrl ? 'PostgreSQL' : 'PGlite'})`,
      figure: `${r.ms.toFixed(1)} ms server time per sign-in`,
      baseline: `password sign-in ${password.ms.toFixed(1)} ms`,
      ratio: ratio(r).toFixed(2),
      cpu: `${formatNumber(r.cpuUs / 1000, 1)} ms (baseline ${formatNumber(password.cpuUs / 1000, 1)} ms)`,
      aim: `ratio ≤ ${AIM_RATIO}`,
      met: ratio(r) <= AIM_RATIO,
      command: benchCommand('bench:sign-in'),
    };
  });
  for (const row of rows) console.log(`  ${row.key}: ${row.ratio} of the password's time (aim ≤ ${AIM_RATIO}: ${row.met ? 'met' : 'not met'})`);
  recordPerformance(rows);
  await app.close();
} finally {
  await exit.cleanup();
}
