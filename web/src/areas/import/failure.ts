import { HttpError } from '../../api/call.ts';
import { describeError } from '../../api/errors.ts';

/**
 * Why a preview or an import failed, as the page shows it: a file over the 10 MiB limit
 * (413, or caught before sending); a file the server refused (400 naming field `file`: its
 * message and the lines at fault, `problems`); anything else in the app's usual words
 * (describeError: a network failure, a session that ended, a format it does not know).
 */
export type ImportFailure =
  | { kind: 'too_large' }
  | { kind: 'file'; message: string; problems: { line: number | null; message: string }[] }
  | { kind: 'other'; message: string };

export function importFailure(error: unknown): ImportFailure {
  if (error instanceof HttpError && (error.status === 413 || error.code === 'payload_too_large')) return { kind: 'too_large' };
  const { message, field } = describeError(error);
  if (error instanceof HttpError && error.status === 400 && field === 'file') return { kind: 'file', message, problems: problemsOf(error.body?.problems) };
  return { kind: 'other', message };
}

/** The body's `problems`, each a line (1 is the header; none when the server could not tell) and why. */
function problemsOf(value: unknown): { line: number | null; message: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((p: unknown) => {
    if (!p || typeof p !== 'object') return [];
    const { line, message } = p as { line?: unknown; message?: unknown };
    if (typeof message !== 'string') return [];
    return [{ line: typeof line === 'number' && Number.isInteger(line) && line >= 1 ? line : null, message }];
  });
}
