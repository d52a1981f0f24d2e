import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from '../auth/sessions.ts';
import { KEY_PATTERN } from './idempotency.ts';
import { ErrorSchema } from './schemas.ts';

/**
 * The OpenAPI document served at GET /api/v2/openapi.json: document-level
 * fields, the security of each operation (from its declared access) and an
 * operationId for every operation, so that generated SDKs get stable, readable
 * method names. It passes Redocly's recommended rules with no error and no
 * warning (test/openapi-lint.test.ts).
 */
export async function registerOpenApi(app: FastifyInstance) {
  registerOperationIds(app);
  app.addSchema(ErrorSchema);
  await app.register(swagger, {
    // A shared schema is a component under its own $id (`Error`), not `def-0`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Sheaf API',
        version: '2',
        description:
          'Time tracking, expenses and invoicing. Authenticate with `Authorization: Bearer <key>` and `Service-Account-Id: <workspace id>`, or with an identity-provider JWT alone.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      // Relative: it resolves against wherever the document was fetched from, so it
      // stays right behind any host name or reverse proxy that keeps the paths.
      servers: [{ url: '/', description: 'The server this document was fetched from' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          account: { type: 'apiKey', in: 'header', name: 'Service-Account-Id' },
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The web app\u2019s browser session' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const access = route.config?.access;
      const security: Array<Record<string, string[]>> =
        !access || access === 'public'
          ? []
          : route.config?.web
            ? [{ session: [] }]
            : [{ bearer: [], account: [] }, { bearer: [] }];
      const headers = documentedHeaders(route.config);
      return { schema: { ...schema, security, ...(headers ? { headers } : {}) } as typeof schema, url };
    },
  });
}

/**
 * The request headers a route reads from its handlers rather than its schema, as header
 * parameters of the document, so a generated client can send them: `Idempotency-Key` where the
 * route is idempotent, `If-Match` where it compares ETags (required where a missing one is 428).
 * The document only: validating them in the schema would cost every request of the route.
 */
function documentedHeaders(config: { idempotent?: boolean; ifMatch?: 'optional' | 'required' } | undefined) {
  const properties: Record<string, object> = {};
  if (config?.idempotent) {
    properties['Idempotency-Key'] = {
      type: 'string',
      pattern: KEY_PATTERN.source,
      description: 'Repeating the request with the same key within 24 hours replays the first response (`Idempotent-Replayed: true`); other input with the key is 409.',
    };
  }
  if (config?.ifMatch) {
    properties['If-Match'] = {
      type: 'string',
      description:
        config.ifMatch === 'required'
          ? 'The record’s current ETag (or `*`): 428 when missing, 412 when stale.'
          : 'The record’s current ETag (or `*`): 412 when stale; without it the change is not checked.',
    };
  }
  if (!Object.keys(properties).length) return null;
  return { type: 'object', properties, ...(config?.ifMatch === 'required' ? { required: ['If-Match'] } : {}) };
}

interface Document {
  paths?: Record<string, unknown>;
  components?: { securitySchemes?: Record<string, unknown> } & Record<string, unknown>;
  [field: string]: unknown;
}

const publicDocuments = new WeakMap<FastifyInstance, Document>();

/**
 * The API's document for integrations: /api/v2 only. The web app's own routes
 * (under /web/api, browser sessions only) are left out, since no API client can
 * call them; the whole document, web routes included, is what the web app's
 * client is generated from (GET /web/api/openapi.json, `npm run web:api`).
 */
export function publicDocument(app: FastifyInstance): Document {
  let doc = publicDocuments.get(app);
  if (!doc) {
    const full = app.swagger() as unknown as Document;
    const paths = Object.fromEntries(Object.entries(full.paths ?? {}).filter(([path]) => !path.startsWith('/web/')));
    const { session: _session, ...schemes } = full.components?.securitySchemes ?? {};
    doc = { ...full, paths, components: { ...full.components, securitySchemes: schemes } };
    publicDocuments.set(app, doc);
  }
  return doc;
}

/**
 * Names that the general rule below would make awkward or ambiguous. A new
 * route whose derived name reads badly gets an entry here, or declares
 * `schema.operationId` itself (which always wins).
 */
const NAMED: Record<string, string> = {
  'GET /api/v2/users/me': 'getCurrentUser',
  'GET /api/v2/backup': 'getBackupManifest',
  'GET /api/v2/backup/:resource': 'getBackupResourcePage',
  'GET /api/v2/backup/files/invoice_expense_receipts/:id': 'getBackupInvoiceExpenseReceipt',
  'GET /api/v2/reports/project_budget': 'getProjectBudgetReport',
  'GET /api/v2/reports/uninvoiced': 'getUninvoicedReport',
  'GET /api/v2/reports/time/team': 'getTeamTimeReport',
  'POST /api/v2/approvals/submit': 'submitForApproval',
  'POST /api/v2/approvals/approve': 'approveSubmission',
  'POST /api/v2/approvals/reject': 'rejectSubmission',
};

/** Last path segments that are an action on the resource before them, not a sub-resource. */
const ACTIONS = new Set(['stop', 'restart']);

const singular = (word: string) => (word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.replace(/s$/, ''));
const pascal = (segment: string) =>
  segment
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/**
 * The operationId of a route, from its method and URL alone, so it never
 * changes unless the route does: `GET /time_entries` → listTimeEntries,
 * `POST /time_entries` → createTimeEntry, `GET|PATCH|DELETE /time_entries/:id`
 * → get/update/deleteTimeEntry, `PATCH /time_entries/:id/stop` → stopTimeEntry,
 * `GET /invoices/:id/pdf` → getInvoicePdf, `GET /projects/:project_id/user_assignments`
 * → listProjectUserAssignments. A segment followed by an id names one item
 * (singular); a last segment in the plural is a collection (list, create).
 */
export function operationIdFor(method: string, url: string): string {
  const named = NAMED[`${method} ${url}`];
  if (named) return named;
  const segments = url.replace(/^\/(api\/v2|web\/api)(?=\/|$)/, '').split('/').filter(Boolean);
  const isParam = (s: string | undefined) => s?.startsWith(':') ?? false;
  let last = segments.at(-1);
  let verb: string | undefined;
  if (last && !isParam(last) && ACTIONS.has(last)) {
    verb = last;
    segments.pop();
    last = segments.at(-1);
  }
  const collection = last !== undefined && !isParam(last) && last.endsWith('s');
  verb ??= {
    GET: collection ? 'list' : 'get',
    POST: collection ? 'create' : 'post',
    PUT: 'replace',
    PATCH: 'update',
    DELETE: 'delete',
  }[method] ?? method.toLowerCase();
  const nouns = segments.flatMap((segment, i) => {
    if (isParam(segment)) return [];
    const isLast = i === segments.length - 1;
    // A listed collection keeps its plural; one item, or a new one, is singular.
    return [pascal(isLast && verb === 'list' ? segment : singular(segment))];
  });
  return verb + nouns.join('');
}

/**
 * Gives every route without its own `schema.operationId` the derived one, and
 * refuses to start when two operations would share a name (SDK generators
 * would otherwise silently rename or drop one).
 */
function registerOperationIds(app: FastifyInstance) {
  const taken = new Map<string, string>();
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().filter((m) => m !== 'HEAD');
    if (methods.length !== 1) return; // HEAD twins of GET routes are not in the document
    const [method] = methods;
    const operationId = route.schema?.operationId ?? operationIdFor(method, route.url);
    const owner = `${method} ${route.url}`;
    const previous = taken.get(operationId);
    if (previous && previous !== owner) throw new Error(`operationId ${operationId} of ${owner} is already used by ${previous}`);
    taken.set(operationId, owner);
    route.schema = { ...route.schema, operationId };
  });
}
