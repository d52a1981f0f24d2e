import { operatorPrincipal } from '../access/operator.ts';
import { ApiError } from '../errors.ts';
import { applyCategoryInput, type CategoryInput, type CategoryState, createCategory, listCategories, presentCategory, resolveCategory, updateCategory } from '../modules/tracking/expense-categories/index.ts';
import type { AdminCommand } from './admin.ts';
import { str, type Options, type Values } from './command.ts';
import { fields, print, table, UsageError, withMoney } from './output.ts';
import { bool, required, workspaceOption } from './options.ts';
import { requireWorkspace } from './lookups.ts';

/**
 * `sheaf admin expense-category create|update|list`: the operator's commands
 * for a workspace's expense categories. They call the same service as the API,
 * as the operator (src/access/operator.ts). Options are checked by the
 * service's own pure rules before the database is opened, so bad input exits 2
 * and changes nothing.
 */

// ---------------------------------------------------------------- option parsing (no database)

/** The option each service field comes from. */
const FIELD_OPTIONS: Record<string, string> = {
  name: '--name',
  unit_name: '--unit-name',
  unit_price: '--unit-price',
  is_active: '--active',
};

function categoryOption(values: Values): string {
  const ref = required(values, 'category');
  if (!ref.trim()) throw new UsageError('--category needs a category id or name.');
  return ref;
}

/** Empty, `none` or `-` clears a value. */
const isClear = (v: string) => v === '' || v === 'none' || v === '-';

/** A service error said with the option the user typed. */
function inOptionTerms(err: ApiError): string {
  const field = typeof err.extras.field === 'string' ? err.extras.field : '';
  const option = FIELD_OPTIONS[field];
  if (!option) return err.message;
  return err.message.startsWith(`${field} `) ? `${option}${err.message.slice(field.length)}` : `${option}: ${err.message}`;
}

/**
 * The category options given, checked by the service's rules. For an update the
 * unit pair is checked against the stored category when it runs; here a lone
 * `--unit-name` or `--unit-price` is only checked on its own.
 */
function categoryFrom(values: Values, { create }: { create: boolean }): CategoryInput {
  const input: CategoryInput = {};
  if (values.name !== undefined) input.name = values.name;
  if (values['unit-name'] !== undefined) input.unit_name = isClear(values['unit-name']) ? null : values['unit-name'];
  if (values['unit-price'] !== undefined) input.unit_price = isClear(values['unit-price']) ? null : values['unit-price'];
  const active = bool(values, 'active');
  if (active !== undefined) input.is_active = active;
  const base: CategoryState = create
    ? { name: '', unit_name: null, unit_price: null, is_active: true }
    : { name: 'x', unit_name: 'x', unit_price: '1', is_active: true };
  const probe = { ...input };
  if (!create && probe.unit_name !== undefined && probe.unit_price === undefined) probe.unit_price = probe.unit_name === null ? null : '1';
  if (!create && probe.unit_price !== undefined && probe.unit_name === undefined) probe.unit_name = probe.unit_price === null ? null : 'x';
  try {
    applyCategoryInput(base, probe);
  } catch (err) {
    if (err instanceof ApiError && err.statusCode === 400) throw new UsageError(inOptionTerms(err));
    throw err;
  }
  return input;
}

/** Errors raised while running, with the option instead of the API field. */
function optionError(err: unknown): never {
  if (err instanceof ApiError) {
    const field = typeof err.extras.field === 'string' ? err.extras.field : undefined;
    if (field && FIELD_OPTIONS[field]) {
      throw new ApiError(err.code, inOptionTerms(err), { ...err.extras, field: FIELD_OPTIONS[field].replace(/^--/, '') });
    }
    if (err.code === 'not_found' && /expense category/.test(err.message)) {
      throw new ApiError('not_found', 'No such expense category in this workspace (see "sheaf admin expense-category list").', {
        field: 'category',
      });
    }
  }
  throw err;
}

// ---------------------------------------------------------------- commands

const CATEGORY_OPTIONS = {
  workspace: str,
  name: str,
  'unit-name': str,
  'unit-price': str,
  active: str,
} satisfies Options;

const UNIT_USAGE = '[--unit-name U --unit-price P] [--active B]';
const COLUMNS = ['id', 'name', 'unit_name', 'unit_price', 'is_active'];

const admin = <T>(c: AdminCommand<T>) => c;

const commands = [
  admin({
    name: 'admin expense-category create',
    usage: `--workspace ID --name N ${UNIT_USAGE}`,
    summary: 'create an expense category (a unit name and price go together)',
    options: CATEGORY_OPTIONS,
    parse: (values) => {
      const id = workspaceOption(values);
      required(values, 'name');
      return { id, input: categoryFrom(values, { create: true }) as CategoryInput & { name: string } };
    },
    async run({ db, output, clock }, { id, input }) {
      const { currency } = await requireWorkspace(db, id);
      const view = presentCategory(await createCategory(db, id, operatorPrincipal(id), input, clock()).catch(optionError));
      print(output, view, () => fields(withMoney(view, currency, ['unit_price'])));
    },
  }),
  admin({
    name: 'admin expense-category update',
    usage: `--workspace ID --category ID|NAME [--name N] [--unit-name U|none] [--unit-price P|none] [--active B]`,
    summary: 'change an expense category (--active false archives it; none clears the unit)',
    options: { ...CATEGORY_OPTIONS, category: str },
    parse: (values) => {
      const id = workspaceOption(values);
      const category = categoryOption(values);
      const input = categoryFrom(values, { create: false });
      if (Object.keys(input).length === 0) throw new UsageError('Name at least one thing to change.');
      return { id, category, input };
    },
    async run({ db, output, clock }, { id, category, input }) {
      const { currency } = await requireWorkspace(db, id);
      const row = await resolveCategory(db, id, category).catch(optionError);
      const view = presentCategory(await updateCategory(db, id, operatorPrincipal(id), row.id, input, clock()).catch(optionError));
      print(output, view, () => fields(withMoney(view, currency, ['unit_price'])));
    },
  }),
  admin({
    name: 'admin expense-category list',
    usage: '--workspace ID [--active B]',
    summary: "list the workspace's expense categories",
    options: { workspace: str, active: str },
    parse: (values) => ({ id: workspaceOption(values), active: bool(values, 'active') }),
    async run({ db, output }, { id, active }) {
      const { currency } = await requireWorkspace(db, id);
      const { rows } = await listCategories(db, id, { isActive: active }, { page: 1, perPage: 1_000_000 });
      const categories = rows.map(presentCategory);
      print(output, categories, () => table(categories.map((c) => withMoney(c, currency, ['unit_price'])), COLUMNS));
    },
  }),
];

/**
 * The expense commands by name (`admin expense-category create`, ...), for the
 * command table of src/cli/main.ts: `...Object.values(expenseCommands)` next to
 * adminCommands and catalogCommands.
 */
export const expenseCommands: Record<string, AdminCommand<any>> = Object.fromEntries(commands.map((c) => [c.name, c]));
