import { operatorPrincipal } from '../access/operator.ts';
import { ApiError } from '../errors.ts';
import {
  categoryName,
  createItemCategory,
  listItemCategories,
  presentItemCategory,
  resolveItemCategory,
  updateItemCategory,
} from '../modules/billing/item-categories/index.ts';
import type { AdminCommand } from './admin.ts';
import { str, type Values } from './command.ts';
import { requireWorkspace } from './lookups.ts';
import { bool, required, workspaceOption } from './options.ts';
import { fields, print, table, UsageError } from './output.ts';

/**
 * `sheaf admin item-category list|add|rename|archive|unarchive`: the operator's
 * commands for a workspace's invoice item categories (the names a line's kind may
 * take). They call the web app's service as the operator (src/access/operator.ts);
 * a name is checked by the service's own rule before the database is opened, so a
 * bad one exits 2 and changes nothing.
 */

const COLUMNS = ['id', 'name', 'is_builtin', 'is_active'];

/** The `--name` given, checked as the service checks it (a usage error, saying the option). */
function nameOption(values: Values): string {
  const value = required(values, 'name');
  try {
    return categoryName(value);
  } catch (err) {
    // The rule's message starts with the field's name: said with the option instead.
    if (err instanceof ApiError && err.statusCode === 400) throw new UsageError(`--${err.message}`);
    throw err;
  }
}

function categoryOption(values: Values): string {
  const ref = required(values, 'category');
  if (!ref.trim()) throw new UsageError('--category needs a category id or name.');
  return ref;
}

/** "Not found" said with the command that lists the choices. */
function notFoundHint(err: unknown): never {
  if (err instanceof ApiError && err.code === 'not_found') {
    throw new ApiError('not_found', 'No such invoice item category in this workspace (see "sheaf admin item-category list").', { field: 'category' });
  }
  throw err;
}

const admin = <T>(c: AdminCommand<T>) => c;

/** `archive` and `unarchive`: one category, one state. */
const activeCommand = (verb: 'archive' | 'unarchive', isActive: boolean, summary: string) =>
  admin({
    name: `admin item-category ${verb}`,
    usage: '--workspace ID --category ID|NAME',
    summary,
    options: { workspace: str, category: str },
    parse: (values) => ({ id: workspaceOption(values), category: categoryOption(values) }),
    async run({ db, output, clock }, { id, category }) {
      await requireWorkspace(db, id);
      const p = operatorPrincipal(id);
      const row = await resolveItemCategory(db, p, category).catch(notFoundHint);
      const view = presentItemCategory(await updateItemCategory(db, p, row.id, { is_active: isActive }, clock()));
      print(output, view, () => fields(view));
    },
  });

const commands = [
  admin({
    name: 'admin item-category list',
    usage: '--workspace ID [--active B]',
    summary: "list the workspace's invoice item categories",
    options: { workspace: str, active: str },
    parse: (values) => ({ id: workspaceOption(values), active: bool(values, 'active') }),
    async run({ db, output }, { id, active }) {
      await requireWorkspace(db, id);
      const categories = (await listItemCategories(db, operatorPrincipal(id), { isActive: active })).map(presentItemCategory);
      print(output, categories, () => table(categories, COLUMNS));
    },
  }),
  admin({
    name: 'admin item-category add',
    usage: '--workspace ID --name N',
    summary: 'add an invoice item category (a name not taken, ignoring case)',
    options: { workspace: str, name: str },
    parse: (values) => ({ id: workspaceOption(values), name: nameOption(values) }),
    async run({ db, output, clock }, { id, name }) {
      await requireWorkspace(db, id);
      const view = presentItemCategory(await createItemCategory(db, operatorPrincipal(id), { name }, clock()));
      print(output, view, () => fields(view));
    },
  }),
  admin({
    name: 'admin item-category rename',
    usage: '--workspace ID --category ID|NAME --name N',
    summary: 'rename an invoice item category (lines keep the kind they were given)',
    options: { workspace: str, category: str, name: str },
    parse: (values) => ({ id: workspaceOption(values), category: categoryOption(values), name: nameOption(values) }),
    async run({ db, output, clock }, { id, category, name }) {
      await requireWorkspace(db, id);
      const p = operatorPrincipal(id);
      const row = await resolveItemCategory(db, p, category).catch(notFoundHint);
      const view = presentItemCategory(await updateItemCategory(db, p, row.id, { name }, clock()));
      print(output, view, () => fields(view));
    },
  }),
  activeCommand('archive', false, 'archive an invoice item category (no longer offered; lines keep it)'),
  activeCommand('unarchive', true, 'restore an archived invoice item category'),
];

/** The item category commands by name, for the command table of src/cli/main.ts. */
export const itemCategoryCommands: Record<string, AdminCommand<any>> = Object.fromEntries(commands.map((c) => [c.name, c]));
