import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import './http/fastify-types.ts';
import type { Config } from './config.ts';
import type { DB } from './db/types.ts';
import { createJwtVerifier } from './auth/jwt.ts';
import { bearerToken } from './auth/credential-headers.ts';
import { registerErrorHandling, sendFrameworkError } from './http/errors.ts';
import { registerValidation } from './http/validation.ts';
import { registerJsonBody } from './http/json-body.ts';
import { cachedSerializerCompiler } from './http/serializers.ts';
import { answerClientError, registerBodyTimeout, registerConnectAnswer, registerHostRequirement } from './http/malformed-requests.ts';
import { FeatureSet } from './http/features.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { registerAfterAnswer } from './http/after-answer.ts';
import { registerSecurity } from './http/security.ts';
import { registerResponseHeaders } from './http/response-headers.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerCompression } from './http/compression.ts';
import { registerBodyEncoding } from './http/body-encoding.ts';
import { registerOpenApi } from './http/openapi.ts';
import { systemRoutes } from './modules/workspace/system/index.ts';
import { usersRoutes } from './modules/people/users/index.ts';
import { expensesRoutes, expensesWebRoutes } from './modules/tracking/expenses/index.ts';
import { expenseCategoriesRoutes } from './modules/tracking/expense-categories/index.ts';
import { timeEntriesRoutes, timeWebRoutes } from './modules/tracking/time/index.ts';
import { invoicesRoutes, invoicesWebRoutes } from './modules/billing/invoices/index.ts';
import { estimatesWebRoutes } from './modules/billing/estimates/index.ts';
import { invoiceSettingsWebRoutes } from './modules/billing/invoice-settings/index.ts';
import { reportsRoutes, reportsWebRoutes } from './modules/reports/reports/index.ts';
import { savedReportsWebRoutes } from './modules/reports/saved-reports/index.ts';
import { changesRoutes } from './modules/integrations/changes/index.ts';
import { webhooksWebRoutes } from './modules/integrations/webhooks/index.ts';
import { importWebRoutes } from './modules/integrations/import/index.ts';
import { calendarFeedRoutes, calendarFeedWebRoutes, redactFeedUrl } from './modules/integrations/calendar-feed/index.ts';
import { mcpRoutes } from './modules/integrations/mcp/index.ts';
import { capacityWebRoutes } from './modules/planning/capacity/index.ts';
import { planningWebRoutes } from './modules/planning/assignments/index.ts';
import { plannedVsTrackedWebRoutes } from './modules/reports/planned-vs-tracked/index.ts';
import { projectsRoutes, projectsWebRoutes } from './modules/catalog/projects/index.ts';
import { projectAssignmentsRoutes } from './modules/catalog/project-assignments/index.ts';
import { tasksRoutes } from './modules/catalog/tasks/index.ts';
import { taskAssignmentsRoutes } from './modules/catalog/task-assignments/index.ts';
import { clientsRoutes } from './modules/catalog/clients/index.ts';
import { contactsRoutes } from './modules/catalog/contacts/index.ts';
import { backupRoutes } from './modules/workspace/backup/index.ts';
import { approvalsRoutes, approvalsWebRoutes } from './modules/tracking/approvals/index.ts';
import { sessionsWebRoutes } from './modules/people/sessions/index.ts';
import { profileWebRoutes } from './modules/people/profile/index.ts';
import { twoFactorWebRoutes } from './modules/people/two-factor/index.ts';
import { singleSignOnWebRoutes } from './modules/people/single-sign-on/index.ts';
import { passkeysWebRoutes } from './modules/people/passkeys/index.ts';
import { invitationsWebRoutes } from './modules/people/invitations/index.ts';
import { membersWebRoutes } from './modules/people/members/index.ts';
import { auditWebRoutes } from './modules/workspace/audit/index.ts';
import { companyRoutes, settingsWebRoutes } from './modules/workspace/settings/index.ts';

import { homeWebRoutes } from './modules/reports/home/index.ts';
import { credentialsWebRoutes } from './modules/people/credentials/index.ts';
import { bankAccountsWebRoutes } from './modules/billing/bank-accounts/index.ts';
import { recurringInvoicesWebRoutes } from './modules/billing/recurring-invoices/index.ts';
import { retainersWebRoutes } from './modules/billing/retainers/index.ts';
import { itemCategoriesWebRoutes } from './modules/billing/item-categories/index.ts';
import { registerWebApp } from './http/web-app.ts';
import { invoiceAttachmentsRoutes, invoiceAttachmentsWebRoutes } from './modules/billing/invoice-attachments/index.ts';
import { clientPageWebRoutes } from './modules/billing/client-page/index.ts';

/** Request bodies: uncompressed UTF-8 JSON of at most 128 KiB (larger: 413). */
export const BODY_LIMIT = 128 * 1024;

export interface AppDeps {
  config: Config;
  db: Kysely<DB>;
  /** Extra route plugins, registered after the built-in ones (tests use it to exercise plugins). */
  plugins?: FastifyPluginAsync[];
  /** Where the JSON log lines go (default stdout); tests capture them. */
  logStream?: { write(line: string): void };
}

/** What a request log line says about the credential: its kind and readable prefix, never the secret. */
function credentialHint(authorization: string | undefined): string | undefined {
  const token = bearerToken(authorization);
  if (!token) return undefined;
  return token.startsWith('sheaf_') ? `${token.slice(0, 12)}…` : 'jwt';
}

/** The areas' routes, registered in this order (systemRoutes first). */
const ROUTE_PLUGINS: FastifyPluginAsync<any>[] = [
  systemRoutes,
  usersRoutes,
  companyRoutes,
  expensesRoutes,
  expenseCategoriesRoutes,
  timeEntriesRoutes,
  invoicesRoutes,
  reportsRoutes,
  projectsRoutes,
  projectAssignmentsRoutes,
  tasksRoutes,
  taskAssignmentsRoutes,
  clientsRoutes,
  contactsRoutes,
  backupRoutes,
  approvalsRoutes,
  invoiceAttachmentsRoutes,
  sessionsWebRoutes,
  profileWebRoutes,
  twoFactorWebRoutes,
  singleSignOnWebRoutes,
  passkeysWebRoutes,
  invitationsWebRoutes,
  membersWebRoutes,
  auditWebRoutes,
  settingsWebRoutes,
  timeWebRoutes,
  expensesWebRoutes,
  approvalsWebRoutes,
  invoicesWebRoutes,
  projectsWebRoutes,
  reportsWebRoutes,
  savedReportsWebRoutes,
  changesRoutes,
  webhooksWebRoutes,
  importWebRoutes,
  calendarFeedRoutes,
  calendarFeedWebRoutes,
  mcpRoutes,
  capacityWebRoutes,
  planningWebRoutes,
  plannedVsTrackedWebRoutes,
  homeWebRoutes,
  credentialsWebRoutes,
  bankAccountsWebRoutes,
  recurringInvoicesWebRoutes,
  itemCategoriesWebRoutes,
  invoiceAttachmentsWebRoutes,
  clientPageWebRoutes,
  estimatesWebRoutes,
  invoiceSettingsWebRoutes,
  retainersWebRoutes,
];

/**
 * A plugin with its display name set. Fastify names a plugin that has none by searching every
 * loaded CommonJS module (require.cache) for it, twice per registration; with thousands of
 * modules loaded (a test process) that was a tenth of building the app.
 */
function named<T extends FastifyPluginAsync<any>>(plugin: T): T {
  const display = Symbol.for('fastify.display-name');
  (plugin as unknown as Record<symbol, string>)[display] ??= plugin.name;
  return plugin;
}

/** Builds the API; never listens (src/server.ts does). Tests build it and inject requests. */
export async function buildApp({ config, db, plugins = [], logStream }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    // The client address (request.ip) that rate limits count per: X-Forwarded-For only from the configured proxies.
    trustProxy: config.trustProxy,
    logger: {
      level: config.logLevel,
      stream: logStream,
      serializers: {
        req: (req) => ({
          method: req.method,
          // A calendar feed's URL is its credential: the log never holds it.
          url: redactFeedUrl(req.url),
          remoteAddress: req.ip,
          credential: credentialHint(req.headers.authorization),
          account: req.headers['service-account-id'],
        }),
      },
      // Credentials never reach the log, even if a serializer someday includes headers.
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["idempotency-key"]'],
    },
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: sendFrameworkError,
    // Requests Node's parser refuses, and HTTP/1.1 without Host, are answered in the
    // API's error shape (src/http/malformed-requests.ts) instead of Node's or Fastify's.
    clientErrorHandler: answerClientError,
    http: { requireHostHeader: false },
  });
  app.decorate('db', db);
  app.decorate('config', config);
  app.decorate('features', new FeatureSet());
  registerAfterAnswer(app);

  registerValidation(app);
  app.setSerializerCompiler(cachedSerializerCompiler);
  registerErrorHandling(app);
  registerHostRequirement(app);
  registerBodyTimeout(app, config.requestBodyTimeoutMs);
  registerConnectAnswer(app);
  // JSON only: a text/plain body is a 415, never a string the schemas then misread.
  app.removeContentTypeParser(['text/plain']);
  registerJsonBody(app);

  await registerOpenApi(app);

  await registerRateLimit(app, config.rateLimit);
  registerSecurity(app, {
    db,
    clock: config.clock,
    jwt: config.jwt ? createJwtVerifier(config.jwt, config.clock) : null,
    keyGone: (secretHash) => app.validKeys.forget(secretHash),
  });
  registerIdempotency(app);
  registerResponseHeaders(app);
  registerBodyEncoding(app);
  // After idempotency: its onSend stores the uncompressed body before this one encodes it.
  await registerCompression(app);

  for (const plugin of ROUTE_PLUGINS) await app.register(named(plugin));
  for (const plugin of plugins) await app.register(plugin);
  // Its catch-all GET answers only the paths no other route has.
  if (config.webDist) await registerWebApp(app, config.webDist);

  await app.ready();
  return app;
}
