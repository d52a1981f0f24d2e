/**
 * What PostgreSQL cannot store in a text or jsonb column: the NUL character, and
 * an unpaired UTF-16 surrogate (not valid UTF-8). One rule at the edge: request
 * validation refuses both anywhere in a request part (every string value and
 * every object key, nested objects, arrays and metadata included), so no field
 * reaches the database with them (a 500) or is silently altered.
 */
// eslint-disable-next-line no-control-regex -- the NUL character is exactly what this rule looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface UnstorableString {
  /** JSON-pointer-like path of the value (`/metadata/key`), '' for the part itself. */
  path: string;
  /** Whether the object key at `path`, rather than its value, holds the character. */
  inKey: boolean;
}

const pointer = (path: string, key: string | number) => `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

/** The first string (value or key) in `value` that the database cannot store, or null. */
export function findUnstorableString(value: unknown, path = ''): UnstorableString | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? { path, inKey: false } : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableString(value[i], pointer(path, i));
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (UNSTORABLE.test(key)) return { path: pointer(path, key), inKey: true };
      const found = findUnstorableString(item, pointer(path, key));
      if (found) return found;
    }
  }
  return null;
}
