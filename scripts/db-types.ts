/**
 * `npm run db:types`: writes src/db/types.ts, the Kysely types of the database, from
 * the migrations. It migrates a fresh in-memory PGlite database (src/db/migrate.ts)
 * and has kysely-codegen read it back, so the types say what the migrations made, not
 * what someone remembered. CI runs it and fails when the file it writes differs from
 * the committed one (.ci/run). See docs/decisions.md, "Generated database types".
 *
 * What the catalogue cannot say is written here:
 * - CLOSED_SETS names the text columns whose CHECK (col in (...)) holds a closed set
 *   of values; their union type is read from that constraint, so it cannot drift
 *   from the migrations. A closed set not named here is typed as an inline union.
 * - JSON_COLUMNS gives the shape of the json columns (the drivers parse json).
 * - The values are typed as src/db/type-parsers.ts returns them on both drivers:
 *   numeric and int8 as strings, date as a `YYYY-MM-DD` string, timestamptz as Date.
 * - A column's or table's comment (`comment on column` in a migration) becomes its
 *   doc comment.
 */
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import {
  LiteralNode,
  PostgresDialect,
  RawExpressionNode,
  TypeScriptSerializer,
  UnionExpressionNode,
  serializeFromMetadata,
  toKyselyPascalCase,
  type ColumnMetadata,
  type DatabaseMetadata,
  type DefinitionNode,
  type ExportStatementNode,
} from 'kysely-codegen';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { migrate } from '../src/db/migrate.ts';
import { PGliteDialect } from '../src/db/pglite-dialect.ts';

const OUT_FILE = fileURLToPath(new URL('../src/db/types.ts', import.meta.url));

/** Union types named after the closed sets of values their columns' CHECK constraints allow. */
const CLOSED_SETS: Record<string, string[]> = {
  ApprovalStatus: ['time_entries.approval_status', 'expenses.approval_status'],
  BillBy: ['projects.bill_by'],
  BudgetBy: ['projects.budget_by'],
  CredentialKind: ['credentials.kind'],
  DateFormat: ['users.date_format'],
  DurationFormat: ['users.duration_format'],
  ExpenseSource: ['expenses.source'],
  EstimateState: ['estimates.state'],
  InvoiceState: ['invoices.state'],
  Language: ['users.language', 'clients.language'],
  ManagerPermission: ['memberships.permissions', 'invitations.permissions'],
  OneTimeLinkPurpose: ['one_time_links.purpose'],
  PaymentTerms: ['clients.payment_terms', 'invoices.payment_term', 'invoice_settings.default_payment_term'],
  Role: ['memberships.role', 'invitations.role'],
  Rounding: ['companies.rounding'],
  Theme: ['users.theme'],
  TimeSource: ['time_entries.source'],
  UserType: ['users.user_type'],
  WeekStart: ['companies.week_start'],
};

/** Closed sets the code also needs as a value (a list to check against): `export const NAME = [...] as const`. */
const CLOSED_SET_CONSTANTS: Record<string, string> = { MANAGER_PERMISSIONS: 'ManagerPermission' };

/** Select, insert and update types of the json columns (written as JSON text, read parsed). */
const JSON_COLUMNS: Record<string, string> = {
  'audit_logs.details': 'ColumnType<Record<string, unknown>, string | undefined, never>',
  'expenses.metadata': 'JsonObjectColumn',
  'idempotency_keys.response_headers': 'ColumnType<Record<string, string> | null, string | null, string | null>',
  'invoice_messages.attachments': 'ColumnType<Array<{ id: string; file_name: string }>, string | undefined, string>',
  'invoice_messages.cc_recipients': 'ColumnType<Array<{ email: string; name?: string | null }>, string | undefined, string>',
  'invoice_messages.recipients': 'ColumnType<Array<{ email: string; name?: string | null }>, string, string>',
  'outbox.payload': 'ColumnType<Record<string, unknown>, string, string>',
  'recurring_invoice_schedules.line_items': 'ColumnType<Array<Record<string, unknown>>, string | undefined, string>',
  'recurring_invoice_schedules.project_ids': 'ColumnType<string[], string | undefined, string>',
  'recurring_invoice_schedules.recipients': 'ColumnType<Array<{ email: string; name?: string | null }>, string | undefined, string>',
  'time_entries.external_reference': 'JsonObjectColumn',
  'time_entries.metadata': 'JsonObjectColumn',
};

/** Columns the database computes (generated always): read only. */
const READ_ONLY_COLUMNS = ['credentials.serial', 'time_entries.external_reference_id', 'time_entries.external_reference_service'];

/** Columns that record when a row was made: set on insert (or by the default), never updated. */
const CREATION_TIMES = ['audit_logs.occurred_at', 'sign_in_failures.failed_at'];

/** Types the overrides above use, emitted with kysely-codegen's own (Generated, Numeric, Timestamp, ...). */
const EXTRA_DEFINITIONS: Record<string, string> = {
  CreatedAt: 'ColumnType<Date, Date | string | undefined, never>',
  JsonObjectColumn: 'ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>',
};

const HEADER = `/**
 * Generated by \`npm run db:types\` (scripts/db-types.ts) from the migrated database:
 * do not edit. After a migration, run \`npm run db:types\` and commit the result.
 * A column's doc comment is its \`comment on column\` in the migrations; closed sets of
 * values are read from the columns' CHECK constraints. numeric and int8 columns are
 * strings in and out (never binary floats), dates are \`YYYY-MM-DD\` strings
 * (src/db/type-parsers.ts).
 */

`;

const TRAILER = `
export type Company = Selectable<Companies>;
export type User = Selectable<Users>;
export type Membership = Selectable<Memberships>;
export type Credential = Selectable<Credentials>;
export type NewCompany = Insertable<Companies>;
export type CompanyUpdate = Updateable<Companies>;
`;

/** `CHECK ((col = ANY (ARRAY['a'::text, ...])))` or, for an array column, `CHECK ((col <@ ARRAY[...]))`. */
const CLOSED_SET_CHECK = /^CHECK \(\((\w+) (?:= ANY \(ARRAY\[(.*)\]\)|<@ ARRAY\[(.*)\])\)\)$/;

/**
 * kysely-codegen orders declarations and properties with localeCompare, which follows
 * the machine's locale (LANG): one collation for every machine, so the file is the same
 * bytes wherever it is generated.
 */
function pinCollation() {
  const collator = new Intl.Collator('en-US');
  String.prototype.localeCompare = function (this: string, that: string) {
    return collator.compare(this, that);
  };
}

async function main() {
  pinCollation();
  const db = new Kysely<any>({ dialect: new PGliteDialect(new PGlite()) });
  try {
    await migrate(db);
    const dialect = new PostgresDialect({ dateParser: 'string', numericParser: 'string' });
    // kysely-codegen's declarations see Kysely's CommonJS build, ours its ES module build: one class at run time.
    const introspected = db as unknown as Parameters<typeof dialect.introspector.introspect>[0]['db'];
    const metadata = await dialect.introspector.introspect({ db: introspected, excludePattern: 'public.schema_migrations' });
    const closedSets = await readClosedSets(db);
    const tableComments = await readTableComments(db);
    const { overrides, unions } = columnTypes(metadata, closedSets);
    const definitions: Record<string, DefinitionNode> = dialect.adapter.definitions;
    for (const [name, type] of Object.entries(EXTRA_DEFINITIONS)) definitions[name] = new RawExpressionNode(type);
    const constants = new Map(Object.entries(CLOSED_SET_CONSTANTS).map(([constant, type]) => [type, constant]));
    let trailer = TRAILER;
    for (const [name, values] of unions) {
      const constant = constants.get(name);
      if (constant) {
        definitions[name] = new RawExpressionNode(`(typeof ${constant})[number]`);
        trailer += `\nexport const ${constant} = [\n${values.map((v) => `  ${JSON.stringify(v)},\n`).join('')}] as const;\n`;
      } else {
        definitions[name] = new UnionExpressionNode(values.map((v) => new LiteralNode(v)));
      }
    }
    const body = serializeFromMetadata({
      dialect,
      metadata,
      overrides: { columns: overrides },
      serializer: new CommentingSerializer(tableComments),
    });
    const source = HEADER + body.replace(/^import type \{ ([^}]*) \} from "kysely";/m, (_, names: string) => importKysely(names)) + trailer;
    writeFileSync(OUT_FILE, source);
    console.log(`wrote ${OUT_FILE} (${metadata.tables.length} tables)`);
  } finally {
    await db.destroy();
  }
}

/** The kysely import, with the helpers the trailer's aliases use. */
function importKysely(names: string) {
  const all = new Set([...names.split(', '), 'Insertable', 'Selectable', 'Updateable']);
  return `import type { ${[...all].sort().join(', ')} } from "kysely";`;
}

/** The closed set of values each `table.column` with such a CHECK constraint allows, in the constraint's order. */
async function readClosedSets(db: Kysely<any>): Promise<Map<string, string[]>> {
  const { rows } = await sql<{ table: string; def: string }>`
    select conrelid::regclass::text as "table", pg_get_constraintdef(oid) as def
    from pg_constraint
    where contype = 'c' and connamespace = current_schema()::regnamespace
    order by conrelid::regclass::text, conname`.execute(db);
  const sets = new Map<string, string[]>();
  for (const { table, def } of rows) {
    const match = CLOSED_SET_CHECK.exec(def);
    if (!match) continue;
    const values = [...(match[2] ?? match[3]).matchAll(/'((?:[^']|'')*)'::text/g)].map((m) => m[1].replaceAll("''", "'"));
    const key = `${table}.${match[1]}`;
    if (sets.has(key)) throw new Error(`${key} has two closed-set CHECK constraints`);
    sets.set(key, values);
  }
  return sets;
}

async function readTableComments(db: Kysely<any>): Promise<Map<string, string>> {
  const { rows } = await sql<{ table: string; comment: string }>`
    select c.relname as "table", obj_description(c.oid, 'pg_class') as comment
    from pg_class c
    where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r'
      and obj_description(c.oid, 'pg_class') is not null`.execute(db);
  return new Map(rows.map((r) => [toKyselyPascalCase(r.table), r.comment]));
}

/** kysely-codegen's column overrides, and the named unions they use. */
function columnTypes(metadata: DatabaseMetadata, closedSets: Map<string, string[]>) {
  const columns = new Map<string, ColumnMetadata>();
  for (const table of metadata.tables) for (const column of table.columns) columns.set(`${table.name}.${column.name}`, column);
  const column = (key: string) => {
    const found = columns.get(key);
    if (!found) throw new Error(`scripts/db-types.ts names ${key}, which the migrated database does not have`);
    return found;
  };
  const overrides: Record<string, string> = {};
  const unions = new Map<string, string[]>();
  const named = new Set<string>();
  for (const [name, keys] of Object.entries(CLOSED_SETS)) {
    for (const key of keys) {
      const values = closedSets.get(key);
      if (!values) throw new Error(`${key} (${name}) has no CHECK (${key.split('.')[1]} in (...)) constraint`);
      const other = unions.get(name);
      if (other && other.join() !== values.join()) throw new Error(`${name}: ${key} allows ${values.join(', ')}, ${keys[0]} ${other.join(', ')}`);
      unions.set(name, values);
      overrides[key] = shape(name, column(key));
      named.add(key);
    }
  }
  for (const [key, values] of closedSets) {
    if (!named.has(key)) overrides[key] = shape(values.map((v) => JSON.stringify(v)).join(' | '), column(key));
  }
  for (const [key, type] of Object.entries(JSON_COLUMNS)) {
    column(key);
    overrides[key] = type;
  }
  for (const key of READ_ONLY_COLUMNS) {
    const c = column(key);
    const type = c.dataType === 'int8' || c.dataType === 'numeric' || c.dataType === 'text' ? 'string' : undefined;
    if (!type) throw new Error(`${key}: a read-only ${c.dataType} column needs its type in scripts/db-types.ts`);
    overrides[key] = `ColumnType<${type}${c.isNullable ? ' | null' : ''}, never, never>`;
  }
  const creationTimes = [...columns.keys()].filter((key) => key.endsWith('.created_at')).concat(CREATION_TIMES);
  for (const key of creationTimes) {
    const c = column(key);
    if (c.dataType !== 'timestamptz' || c.isNullable) throw new Error(`${key}: a creation time must be timestamptz not null`);
    overrides[key] = 'CreatedAt';
  }
  return { overrides, unions };
}

/** A column of a closed-set type, with its array, null and default as the catalogue says. */
function shape(type: string, column: ColumnMetadata) {
  let result = column.isArray ? `${type.includes(' | ') ? `(${type})` : type}[]` : type;
  if (column.isNullable) result += ' | null';
  return column.hasDefaultValue ? `Generated<${result}>` : result;
}

/** kysely-codegen's serializer, which also writes a table's comment above its interface. */
class CommentingSerializer extends TypeScriptSerializer {
  constructor(private readonly tableComments: Map<string, string>) {
    super({ skipAutogeneratedFileComment: true });
  }

  override serializeExportStatement(node: ExportStatementNode) {
    const statement = super.serializeExportStatement(node);
    const comment = node.argument.type === 'InterfaceDeclaration' ? this.tableComments.get(node.argument.id.name) : undefined;
    return comment ? `/** ${comment} */\n${statement}` : statement;
  }
}

await main();
