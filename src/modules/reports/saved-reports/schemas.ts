import { Type, type Static } from '@sinclair/typebox';
import { createBody, Enum, patchBody } from '../../../http/schemas.ts';
import { GroupByParam } from '../reports/index.ts';
import { PERIODS, REPORTS, SCHEDULES } from './rules.ts';

const Day = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const ReportKind = Enum(REPORTS, 'Which report: time (grouped), team, project_budget, uninvoiced or planned_vs_tracked.');
const PeriodName = Enum(PERIODS, 'A period relative to the day the report is opened (or sent), weeks by the workspace\u2019s week_start, or custom: the fixed from and to.');
const ScheduleKind = Enum(SCHEDULES, 'E-mail the report as CSV to its owner on the first day of every week (the workspace\u2019s week start) or month.');
const Visibility = Enum(['private', 'workspace'], 'private: only its owner sees it; workspace: everyone who may run the report sees it (each with their own numbers).');

/** The writable properties of a saved report, shared by create and PATCH. */
const writable = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  report: ReportKind,
  period: Type.Union([PeriodName, Type.Null()], { description: 'Required for every report but project_budget (which has none); default this_month.' }),
  from: Type.Union([Day, Type.Null()], { description: 'With period custom: the first day.' }),
  to: Type.Union([Day, Type.Null()], { description: 'With period custom: the last day.' }),
  group_by: Type.Union([GroupByParam, Type.Null()], { description: 'time only; default project.' }),
  is_active: Type.Union([Type.Boolean(), Type.Null()], { description: 'project_budget only: active (true, the default) or archived (false) projects, or all (null).' }),
  visibility: Visibility,
  schedule: ScheduleKind,
};

export const SavedReportCreateBody = createBody(writable, ['name', 'report']);
export type SavedReportCreateInput = Static<typeof SavedReportCreateBody>;

export const SavedReportPatchBody = patchBody(writable);
export type SavedReportPatchInput = Static<typeof SavedReportPatchBody>;

export const SavedReportSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    report: ReportKind,
    period: Type.Union([PeriodName, Type.Null()]),
    from: Type.Union([Day, Type.Null()]),
    to: Type.Union([Day, Type.Null()]),
    group_by: Type.Union([GroupByParam, Type.Null()]),
    is_active: Type.Union([Type.Boolean(), Type.Null()]),
    visibility: Visibility,
    schedule: ScheduleKind,
    next_send_date: Type.Union([Day, Type.Null()], { description: 'The day the next e-mail goes out; null when not scheduled.' }),
    owner: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }, { additionalProperties: false }),
    is_own: Type.Boolean({ description: 'The caller owns it (and may change it).' }),
    may_delete: Type.Boolean({ description: 'The owner, or an owner or administrator of the workspace for a shared report.' }),
    range: Type.Union([Type.Object({ from: Day, to: Day }, { additionalProperties: false }), Type.Null()], {
      description: 'The period resolved today in the workspace\u2019s time zone and weeks (null for project_budget): the dates the report opens with.',
    }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type PresentedSavedReport = Static<typeof SavedReportSchema>;
