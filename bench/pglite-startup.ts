// PGlite start-up and query speed (docs/decisions.md, "Dependencies and Node versions"):
// opens and migrates an in-memory database, then times a small query mix.
// `node bin/run-ts.js bench/pglite-startup.ts`; run it alternately on two PGlite versions.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createWorkspaceWithOwner } from '../test/helpers.ts';

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const database = await openDatabase({ dataDir: null });
const t1 = performance.now();
const cpuOpen = process.cpuUsage(cpu0);
await migrate(database.db);
const t2 = performance.now();
await createWorkspaceWithOwner(database.db);
const t3 = performance.now();
// query mix: 2000 trivial selects, 500 catalog joins, 200 inserts in transactions
for (let i = 0; i < 2000; i++) await sql`select ${i}::int as n`.execute(database.db);
const t4 = performance.now();
for (let i = 0; i < 500; i++)
  await sql`select c.relname, count(a.attname) from pg_class c join pg_attribute a on a.attrelid = c.oid where c.relkind = 'r' group by c.relname order by 1 limit 20`.execute(database.db);
const t5 = performance.now();
await sql`create temp table bench (id int primary key, v numeric, t timestamptz)`.execute(database.db);
for (let i = 0; i < 200; i++)
  await database.db.transaction().execute(async (trx) => { await sql`insert into bench values (${i}, ${'1.25'}, now())`.execute(trx); });
const t6 = performance.now();
const cpu = process.cpuUsage(cpu0);
await database.close();
const f = (x: number) => x.toFixed(0).padStart(5);
console.log(`open ${f(t1 - t0)} ms | migrate ${f(t2 - t1)} ms | seed ${f(t3 - t2)} ms | 2000 selects ${f(t4 - t3)} ms | 500 joins ${f(t5 - t4)} ms | 200 tx inserts ${f(t6 - t5)} ms | cpu open ${f((cpuOpen.user + cpuOpen.system) / 1000)} total ${f((cpu.user + cpu.system) / 1000)} ms`);
