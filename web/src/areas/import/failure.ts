import { HttpError } from '../../api/call.ts';
import { describeError } from '../../api/errors.ts';

/**
 * What the server says of a file or of one of its lines: the English `message`, and where the
 * server names it, the word (`problem`) and the values it names, which the page words in the
 * reader's language (useSaid in said.ts; the words: src/modules/integrations/import/problems.ts).
 */
export interface Said {
  message: string;
  problem?: string;
  values?: Record<string, string | number>;
}

/** A line of the file (1 is the header; null when the server could not tell) and what is said of it. */
export type LineSaid = Said & { line: number | null };

/**
 * Why a preview or an import failed, as the page shows it: a file over the 10 MiB limit
 * (413, or caught before sending); a file the server refused (400 naming field `file`: what
 * is wrong with it and the lines at fault, `problems`); anything else in the app's usual words
 * (describeError: a network failure, a session that ended, a format it does not know).
 */
export type ImportFailure = { kind: 'too_large' } | { kind: 'file'; said: Said; problems: LineSaid[] } | { kind: 'other'; message: string };

export function importFailure(error: unknown): ImportFailure {
  if (error instanceof HttpError && (error.status === 413 || error.code === 'payload_too_large')) return { kind: 'too_large' };
  const { message, field } = describeError(error);
  if (error instanceof HttpError && error.status === 400 && field === 'file') {
    return { kind: 'file', said: { message, ...wordOf(error.body) }, problems: problemsOf(error.body?.problems) };
  }
  return { kind: 'other', message };
}

/** The body's `problems`, each a line and what is wrong with it. */
function problemsOf(value: unknown): LineSaid[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((p: unknown) => {
    if (!p || typeof p !== 'object') return [];
    const { line, message } = p as { line?: unknown; message?: unknown };
    if (typeof message !== 'string') return [];
    return [{ line: typeof line === 'number' && Number.isInteger(line) && line >= 1 ? line : null, message, ...wordOf(p) }];
  });
}

/** The word and its values of a body or a problem, when they have the shape the server gives them. */
export function wordOf(value: unknown): Pick<Said, 'problem' | 'values'> {
  if (!value || typeof value !== 'object') return {};
  const { problem, values } = value as { problem?: unknown; values?: unknown };
  if (typeof problem !== 'string') return {};
  const named =
    values && typeof values === 'object' && !Array.isArray(values)
      ? Object.fromEntries(Object.entries(values).filter((e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number'))
      : {};
  return { problem, values: named };
}
