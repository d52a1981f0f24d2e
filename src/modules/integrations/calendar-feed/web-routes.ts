import { Type } from '@sinclair/typebox';
import { publicUrlOf } from '../../../config.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses, Nullable } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { notFound } from '../../../errors.ts';
import { createFeed, feedStatus, revokeFeed } from './service.ts';

/**
 * The signed-in person's own calendar feed in the workspace they are signed in to
 * (web-only, session and CSRF): whether it works, make or rotate it (the URL is
 * answered once), revoke it. See docs/decisions.md, "Calendar feeds".
 */

const Status = Type.Object(
  {
    active: Type.Boolean({ description: 'Whether a feed link works.' }),
    created_at: Nullable(Type.String({ format: 'date-time' })),
    last_fetched_at: Nullable(Type.String({ format: 'date-time', description: 'When a calendar program last read it.' })),
  },
  { additionalProperties: false },
);
const Created = Type.Object(
  { url: Type.String({ description: 'The feed URL: shown this once, never stored.' }), ...Status.properties },
  { additionalProperties: false },
);

const config = { access: 'authenticated', web: true } as const;
const tags = ['web'];
const PATH = '/web/api/profile/calendar-feed';

export async function calendarFeedWebRoutes(app: TypedApp) {
  const now = () => app.config.clock();

  app.get(
    PATH,
    { config, schema: { tags, operationId: 'getCalendarFeed', summary: 'Your calendar feed: whether it works', response: { 200: Status, ...ErrorResponses } } },
    async (request) => feedStatus(app.db, principalOf(request)),
  );

  app.post(
    PATH,
    {
      config,
      schema: {
        tags,
        operationId: 'createCalendarFeed',
        summary: 'Make (or rotate) your calendar feed',
        description: 'Answers the new URL once. A working feed stops working at once (rotation).',
        response: { 201: Created, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createFeed(app.db, principalOf(request), { baseUrl: publicUrlOf(app.config), now: now() })),
  );

  app.delete(
    PATH,
    {
      config,
      schema: {
        tags,
        operationId: 'revokeCalendarFeed',
        summary: 'Revoke your calendar feed',
        description: 'The link stops working at once (404). 404 when there is none.',
        response: { 204: Type.Null({ description: 'Revoked.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      if (!(await revokeFeed(app.db, principalOf(request), now()))) throw notFound('calendar feed');
      return reply.code(204).send(null);
    },
  );
}
