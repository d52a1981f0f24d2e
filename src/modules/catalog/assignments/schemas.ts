import { Type } from '@sinclair/typebox';
import { PageQuery } from '../../../http/pagination.ts';
import { Nullable } from '../../../http/schemas.ts';
import { MAX_BUDGET, MAX_HOURLY_RATE } from '../rates/index.ts';

/**
 * Schemas both assignment kinds (a person on a project, a task on a project) share: the project
 * in the path, the list's query, and the rate and budget properties, each with its own description.
 */

export const ProjectParams = Type.Object({ project_id: Type.String() }, { additionalProperties: false });

export const AssignmentsQuery = Type.Object(
  { is_active: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])), ...PageQuery },
  { additionalProperties: false },
);

/** A writable billable hourly rate, effective from `hourly_rate_effective_from`. */
export const hourlyRateField = (description: string) =>
  Type.Number({ minimum: 0, maximum: MAX_HOURLY_RATE.toNumber(), description });

/** A writable budget (hours or money per the project's budget_by); null clears it. */
export const budgetField = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: MAX_BUDGET.toNumber(), description }));

/** The rate in force today and the date it took effect, as the response shows them (by permission). */
export const RateProperties = {
  hourly_rate: Type.Optional(Nullable(Type.Number())),
  hourly_rate_effective_from: Type.Optional(Nullable(Type.String({ format: 'date' }))),
};

/** The budget as the response shows it (by permission); may be 0 or null. */
export const BudgetProperty = Type.Optional(Nullable(Type.Number()));
