import { useFormat } from '../../api/format.ts';
import { createFormat, type Format } from '../../ui/format.ts';
import type { TextKey, Translate } from '../../ui/i18n.ts';
import type { Said } from './failure.ts';
import { BILL_BY_TEXTS, IMPORT_PROBLEMS, useImportTexts, type ImportTexts } from './texts.ts';

/** Values that are counts or line numbers, written in the person's number format. */
const COUNTS = new Set(['max', 'count', 'line', 'fields', 'header', 'more']);
/** Values that are decimals the server writes as text (rates, hours), written with two decimals in the person's format. */
const DECIMALS = new Set(['rate', 'current', 'hours']);

/**
 * What the server said of a file or a line, in the reader's language: the app's text for the
 * word (texts.ts, `problems`) with its values, or the server's English `message` for a word
 * this app does not know (a newer server's).
 */
export function useSaid(): (said: Said) => string {
  return saying(useImportTexts(), useFormat());
}

/** useSaid with its translator and formatter given. */
export function saying(t: Translate<ImportTexts>, format: Format): (said: Said) => string {
  return (said) => {
    if (!said.problem || !IMPORT_PROBLEMS.has(said.problem)) return said.message;
    const values: Record<string, string | number> = { ...said.values };
    for (const [name, value] of Object.entries(values)) {
      if (typeof value === 'number' && COUNTS.has(name)) values[name] = format.number(value, 0);
      else if (typeof value === 'string' && DECIMALS.has(name) && /^-?\d+(\.\d+)?$/.test(value)) values[name] = format.number(Number(value), 2, 2);
      else if (typeof value === 'string' && name === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(value)) values[name] = format.day(value);
      // How the file's date was read: with the month's name, whatever the reader's own pattern, since 03/04/2026 is the question.
      else if (typeof value === 'string' && name === 'read_as' && /^\d{4}-\d{2}-\d{2}$/.test(value)) values[name] = createFormat({ ...format.settings, dateFormat: undefined }).day(value);
    }
    if (typeof values.bill_by === 'string' && BILL_BY_TEXTS.has(values.bill_by)) {
      values.bill_by = t(`billBy.${values.bill_by}` as TextKey<ImportTexts>);
    }
    return t(`problems.${said.problem}` as TextKey<ImportTexts>, values);
  };
}
