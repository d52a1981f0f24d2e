import { useFormat } from '../../api/format.ts';
import type { TextKey } from '../../ui/i18n.ts';
import type { Said } from './failure.ts';
import { IMPORT_PROBLEMS, useImportTexts, type ImportTexts } from './texts.ts';

/** Values that are counts or line numbers, written in the person's number format. */
const NUMBERS = new Set(['max', 'count', 'line', 'fields', 'header', 'more']);

/**
 * What the server said of a file or a line, in the reader's language: the app's text for the
 * word (texts.ts, `problems`) with its values, or the server's English `message` for a word
 * this app does not know (a newer server's).
 */
export function useSaid(): (said: Said) => string {
  const t = useImportTexts();
  const format = useFormat();
  return (said) => {
    if (!said.problem || !IMPORT_PROBLEMS.has(said.problem)) return said.message;
    const values: Record<string, string | number> = { ...said.values };
    for (const [name, value] of Object.entries(values)) {
      if (typeof value === 'number' && NUMBERS.has(name)) values[name] = format.number(value, 0);
    }
    if (typeof values.bill_by === 'string' && ['project', 'tasks', 'people', 'none'].includes(values.bill_by)) {
      values.bill_by = t(`billBy.${values.bill_by}` as TextKey<ImportTexts>);
    }
    return t(`problems.${said.problem}` as TextKey<ImportTexts>, values);
  };
}
