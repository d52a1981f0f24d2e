import { describeError } from '../../api/errors.ts';
import type { Translate } from '../../ui/i18n.ts';
import type { RecurringTexts } from './texts.ts';

/**
 * A refused save of a schedule, for its form: the server names the field at fault
 * (`end_date`, `line_items.0.quantity`, `recipients.1.email`) in an English sentence
 * with that path; the form says it in the person's language under the field (every
 * recipient under "Send to"), or above the form for a field it does not show. A
 * field this does not know keeps the server's message.
 */
export function scheduleErrors(error: unknown, fields: readonly string[], t: Translate<RecurringTexts>): { fieldErrors?: Record<string, string>; summary?: string } {
  if (!error) return {};
  const { message, field } = describeError(error);
  if (!field) return { summary: message };
  const words = fieldMessage(field, message, t);
  const target = field === 'recipients' || field.startsWith('recipients.') ? 'recipients' : field;
  return fields.includes(target) ? { fieldErrors: { [target]: words } } : { summary: words };
}

function fieldMessage(field: string, message: string, t: Translate<RecurringTexts>): string {
  const line = /^line_items\.(\d+)\.(\w+)$/.exec(field);
  if (line) {
    const n = Number(line[1]) + 1;
    if (line[2] === 'kind') return t('errors.kind', { n });
    if (line[2] === 'description') return t('errors.description', { n });
    if (line[2] === 'quantity' || line[2] === 'unit_price') return t('errors.number', { n });
    return message;
  }
  const recipient = /^recipients\.(\d+)\.(email|name)$/.exec(field);
  if (recipient) return t(recipient[2] === 'email' ? 'errors.recipientEmail' : 'errors.recipientName', { n: Number(recipient[1]) + 1 });
  if (/^project_ids\.\d+$/.test(field)) return t('errors.project');
  switch (field) {
    case 'recipients':
      return t('errors.recipients');
    case 'client_id':
      return /archived/i.test(message) ? t('errors.clientArchived') : t('errors.client');
    case 'anchor_day':
      return t('errors.anchorDay');
    case 'start_date':
      return t('errors.date');
    case 'end_date':
      return /on or after/.test(message) ? t('errors.endBeforeStart') : t('errors.date');
    case 'line_items':
      return t('errors.noLines');
    case 'time_summary':
    case 'expense_summary':
      return t('errors.nothingChosen');
    case 'subject':
    case 'notes':
      return t('errors.tooLong');
    case 'tax':
    case 'tax2':
    case 'discount':
      return t('errors.percent');
    default:
      return message;
  }
}
