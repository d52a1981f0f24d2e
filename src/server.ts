import type { FastifyInstance } from 'fastify';
import { bootstrapEmbedded, type FirstStart } from './bootstrap.ts';
import { publicUrlOf, type Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { settleSecretKeys } from './auth/server-secret-key.ts';
import { isLoopbackUrl } from './server-url.ts';

export function openConfiguredDatabase(config: Config): Promise<Database> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    schema: config.databaseSchema,
    poolSize: config.databasePoolSize,
    timeouts: config.databaseTimeouts,
  });
}

export interface RunningServer {
  app: FastifyInstance;
  database: Database;
  /** Base URL to reach the server on, e.g. http://127.0.0.1:8080 (the real port when 0 was asked for). */
  url: string;
  /** Set on the first start of an empty embedded database: the workspace and the key it created. */
  firstStart: FirstStart | null;
  /** Stops listening (finishing requests in flight), then closes the database and releases ./data. Idempotent. */
  close(): Promise<void>;
}

/** Where a client reaches a server bound to `host`: a wildcard bind is reached on loopback. */
function reachableUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/**
 * E-mail delivery: with SMTP_URL, the outbox worker delivers queued messages
 * (invoice PDFs rendered at delivery); without it, messages stay pending in the
 * outbox and the log says that delivery is disabled. Returns how to stop it.
 */
async function startMailDelivery(config: Config, database: Database, app: FastifyInstance): Promise<() => Promise<void>> {
  if (!config.smtpUrl) {
    app.log.warn('SMTP_URL is not set: e-mail delivery is disabled; messages are recorded in the outbox and stay pending');
    return async () => {};
  }
  const { createSmtpTransport } = await import('./outbox/mailer.ts');
  const { startOutboxWorker } = await import('./outbox/worker.ts');
  const { invoiceRenderers } = await import('./modules/billing/invoices/pdf.ts');
  const { estimateRenderers } = await import('./modules/billing/estimates/index.ts');
  const { eInvoiceRenderers } = await import('./modules/billing/invoices/e-invoice.ts');
  const { savedReportRenderers } = await import('./modules/reports/saved-reports/index.ts');
  const transport = createSmtpTransport(config.smtpUrl, { from: config.smtpFrom });
  const stop = startOutboxWorker(
    { db: database.db, transport, renderers: { ...invoiceRenderers, ...eInvoiceRenderers, ...estimateRenderers, ...savedReportRenderers }, clock: config.clock, log: app.log },
    config.outboxIntervalMs,
    (err) => app.log.error({ err }, 'outbox delivery failed'),
  );
  app.log.info('e-mail delivery through SMTP is enabled (outbox worker running)');
  return async () => {
    await stop();
    transport.close();
  };
}

/**
 * The schedulers, in every server process (several processes are safe: each
 * occurrence or e-mail is claimed in the database, see each scheduler.ts): recurring
 * invoices, saved reports' e-mails and budget alerts. RECURRING_INTERVAL_MS=0 leaves them to
 * other processes or to a cron job running `sheaf admin recurring run-due`, `sheaf admin
 * saved-reports run-due` and `sheaf admin budget-alerts run-due`. Returns how to stop them.
 */
async function startSchedulers(config: Config, database: Database, app: FastifyInstance): Promise<() => Promise<void>> {
  if (config.recurringIntervalMs === 0) return async () => {};
  const { startRecurringScheduler } = await import('./modules/billing/recurring-invoices/index.ts');
  const { startSavedReportScheduler } = await import('./modules/reports/saved-reports/index.ts');
  const { startBudgetAlertScheduler } = await import('./modules/reports/budget-alerts/index.ts');
  const stops = [
    startRecurringScheduler(
      { db: database.db, clock: config.clock, baseUrl: publicUrlOf(config), onError: (err, schedule) => app.log.error({ err, schedule }, 'a recurring invoice failed; it stays due') },
      config.recurringIntervalMs,
      (err) => app.log.error({ err }, 'the recurring invoice scheduler failed'),
    ),
    startSavedReportScheduler(
      {
        db: database.db,
        clock: config.clock,
        baseUrl: publicUrlOf(config),
        onError: (err, report) => app.log.error({ err, report }, 'a saved report e-mail failed; it stays due'),
      },
      config.recurringIntervalMs,
      (err) => app.log.error({ err }, 'the saved report scheduler failed'),
    ),
    startBudgetAlertScheduler(
      {
        db: database.db,
        clock: config.clock,
        baseUrl: publicUrlOf(config),
        onError: (err, workspace) => app.log.error({ err, workspace }, "a workspace's budget alerts failed; they are checked again next time"),
      },
      config.recurringIntervalMs,
      (err) => app.log.error({ err }, 'the budget alert scheduler failed'),
    ),
  ];
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}

/**
 * Webhook delivery, in every server process (several are safe: each delivery is claimed in
 * the database, see webhooks/worker.ts); WEBHOOK_INTERVAL_MS=0 leaves it to other processes.
 */
async function startWebhookDelivery(config: Config, database: Database, app: FastifyInstance): Promise<() => Promise<void>> {
  if (config.webhookIntervalMs === 0) return async () => {};
  const { startWebhookWorker } = await import('./modules/integrations/webhooks/index.ts');
  return startWebhookWorker(
    { db: database.db, clock: config.clock, allowPrivate: config.webhookAllowPrivate, baseUrl: publicUrlOf(config) },
    config.webhookIntervalMs,
    (err) => app.log.error({ err }, 'webhook delivery failed'),
  );
}

/**
 * Opens the database, applies migrations and listens; on an empty embedded
 * database it then creates the first workspace (after listening, so a port
 * already in use never swallows the key that is shown only once).
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const database = await openConfiguredDatabase(config);
  let app: FastifyInstance | undefined;
  try {
    const applied = await migrate(database.db);
    const { generated } = await settleSecretKeys(database.db, config.secretKeys, database.kind === 'pglite' ? { dataDir: config.dataDir } : null);
    // Loaded here, not at the top: the CLI imports this module for openConfiguredDatabase
    // and should not pay for loading the whole API on every admin command.
    const { buildApp } = await import('./app.ts');
    app = await buildApp({ config, db: database.db });
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const url = reachableUrl(config.host, typeof address === 'object' && address ? address.port : config.port);
    // Links in e-mails name the real port (with --port 0 too) unless PUBLIC_URL says otherwise.
    config.publicUrl ??= url;
    const firstStart = database.kind === 'pglite' ? await bootstrapEmbedded(database.db, config.clock()) : null;
    if (firstStart) app.log.info({ workspace_id: firstStart.workspace_id }, 'first start: created a workspace, its owner and a full-access key');
    // An upgrade says what it did (an empty database's first start applies them all: not news).
    else if (applied.length) app.log.info({ migrations: applied }, `applied ${applied.length} database migration(s): ${applied[0]} to ${applied.at(-1)}`);
    if (config.smtpUrl && isLoopbackUrl(new URL(config.publicUrl))) {
      app.log.warn(`e-mail delivery is on, but its links point at ${config.publicUrl}, which only this machine reaches: set PUBLIC_URL to the address people use`);
    }
    if (generated) app.log.info({ file: generated }, 'no SHEAF_SECRET_KEY: wrote a new key for secrets at rest (keep it with the data)');
    if (database.kind === 'pglite') {
      app.log.warn('embedded PGlite database: one process only; use PostgreSQL (DATABASE_URL) in production');
    }
    const stopOutbox = await startMailDelivery(config, database, app);
    const stopSchedulers = await startSchedulers(config, database, app);
    const { startChangePruning } = await import('./modules/integrations/changes/index.ts');
    // The change feed's retention, whatever RECURRING_INTERVAL_MS says: at start, then hourly.
    const log = app.log;
    const stopPruning = startChangePruning({ db: database.db, clock: config.clock, retentionDays: config.changesRetentionDays }, (err) =>
      log.error({ err }, 'pruning the change feed failed'),
    );
    const stopWebhooks = await startWebhookDelivery(config, database, app);
    app.log.info(`Sheaf API on ${url}/api/v2 (OpenAPI: ${url}/api/v2/openapi.json)`);
    const running = app;
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        try {
          await stopSchedulers();
          await stopPruning();
          await stopWebhooks();
          await stopOutbox();
          await running.close();
        } finally {
          await database.close();
        }
      })());
    return { app, database, url, firstStart, close };
  } catch (err) {
    await app?.close().catch(() => {});
    await database.close();
    throw err;
  }
}
