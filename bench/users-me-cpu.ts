/**
 * `npm run bench:users-me-cpu [-- <tree>]`: Node CPU per authenticated
 * GET /api/v2/users/me, in one process (light-my-request's inject, 16 at a time,
 * PostgreSQL from DATABASE_URL, its own schema, dropped at the end), five rounds of
 * 8,000 after a warm-up of 3,000. CPU per request hardly moves with the
 * neighbours' load, unlike a throughput ratio, so it compares two versions of the
 * code on a shared machine: pass another checkout's root (`git archive <commit> |
 * tar -x -C /tmp/base`, node_modules linked) and alternate the two.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { postgresUrl, schemaWayOut } from './harness.ts';

const root = pathToFileURL(resolve(process.argv[2] ?? '.')).href;
const load = (path: string) => import(`${root}/${path}`);
const { buildApp } = await load('src/app.ts');
const { loadConfig } = await load('src/config.ts');
const { openDatabase } = await load('src/db/database.ts');
const { migrate } = await load('src/db/migrate.ts');
const { createWorkspace } = await load('src/provisioning.ts');
const { createMember } = await load('src/modules/people/users/service.ts');
const { operatorPrincipal } = await load('src/access/operator.ts');
const { createKey } = await load('src/modules/people/credentials/service.ts');

const schema = `sheaf_bench_${Math.random().toString(36).slice(2, 8)}`;
const database = await openDatabase({ databaseUrl: postgresUrl(), schema, poolSize: 10 });
const exit = schemaWayOut(postgresUrl(), schema, { close: () => database.close() });
try {
  await migrate(database.db);
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '10000000', WEB_DIST: 'off' }, { dataDir: null });
  const app = await buildApp({ config, db: database.db });
  const company = await createWorkspace(database.db, { name: 'Bench' });
  const owner = await createMember(database.db, operatorPrincipal(company.id), { email: 'bench@example.com', first_name: 'Bench', role: 'owner' });
  const { secret } = await createKey(database.db, operatorPrincipal(company.id), { userId: owner.user_id, kind: 'integration' });
  const headers = { authorization: `Bearer ${secret}`, 'service-account-id': company.id };
  const run = async (n: number) => {
    for (let i = 0; i < n; i += 16) {
      const answers = await Promise.all(Array.from({ length: 16 }, () => app.inject({ method: 'GET', url: '/api/v2/users/me', headers })));
      if (answers.some((a) => a.statusCode !== 200)) throw new Error(`users/me answered ${answers.find((a) => a.statusCode !== 200)!.statusCode}`);
    }
  };
  await run(3000);
  const rounds: string[] = [];
  for (let r = 0; r < 5; r++) {
    const before = process.cpuUsage();
    await run(8000);
    const used = process.cpuUsage(before);
    rounds.push(((used.user + used.system) / 8000).toFixed(1));
  }
  console.log(`${process.argv[2] ?? '.'}: Node CPU per users/me request, µs, per round: ${rounds.join(' ')}`);
  await app.close();
} finally {
  await exit.cleanup();
}
