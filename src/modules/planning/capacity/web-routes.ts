import { Type } from '@sinclair/typebox';
import { requestDb } from '../../../http/idempotency.ts';
import { createBody, Enum, ErrorResponses, patchBody } from '../../../http/schemas.ts';
import { IdParams, NoQuery, rejectReadOnly, type TypedApp } from '../../../http/route-kit.ts';
import { principalOf } from '../../../http/security.ts';
import { TIME_OFF_KINDS, WEEKDAYS } from './rules.ts';
import {
  capacityOf,
  createPattern,
  createTimeOff,
  deletePattern,
  deleteTimeOff,
  getBreakRules,
  importHolidays,
  listPatterns,
  listTimeOff,
  setBreakRules,
  updatePattern,
  updateTimeOff,
} from './service.ts';

/**
 * Working capacity in the web app (session only: the spec names these records only as
 * backup resources): working patterns (`/web/api/working_patterns`), time off and public
 * holidays (`/web/api/time_off`, `/web/api/holidays/import`), break rules
 * (`/web/api/break_rules`) and a person's capacity per day (`/web/api/capacity`).
 */

const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const Id = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
const DayHours = Type.Number({ minimum: 0, maximum: 24, description: 'Hours on this weekday, 0 to 24.' });
const Kind = Enum(TIME_OFF_KINDS, 'vacation, sick, public_holiday (with user_id null: a holiday for everyone), unpaid or other.');

const patternWritable = {
  user_id: Id,
  effective_from: { ...Day, description: 'The first day it applies; it applies until the next pattern of the person starts.' },
  ...Object.fromEntries(WEEKDAYS.map((d) => [d, DayHours])),
} as Record<string, ReturnType<typeof Type.String> | ReturnType<typeof Type.Number>>;

const PatternSchema = Type.Object(
  {
    id: Id,
    user_id: Id,
    effective_from: Day,
    ...Object.fromEntries(WEEKDAYS.map((d) => [d, Type.Number()])),
    weekly_hours: Type.Number(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);

const timeOffWritable = {
  user_id: Type.Union([Id, Type.Null()], { description: 'Whose time off (default: the caller\u2019s); null: a public holiday for everyone (administrators).' }),
  kind: Kind,
  starts_on: Day,
  ends_on: { ...Day, description: 'The last day (default: starts_on).' },
  hours: Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 24 }), Type.Null()], { description: 'Hours off on each day; null or absent: the whole days.' }),
  name: Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { description: 'A note, or the holiday\u2019s name.' }),
};

const TimeOffSchema = Type.Object(
  {
    id: Id,
    user_id: Type.Union([Id, Type.Null()]),
    kind: Kind,
    starts_on: Day,
    ends_on: Day,
    hours: Type.Union([Type.Number(), Type.Null()]),
    name: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);

const BreakRule = Type.Object(
  {
    after_hours: Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 24, description: 'A day with more than this many hours tracked …' }),
    break_minutes: Type.Integer({ minimum: 1, maximum: 600, description: '… needs at least this many minutes of breaks.' }),
  },
  { additionalProperties: false },
);
const BreakRules = Type.Object({ break_rules: Type.Array(BreakRule, { maxItems: 10 }) }, { additionalProperties: false });
const StoredBreakRules = Type.Object({
  break_rules: Type.Array(Type.Object({ after_hours: Type.String(), break_minutes: Type.Integer() }, { additionalProperties: false })),
});

const Period = Type.Object({ user_id: Type.Optional(Type.String()), from: Day, to: Day }, { additionalProperties: false });

export async function capacityWebRoutes(app: TypedApp) {
  const config = { access: 'authenticated', web: true } as const;
  const tags = ['web'];
  const now = () => app.config.clock();

  app.get(
    '/web/api/working_patterns',
    {
      config,
      schema: {
        tags,
        operationId: 'listWorkingPatterns',
        summary: 'List working patterns',
        description: 'A person\u2019s patterns by their first day (user_id: theirs, an administrator\u2019s or a manager\u2019s teammate\u2019s); without user_id, everyone\u2019s (administrators).',
        querystring: Type.Object({ user_id: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: { 200: Type.Object({ working_patterns: Type.Array(PatternSchema) }), ...ErrorResponses },
      },
    },
    async (request) => ({ working_patterns: await listPatterns(app.db, principalOf(request), request.query.user_id) }),
  );

  app.post(
    '/web/api/working_patterns',
    {
      config: { ...config, idempotent: true },
      preValidation: rejectReadOnly({ readOnly: ['id', 'weekly_hours', 'created_at', 'updated_at'] }),
      schema: {
        tags,
        operationId: 'createWorkingPattern',
        summary: 'Set a working pattern',
        description: 'Administrators. Hours per weekday (absent: 0), from effective_from until the person\u2019s next pattern starts. A second pattern starting the same day is 400 naming effective_from.',
        body: createBody(patternWritable, ['user_id', 'effective_from']),
        response: { 201: PatternSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createPattern(requestDb(request), principalOf(request), request.body as never, now())),
  );

  app.patch(
    '/web/api/working_patterns/:id',
    {
      config,
      preValidation: rejectReadOnly({ readOnly: ['id', 'user_id', 'weekly_hours', 'created_at', 'updated_at'] }),
      schema: {
        tags,
        operationId: 'updateWorkingPattern',
        summary: 'Change a working pattern',
        params: IdParams,
        body: patchBody(Object.fromEntries(Object.entries(patternWritable).filter(([k]) => k !== 'user_id'))),
        response: { 200: PatternSchema, ...ErrorResponses },
      },
    },
    async (request) => updatePattern(app.db, principalOf(request), request.params.id, request.body as never, now()),
  );

  app.delete(
    '/web/api/working_patterns/:id',
    {
      config,
      schema: { tags, operationId: 'deleteWorkingPattern', summary: 'Delete a working pattern', params: IdParams, querystring: NoQuery, response: { 204: Type.Null(), ...ErrorResponses } },
    },
    async (request, reply) => {
      await deletePattern(app.db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/web/api/time_off',
    {
      config,
      schema: {
        tags,
        operationId: 'listTimeOff',
        summary: 'List time off and holidays',
        description: 'Time off touching the period (at most 366 days) with the workspace\u2019s holidays: of user_id, or without it the caller\u2019s (administrators: everyone\u2019s).',
        querystring: Period,
        response: { 200: Type.Object({ time_off: Type.Array(TimeOffSchema) }), ...ErrorResponses },
      },
    },
    async (request) => ({ time_off: await listTimeOff(app.db, principalOf(request), request.query) }),
  );

  app.post(
    '/web/api/time_off',
    {
      config: { ...config, idempotent: true },
      preValidation: rejectReadOnly({ readOnly: ['id', 'created_at', 'updated_at'] }),
      schema: {
        tags,
        operationId: 'createTimeOff',
        summary: 'Record time off or a holiday',
        description:
          'Everyone records their own; administrators anyone\u2019s, and holidays (user_id null). Time off that shares a day with the person\u2019s other time off (or a holiday with another holiday) is 400 naming starts_on.',
        body: createBody(timeOffWritable, ['kind', 'starts_on']),
        response: { 201: TimeOffSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createTimeOff(requestDb(request), principalOf(request), request.body, now())),
  );

  app.patch(
    '/web/api/time_off/:id',
    {
      config,
      preValidation: rejectReadOnly({ readOnly: ['id', 'user_id', 'created_at', 'updated_at'] }),
      schema: {
        tags,
        operationId: 'updateTimeOff',
        summary: 'Change time off or a holiday',
        description:
          'Who may record it may change it: the person their own, administrators anyone\u2019s and the holidays (user_id null; another role gets 403). The rules of a create: ends_on not before starts_on (400 naming ends_on), hours above 0 and at most 24 or null for whole days (400 naming hours), a holiday stays kind public_holiday (400 naming kind), and a change that shares a day with the person\u2019s other time off (or a holiday with another holiday) is 400 naming starts_on. Another workspace\u2019s id is 404.',
        params: IdParams,
        body: patchBody(Object.fromEntries(Object.entries(timeOffWritable).filter(([k]) => k !== 'user_id')) as Omit<typeof timeOffWritable, 'user_id'>),
        response: { 200: TimeOffSchema, ...ErrorResponses },
      },
    },
    async (request) => updateTimeOff(app.db, principalOf(request), request.params.id, request.body, now()),
  );

  app.delete(
    '/web/api/time_off/:id',
    {
      config,
      schema: { tags, operationId: 'deleteTimeOff', summary: 'Delete time off or a holiday', params: IdParams, querystring: NoQuery, response: { 204: Type.Null(), ...ErrorResponses } },
    },
    async (request, reply) => {
      await deleteTimeOff(app.db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/web/api/holidays/import',
    {
      config: { access: 'administrator', web: true },
      bodyLimit: 1_200_000,
      schema: {
        tags,
        operationId: 'importHolidays',
        summary: 'Import public holidays from an iCalendar file',
        description:
          'The all-day events of `year` in the file (yearly recurring ones too) become holidays, named by their summary; a day that already has a holiday is left alone. A text that is not iCalendar is 400 naming calendar.',
        body: Type.Object(
          { calendar: Type.String({ minLength: 1, maxLength: 1_000_000, description: 'The .ics file\u2019s text.' }), year: Type.Integer({ minimum: 1900, maximum: 2999 }) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ imported: Type.Integer(), existing: Type.Integer(), skipped: Type.Integer() }), ...ErrorResponses },
      },
    },
    async (request) => importHolidays(app.db, principalOf(request), request.body, now()),
  );

  app.get(
    '/web/api/break_rules',
    {
      config,
      schema: { tags, operationId: 'getBreakRules', summary: 'The workspace\u2019s break rules', querystring: NoQuery, response: { 200: StoredBreakRules, ...ErrorResponses } },
    },
    async (request) => ({ break_rules: await getBreakRules(app.db, principalOf(request)) }),
  );

  app.put(
    '/web/api/break_rules',
    {
      config: { access: 'administrator', web: true },
      schema: {
        tags,
        operationId: 'setBreakRules',
        summary: 'Set the break rules',
        description: 'The whole list (empty: none). E.g. more than 6 hours needs 30 minutes, more than 9 hours 45 minutes (German working-time law). The approval preflight warns break_missing on a day that falls short.',
        body: BreakRules,
        response: { 200: StoredBreakRules, ...ErrorResponses },
      },
    },
    async (request) => ({ break_rules: await setBreakRules(app.db, principalOf(request), request.body.break_rules) }),
  );

  app.get(
    '/web/api/capacity',
    {
      config,
      schema: {
        tags,
        operationId: 'getCapacity',
        summary: 'A person\u2019s working capacity per day',
        description: 'Hours expected on each day of the period: the working pattern (else expected weekly hours over Monday to Friday) less time off and holidays; days null when nothing is expected of them.',
        querystring: Period,
        response: {
          200: Type.Object({
            user_id: Id,
            total_hours: Type.Union([Type.Number(), Type.Null()]),
            days: Type.Union([
              Type.Array(Type.Object({ date: Day, hours: Type.Number(), base_hours: Type.Number(), off_hours: Type.Number(), whole_day_off: Type.Boolean() }, { additionalProperties: false })),
              Type.Null(),
            ]),
          }),
          ...ErrorResponses,
        },
      },
    },
    async (request) => capacityOf(app.db, principalOf(request), request.query),
  );
}
