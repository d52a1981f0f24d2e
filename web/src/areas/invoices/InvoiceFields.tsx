import type { Dispatch, SetStateAction } from 'react';
import { parseDate, type CalendarDate } from '@internationalized/date';
import { pickerDate } from '../../ui/dates.ts';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import type { Invoice } from './api.ts';
import { useInvoiceTexts } from './texts.ts';

/**
 * The invoice-level fields the create and the PATCH share (number, subject, dates,
 * purchase order, taxes, discount, notes, the invoiced and the service period). Empty means "not sent": on a create the
 * server fills its defaults (the next number, today, the client's terms and taxes).
 * Each field's `name` is the API property, so the server's `field` lands under it.
 */
export interface FieldValues {
  number: string;
  subject: string;
  issue_date: CalendarDate | null;
  due_date: CalendarDate | null;
  purchase_order: string;
  tax: number;
  tax2: number;
  discount: number;
  notes: string;
  period_start: CalendarDate | null;
  period_end: CalendarDate | null;
  service_period_start: CalendarDate | null;
  service_period_end: CalendarDate | null;
}

const PERIODS = ['period_start', 'period_end', 'service_period_start', 'service_period_end'] as const;

export const FIELD_NAMES = ['number', 'subject', 'issue_date', 'due_date', 'purchase_order', 'tax', 'tax2', 'discount', 'notes', ...PERIODS] as const;

export const emptyFields = (): FieldValues => ({
  number: '',
  subject: '',
  issue_date: null,
  due_date: null,
  purchase_order: '',
  tax: NaN,
  tax2: NaN,
  discount: NaN,
  notes: '',
  period_start: null,
  period_end: null,
  service_period_start: null,
  service_period_end: null,
});


export const fieldsOf = (i: Invoice): FieldValues => ({
  number: i.number,
  subject: i.subject ?? '',
  issue_date: parseDate(i.issue_date),
  due_date: parseDate(i.due_date),
  purchase_order: i.purchase_order ?? '',
  tax: i.tax,
  tax2: i.tax2,
  discount: i.discount,
  notes: i.notes ?? '',
  period_start: pickerDate(i.period_start),
  period_end: pickerDate(i.period_end),
  service_period_start: pickerDate(i.service_period_start),
  service_period_end: pickerDate(i.service_period_end),
});

/** The fields as a request body: only those given (a create) or, with `before`, only those changed (a PATCH). */
export function bodyOf(v: FieldValues, before?: FieldValues) {
  const out: Record<string, string | number | null> = {};
  const text = (s: string) => (s.trim() ? s : null);
  const set = (key: (typeof FIELD_NAMES)[number], value: string | number | null, old: string | number | null | undefined) => {
    if (before ? value !== old : value !== null) out[key] = value;
  };
  const num = (n: number) => (Number.isNaN(n) ? null : n);
  if (v.number.trim() || before) set('number', v.number.trim(), before?.number);
  set('subject', text(v.subject), before && text(before.subject));
  set('issue_date', v.issue_date?.toString() ?? null, before?.issue_date?.toString() ?? null);
  set('due_date', v.due_date?.toString() ?? null, before?.due_date?.toString() ?? null);
  set('purchase_order', text(v.purchase_order), before && text(before.purchase_order));
  for (const key of ['tax', 'tax2', 'discount'] as const) {
    const value = num(v[key]);
    // A cleared percentage on an existing invoice is 0 (the API has no "none").
    set(key, before ? (value ?? 0) : value, before ? num(before[key]) : undefined);
  }
  set('notes', text(v.notes), before && text(before.notes));
  // Periods are optional on both: a cleared one is sent as null on a PATCH (the API clears it).
  for (const key of PERIODS) set(key, v[key]?.toString() ?? null, before ? (before[key]?.toString() ?? null) : undefined);
  if (before && out.issue_date === null) delete out.issue_date;
  if (before && out.due_date === null) delete out.due_date;
  return out;
}

export function InvoiceFields({ value, onChange, numberHint }: { value: FieldValues; onChange: Dispatch<SetStateAction<FieldValues>>; numberHint: string }) {
  const t = useInvoiceTexts();
  // Applied to the latest values, as ProjectForm's `set`: a number field commits on blur, in the same gesture as the next field's change.
  const set = <K extends keyof FieldValues>(key: K) => (next: FieldValues[K]) => onChange((latest) => ({ ...latest, [key]: next }));
  const percent = { minValue: 0, maxValue: 100, formatOptions: { maximumFractionDigits: 4 } };
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField label={t('fields.number')} name="number" value={value.number} onChange={set('number')} description={numberHint} />
      <TextField label={t('fields.subject')} name="subject" value={value.subject} onChange={set('subject')} />
      <DatePicker label={t('fields.issueDate')} name="issue_date" value={value.issue_date} onChange={set('issue_date')} />
      <DatePicker label={t('fields.dueDate')} name="due_date" value={value.due_date} onChange={set('due_date')} />
      <TextField label={t('fields.purchaseOrder')} name="purchase_order" value={value.purchase_order} onChange={set('purchase_order')} />
      <NumberField label={t('fields.discount')} name="discount" value={value.discount} onChange={set('discount')} {...percent} />
      <NumberField label={t('fields.tax')} name="tax" value={value.tax} onChange={set('tax')} {...percent} />
      <NumberField label={t('fields.tax2')} name="tax2" value={value.tax2} onChange={set('tax2')} {...percent} />
      <TextArea label={t('fields.notes')} name="notes" value={value.notes} onChange={set('notes')} className="sm:col-span-2" />
      <DatePicker label={t('fields.periodFrom')} name="period_start" value={value.period_start} onChange={set('period_start')} />
      <DatePicker label={t('fields.periodTo')} name="period_end" value={value.period_end} onChange={set('period_end')} />
      <DatePicker label={t('fields.servicePeriodFrom')} name="service_period_start" value={value.service_period_start} onChange={set('service_period_start')} />
      <DatePicker label={t('fields.servicePeriodTo')} name="service_period_end" value={value.service_period_end} onChange={set('service_period_end')} />
    </div>
  );
}
