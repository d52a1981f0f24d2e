import { Type } from '@sinclair/typebox';
import { FormatQuery } from '../../../http/exports.ts';
import { MAX_PER_PAGE } from '../../../http/pagination.ts';

/** The query schemas of the reports, shared by the API's routes, the web routes and the service. */

/** Reports page by project (or person): per_page defaults to and is at most 2000. */
const ReportPage = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: 'Default and maximum 2000.' })),
};
export const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);
export const ReportDate = Type.String({ description: 'YYYYMMDD or YYYY-MM-DD' });

export const BudgetQuery = Type.Object({ is_active: Type.Optional(Bool), ...ReportPage }, { additionalProperties: false });
export const UninvoicedQuery = Type.Object(
  { from: ReportDate, to: ReportDate, include_fixed_fee: Type.Optional(Bool), ...ReportPage },
  { additionalProperties: false },
);
export const TeamQuery = Type.Object({ from: ReportDate, to: ReportDate, ...ReportPage }, { additionalProperties: false });

const Format = FormatQuery;
export const GroupByParam = Type.Union([Type.Literal('project'), Type.Literal('task'), Type.Literal('person'), Type.Literal('client')]);
const Uuid = Type.String({ format: 'uuid' });

const TimeFilters = {
  from: ReportDate,
  to: ReportDate,
  group_by: GroupByParam,
  project_id: Type.Optional(Uuid),
  client_id: Type.Optional(Uuid),
  user_id: Type.Optional(Uuid),
  task_id: Type.Optional(Uuid),
};
export const TimeQuery = Type.Object(TimeFilters, { additionalProperties: false });

export const BudgetExportQuery = Type.Object({ format: Format, is_active: Type.Optional(Bool) }, { additionalProperties: false });
export const UninvoicedExportQuery = Type.Object(
  { format: Format, from: ReportDate, to: ReportDate, include_fixed_fee: Type.Optional(Bool) },
  { additionalProperties: false },
);
export const TeamExportQuery = Type.Object({ format: Format, from: ReportDate, to: ReportDate }, { additionalProperties: false });
export const TimeExportQuery = Type.Object(
  {
    format: Format,
    ...TimeFilters,
    group_by: Type.Optional(GroupByParam),
    rows: Type.Optional(
      Type.Union([Type.Literal('groups'), Type.Literal('entries')], {
        description: 'groups (default): the grouped table; entries: every entry of the period, one row each.',
      }),
    ),
  },
  { additionalProperties: false },
);
