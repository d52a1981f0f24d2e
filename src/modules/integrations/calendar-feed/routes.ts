import { Type } from '@sinclair/typebox';
import type { TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { notFound } from '../../../errors.ts';
import { feedCalendar } from './service.ts';
import { CALENDAR_FEED_PATH } from './rules.ts';

/**
 * The feed itself: public (the token in the path is the only credential), read-only.
 * Every failure (malformed, unknown, revoked, a person no longer active) is the same
 * 404, so a guess learns nothing.
 */
export async function calendarFeedRoutes(app: TypedApp) {
  app.get(
    `${CALENDAR_FEED_PATH}/:file`,
    {
      config: { access: 'public' },
      schema: {
        tags: ['calendar feed'],
        summary: "A person's calendar feed (iCalendar)",
        description:
          "The secret URL a person made on their profile page: their own time entries of the last year and their planned work from three months back to a year ahead, as text/calendar. The token in the path is the only credential; a revoked, rotated or unknown one is 404.",
        params: Type.Object({ file: Type.String({ maxLength: 100, description: '<token>.ics' }) }, { additionalProperties: false }),
        response: { 200: { description: 'The iCalendar file.', content: { 'text/calendar': { schema: { type: 'string' } } } }, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const text = await feedCalendar(app.db, request.params.file, app.config.clock());
      if (text === null) throw notFound('calendar feed');
      return reply
        .type('text/calendar; charset=utf-8')
        .header('Cache-Control', 'private, no-store')
        .header('Content-Disposition', 'inline; filename="sheaf.ics"')
        .header('X-Robots-Tag', 'noindex')
        .send(text);
    },
  );
}
