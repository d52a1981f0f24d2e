import { Type } from '@sinclair/typebox';
import { EnvelopeSchema, PageQuery, pageEnvelope, pageParams } from '../../../http/pagination.ts';
import type { TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses, OrNull } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { ExpenseSchema } from './schemas.ts';
import { expenseChoices, expenseSheet } from './service.ts';

/**
 * The web app's expense screens (issue 16 item 2): one request per screen. The
 * list is the caller's own expenses with the API's presentation, each with its
 * project's name and currency (the API's expense carries neither), plus what
 * the filters and the form pick from. Writes go to /api/v2/expenses.
 */

const ProjectSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    code: OrNull(Type.String()),
    client_id: Type.String(),
    client_name: Type.String(),
    currency: Type.String({ description: "The client's currency, else the workspace's: the currency of the project's expenses." }),
    billable: Type.Boolean({ description: "A new expense's default billable (the project's is_billable)." }),
    can_record: Type.Boolean({ description: 'Whether the caller may record a new expense on it.' }),
  },
  { additionalProperties: false },
);

const CategorySchema = Type.Object(
  { id: Type.String(), name: Type.String(), unit_name: OrNull(Type.String()), unit_price: OrNull(Type.Number()), is_active: Type.Boolean() },
  { additionalProperties: false },
);

const Choices = {
  today: Type.String({ format: 'date', description: 'Today in the workspace time zone.' }),
  projects: Type.Array(ProjectSchema, { description: 'Projects the caller may record on, and those of their own expenses.' }),
  categories: Type.Array(CategorySchema, { description: 'Active first, then archived.' }),
};

const WebExpenseSchema = Type.Object(
  {
    ...ExpenseSchema.properties,
    project: Type.Object({ id: Type.String(), name: Type.String(), client_name: Type.String() }, { additionalProperties: false }),
    currency: Type.String({ description: "The project client's currency, else the workspace's." }),
  },
  { additionalProperties: false },
);

const SheetQuery = Type.Object(
  {
    ...PageQuery,
    from: Type.Optional(Type.String({ format: 'date', description: 'Inclusive spent_date lower bound.' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'Inclusive spent_date upper bound; not before from.' })),
    project_id: Type.Optional(Type.String({ format: 'uuid' })),
    expense_category_id: Type.Optional(Type.String({ format: 'uuid' })),
    user_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'Whose expenses (default: the caller), as GET /api/v2/expenses?user_id= shows them to the caller; 403 for a caller who sees only their own, 404 for someone not in the workspace.',
      }),
    ),
  },
  { additionalProperties: false },
);

const ChoicesQuery = Type.Object(
  {
    expense_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'An expense the form edits: its project is among the choices if the caller may see the expense (someone else\u2019s, for a manager).' }),
    ),
  },
  { additionalProperties: false },
);

export async function expensesWebRoutes(app: TypedApp) {
  const tags = ['web'];

  app.get(
    '/web/api/expense_sheet',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getExpenseSheet',
        summary: 'A person\u2019s expenses (the caller\u2019s by default), filtered and paged, with their projects\u2019 names and currencies and the choices of the filters and the form',
        querystring: SheetQuery,
        response: {
          200: Type.Object(
            {
              user: Type.Object({ id: Type.String(), name: Type.String() }, { description: 'Whose expenses these are.' }),
              expenses: Type.Array(WebExpenseSchema),
              ...EnvelopeSchema,
              ...Choices,
            },
            { additionalProperties: false },
          ),
          ...ErrorResponses,
        },
      },
    },
    async (request) => {
      const page = pageParams(request.query);
      const { total, ...sheet } = await expenseSheet(app.db, principalOf(request), request.query, page, app.config.clock());
      const { user, expenses, ...choices } = sheet;
      return { user, expenses, ...pageEnvelope(request, page, total), ...choices };
    },
  );

  app.get(
    '/web/api/expense_choices',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getExpenseChoices',
        summary: 'What the expense form picks from: projects (with currency), categories (with unit prices), and today',
        querystring: ChoicesQuery,
        response: { 200: Type.Object(Choices, { additionalProperties: false }), ...ErrorResponses },
      },
    },
    async (request) => expenseChoices(app.db, principalOf(request), request.query.expense_id, app.config.clock()),
  );
}
