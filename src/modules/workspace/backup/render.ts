import { sql } from 'kysely';
import type { Tx } from '../../../db/tenant.ts';

/**
 * Records are rendered as JSON text by PostgreSQL (`row_to_json`), so a page
 * body is assembled from text without converting each value in Node. The SQL
 * conversion of a column depends on its type, which is read from the database
 * once per column list and process (`pg_typeof` over a row of nulls) and
 * mapped here to exactly what the JSON of the previous, Node-side rendering
 * was: timestamps ISO 8601 UTC with milliseconds and `Z` (`to_char`, truncated
 * to the millisecond like a JavaScript Date; an infinite timestamp is null),
 * NUMERIC and int8 as JSON strings (`::text`), dates `YYYY-MM-DD`, text arrays
 * as arrays, integers and booleans as JSON numbers and booleans. jsonb values
 * are embedded by PostgreSQL (with its spacing) and flagged: the service
 * re-serializes those records in Node, so they come out as before (compact,
 * numbers as JavaScript reads them). A binary column throws (a 500), and so
 * does a type this list does not know: a migration adding one must decide
 * its JSON form here (the backup tests crawl every resource).
 */

export interface RenderedColumn {
  name: string;
  /** `format_type` of the column (e.g. `timestamp with time zone`). */
  type: string;
  /** The SQL expression over the derived table `s` giving the column's JSON value. */
  expression: string;
  /** jsonb/json: the record is re-serialized in Node when this value is not null. */
  json: boolean;
}

export interface Rendering {
  columns: RenderedColumn[];
  /** The lateral select list: `<expression> as "<name>", ...`. */
  select: string;
  /** A boolean SQL expression over `s`: some json value is not null (null when no column is json). */
  needsReserialize: string | null;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** Types whose `row_to_json` form is what the previous rendering gave, unchanged. */
const AS_IS = new Set([
  'uuid',
  'text',
  'character varying',
  'character',
  'boolean',
  'smallint',
  'integer',
  'date',
  'text[]',
  'character varying[]',
  'uuid[]',
]);

export function expressionFor(name: string, type: string, enumType: boolean): { expression: string; json: boolean } {
  const ref = `s.${quote(name)}`;
  if (type === 'timestamp with time zone') {
    // to_char gives '' for ±infinity, which the Node rendering gave as null.
    return { expression: `nullif(to_char(${ref} at time zone 'UTC', ${ISO_MS}), '')`, json: false };
  }
  if (type === 'numeric' || type === 'bigint') return { expression: `${ref}::text`, json: false };
  if (type === 'jsonb' || type === 'json') return { expression: ref, json: true };
  if (AS_IS.has(type) || enumType) return { expression: ref, json: false };
  if (type === 'bytea') throw new Error(`backup: binary column ${name} must not be exported`);
  throw new Error(`backup: column ${name} has type ${type}, which the backup's JSON rendering does not know (src/modules/workspace/backup/render.ts)`);
}

const cache = new Map<string, Promise<Rendering>>();

/**
 * The rendering of `select <columns> from <from>` (constants of resources.ts),
 * made once per process: its output column names and types come from the
 * database itself.
 */
export function renderingOf(trx: Tx, columns: string, from: string): Promise<Rendering> {
  const key = `${columns}\u0000${from}`;
  let rendering = cache.get(key);
  if (!rendering) {
    rendering = discover(trx, columns, from);
    cache.set(key, rendering);
    rendering.catch(() => cache.delete(key));
  }
  return rendering;
}

async function discover(trx: Tx, columns: string, from: string): Promise<Rendering> {
  // One row of nulls with the select's columns: its names, in order, then each one's type.
  // (The whole row of an outer join's null side is null, so the row is taken from a derived table over it.)
  const empty = `(select s.* from (select ${columns} from ${from} where false) s right join (select 1) one on true) v`;
  const { rows: names } = await sql<{ name: string }>`select json_object_keys(row_to_json(v)) as name from ${sql.raw(empty)}`.execute(trx);
  if (new Set(names.map((n) => n.name)).size !== names.length) throw new Error(`backup: duplicate column names in ${columns}`);
  const types = names.map(
    (n, i) =>
      `format_type(pg_typeof(v.${quote(n.name)}), null) as t${i}, (select typtype = 'e' from pg_type where oid = pg_typeof(v.${quote(n.name)})) as e${i}`,
  );
  const { rows } = await sql<Record<string, string | boolean>>`select ${sql.raw(types.join(', '))} from ${sql.raw(empty)}`.execute(trx);
  const rendered = names.map(({ name }, i) => {
    const type = String(rows[0][`t${i}`]);
    return { name, type, ...expressionFor(name, type, rows[0][`e${i}`] === true) };
  });
  const json = rendered.filter((c) => c.json);
  return {
    columns: rendered,
    select: rendered.map((c) => `${c.expression} as ${quote(c.name)}`).join(', '),
    needsReserialize: json.length ? `(${json.map((c) => `s.${quote(c.name)} is not null`).join(' or ')})` : null,
  };
}
