import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { bootstrapEmbedded } from './bootstrap.ts';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';

export function openConfiguredDatabase(config: Config): Promise<Database> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    schema: config.databaseSchema,
    poolSize: config.databasePoolSize,
  });
}

/** Opens the database, applies migrations, creates the first workspace on an empty embedded database, and listens. */
export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  url: string;
  close(): Promise<void>;
}

export async function startServer(config: Config): Promise<RunningServer> {
  const database = await openConfiguredDatabase(config);
  try {
    await migrate(database.db);
    const app = await buildApp({ config, db: database.db });
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    if (database.kind === 'pglite') {
      const welcome = await bootstrapEmbedded(database.db, url);
      if (welcome) process.stdout.write(welcome + '\n');
      app.log.warn('embedded PGlite database: one process only; use PostgreSQL (DATABASE_URL) in production');
    }
    if (!config.smtpUrl) app.log.info('SMTP_URL is not set: e-mail is recorded in the outbox but not delivered');
    app.log.info(`Sheaf API on ${url}/api/v2 (OpenAPI: ${url}/api/v2/openapi.json)`);
    const close = async () => {
      await app.close();
      await database.close();
    };
    return { app, database, url, close };
  } catch (err) {
    await database.close();
    throw err;
  }
}
