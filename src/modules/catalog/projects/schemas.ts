import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable, createProperties, patchBody } from '../../../http/schemas.ts';
import { MAX_BUDGET, MAX_HOURLY_RATE } from '../rates/index.ts';
import { BILL_BY, BUDGET_BY, CODE_MAX, NAME_MAX, NOTES_MAX } from './rules.ts';

/** The project's schemas: the API's bodies and items, and the list item the web app's search shares. */

const Money = (max: number, description: string) =>
  Type.Number({ minimum: 0, maximum: max, description: `${description} At least 0, at most 2 decimal places.` });
const IsoDate = (description: string) => Nullable(Type.String({ format: 'date', description: `YYYY-MM-DD. ${description}` }));

/** The writable properties; POST requires `client_id` and `name`, PATCH at least one property. */
const writable = {
  client_id: Type.String({ description: 'An active client of the workspace.' }),
  name: Type.String({ minLength: 1, maxLength: NAME_MAX }),
  code: Nullable(Type.String({ maxLength: CODE_MAX, description: 'A short reference; blank is null.' })),
  notes: Nullable(Type.String({ maxLength: NOTES_MAX })),
  owner_id: Nullable(Type.String({ description: 'An active member of the workspace, or null.' })),
  starts_on: IsoDate('The first day of the project.'),
  ends_on: IsoDate('The last day of the project, on or after starts_on.'),
  is_active: Type.Boolean({ description: 'false archives the project, true restores it.' }),
  is_billable: Type.Boolean({ description: "Default true. A non-billable project bills by 'none' and is not fixed-fee." }),
  bill_by: Enum(BILL_BY, "Which hourly rate prices the project's time: the project's, its tasks', its people's, or none."),
  hourly_rate: Money(
    MAX_HOURLY_RATE.toNumber(),
    "The project's billable hourly rate (used with bill_by project), from hourly_rate_effective_from on; earlier dates keep their rate. Not with bill_by none.",
  ),
  hourly_rate_effective_from: Type.String({
    format: 'date',
    description: "YYYY-MM-DD, only with hourly_rate. Default on update: today in the workspace time zone; on create: none, the rate prices all the project's work whatever its date (shown as null).",
  }),
  is_fixed_fee: Type.Boolean({ description: 'Invoiced for a fixed fee; needs `fee`.' }),
  fee: Nullable(Money(MAX_BUDGET.toNumber(), 'The fixed fee; only with is_fixed_fee.')),
  cost_budget: Nullable(Money(MAX_BUDGET.toNumber(), 'The internal cost budget (money at cost rates); needs the permission to view internal costs.')),
  budget_by: Enum(BUDGET_BY, 'project (hours), project_cost (money), task (hours per task), task_fees (money per task), person (per person), none.'),
  budget: Nullable(
    Money(MAX_BUDGET.toNumber(), 'The project budget, required with budget_by project or project_cost and refused otherwise (task and person budgets live on the assignments).'),
  ),
  budget_is_monthly: Type.Boolean({ description: 'The budget resets every month; not with budget_by none.' }),
  show_budget_to_all: Type.Boolean({ description: 'Everyone assigned sees the (hours) budget, not only its managers.' }),
  notify_when_over_budget: Type.Boolean({
    description: "E-mail the project's managers (without any, the workspace's owners and administrators) once a budget period when over_budget_notification_percentage of the budget is spent; a project without a budget is never alerted.",
  }),
  over_budget_notification_percentage: Type.Number({ exclusiveMinimum: 0, maximum: 1000, description: 'The share of the budget, in percent (at most 2 decimal places), that sends the alert; default 80.' }),
};

export const ProjectCreateBody = Type.Object(
  {
    ...createProperties(writable, ['client_id', 'name']),
    task_ids: Type.Optional(
      Type.Array(Type.String(), {
        uniqueItems: true,
        maxItems: 1000,
        description: 'Active tasks of the workspace to assign. Omitted: the workspace default tasks; []: none.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ProjectPatchBody = patchBody(writable);

const OwnerSchema = Nullable(Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }, { additionalProperties: false }));

const ProjectTaskSchema = Type.Object(
  {
    task_id: Type.String(),
    name: Type.String(),
    is_active: Type.Boolean({ description: "The assignment's state." }),
    billable: Type.Boolean(),
    budget: Type.Optional(Nullable(Type.Number())),
  },
  { additionalProperties: false },
);

/** Property order is the serializer's and the presenter's: required properties, then optional ones. */
export const ProjectSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    code: Nullable(Type.String()),
    notes: Nullable(Type.String()),
    is_active: Type.Boolean(),
    client: Type.Object({ id: Type.String(), name: Type.String(), currency: Type.String() }, { additionalProperties: false }),
    owner_id: Nullable(Type.String()),
    owner: OwnerSchema,
    is_billable: Type.Boolean(),
    bill_by: Enum(BILL_BY, ''),
    is_fixed_fee: Type.Boolean(),
    budget_by: Enum(BUDGET_BY, ''),
    budget_is_monthly: Type.Boolean(),
    show_budget_to_all: Type.Boolean(),
    notify_when_over_budget: Type.Boolean(),
    over_budget_notification_percentage: Type.Number(),
    starts_on: Nullable(Type.String({ format: 'date' })),
    ends_on: Nullable(Type.String({ format: 'date' })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    hourly_rate: Type.Optional(Nullable(Type.Number({ description: 'The project rate in force today (workspace time zone).' }))),
    hourly_rate_effective_from: Type.Optional(Nullable(Type.String({ format: 'date' }))),
    fee: Type.Optional(Nullable(Type.Number())),
    cost_budget: Type.Optional(Nullable(Type.Number())),
    budget: Type.Optional(Nullable(Type.Number())),
    tasks: Type.Optional(Type.Array(ProjectTaskSchema, { description: "Item reads only: the project's task assignments." })),
  },
  {
    additionalProperties: false,
    description:
      '`hourly_rate`, `hourly_rate_effective_from` and `fee` appear only for callers who may view billable rates; `cost_budget` only for those who may view internal costs; `budget` (and the nested task budgets, for active assignments) only for those who may view the project\'s budget.',
  },
);

/** The personal sync key's project directory item: exactly these properties. */
export const DirectoryProjectSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    code: Nullable(Type.String()),
    is_active: Type.Boolean(),
    owner_id: Nullable(Type.String()),
    owner: OwnerSchema,
    client: Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false }),
  },
  { additionalProperties: false, description: 'Personal sync key: the project directory item.' },
);

/**
 * A list item: the directory properties always, everything else of the full
 * project as optional properties. One flat schema rather than the item's union,
 * because the serializer would otherwise validate each of up to 2,000 items
 * against the union's branches to pick one (a measured tenth of the list's time).
 */
export const ProjectListItemSchema = Type.Object(
  {
    ...Type.Omit(DirectoryProjectSchema, ['client']).properties,
    client: Type.Object(
      { id: Type.String(), name: Type.String(), currency: Type.Optional(Type.String()) },
      { additionalProperties: false },
    ),
    ...Type.Partial(Type.Omit(ProjectSchema, ['id', 'name', 'code', 'is_active', 'owner_id', 'owner', 'client', 'tasks'])).properties,
  },
  {
    additionalProperties: false,
    description:
      'A personal sync key gets exactly the directory properties (`id`, `name`, `code`, `is_active`, `owner_id`, `owner`, `client` with `id` and `name`). Every other caller gets the project as in `GET /api/v2/projects/{id}` without `tasks`: `client.currency` and the other properties always, rates, fees, costs and budgets by permission.',
  },
);

/** A create or update body (create requires `client_id` and `name`; only create takes `task_ids`). */
export type ProjectInput = Partial<Static<typeof ProjectCreateBody>>;
