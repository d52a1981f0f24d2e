import { Type } from '@sinclair/typebox';
import { Enum, ErrorBody, ErrorResponses } from '../../../http/schemas.ts';
import { MAX_PER_PAGE } from '../../../http/pagination.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';
import { ACTIONS, RECORD_TYPES } from './rules.ts';
import { readChanges } from './service.ts';

const ChangesQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'The next_cursor of the previous page; without it, the feed starts at its oldest kept change. Keep the same types with one cursor.' })),
    types: Type.Optional(Type.String({ maxLength: 200, description: `Comma-separated record types to include (default all): ${RECORD_TYPES.join(', ')}.` })),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: `Default 1000, at most ${MAX_PER_PAGE}.` })),
  },
  { additionalProperties: false },
);

const Change = Type.Object(
  {
    type: Enum(RECORD_TYPES, 'The record type, as its API path names it.'),
    id: Type.String({ format: 'uuid', description: 'The record id (for users: the user id). Read its current state through its own route.' }),
    action: Enum(ACTIONS, 'deleted is a tombstone: the record is gone (for users: removed from the workspace).'),
    changed_at: Type.String({ format: 'date-time', description: 'When the transaction that made the change began.' }),
  },
  { additionalProperties: false },
);

/**
 * The change feed (issue 26 item 5): every create, update and delete of the records a
 * client syncs, in a transaction-safe order (see the migration 0089), for full-access keys.
 */
export async function changesRoutes(app: TypedApp) {
  app.features.add('changes-feed-v1');
  app.get(
    '/api/v2/changes',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['changes'],
        summary: 'Read the change feed',
        description:
          'Every create, update and delete of time entries, expenses, clients, projects, tasks, invoices and users that the caller may see (the rules of each record\u2019s list: time and expenses by their person and project, before and after a move; deletions of clients and projects to every reader), oldest first in the order their transactions settled: a change committed late is read after the cursor that was current when it committed, never skipped. Each change names its record; read the record itself through its route. Follow next_cursor (stored by the client) page by page while has_more is true, then poll with it; without a cursor the feed starts at the oldest change kept. A cursor from before a change the retention deleted (CHANGES_RETENTION_DAYS, default 30) is 410 cursor_expired: read the lists again and start over without a cursor. Changes of who may see what (assignments, permissions) are not in the feed: re-list after them. Full-access keys (and sessions) only.',
        querystring: ChangesQuery,
        response: {
          200: Type.Object(
            {
              changes: Type.Array(Change),
              next_cursor: Type.String({ description: 'Where the next read starts; returned even when nothing changed.' }),
              has_more: Type.Boolean({ description: 'More changes are ready now: read again with next_cursor at once.' }),
            },
            { additionalProperties: false },
          ),
          410: ErrorBody,
          ...ErrorResponses,
        },
      },
    },
    async (request) =>
      readChanges(app.db, principalOf(request), request.query, { retentionDays: app.config.changesRetentionDays }),
  );
}
