// `npm run web:api` (first step): writes the OpenAPI document of the app as built
// (/api/v2 and /web/api) to web/src/api/openapi.json; openapi-typescript then turns it
// into schema.d.ts. Building the app runs no query, so no database is opened.
import { writeFileSync } from 'node:fs';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { DB } from '../../src/db/types.ts';

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }, { dataDir: null }), db });
const target = new URL('../src/api/openapi.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
console.log(`wrote ${target.pathname}`);
