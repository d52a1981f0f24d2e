import type { CalendarDate } from '@internationalized/date';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ComboBox } from '../../ui/ComboBox.tsx';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { Form } from '../../ui/Form.tsx';
import { blankLine, LineItemsEditor, lineFieldNames, lineItemsOf, type EditedLine } from '../../ui/LineItemsEditor.tsx';
import { Link } from '../../ui/Link.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { pickerDate } from '../../ui/dates.ts';
import { DEFAULT_KIND, kindLabel } from '../../ui/kinds.ts';
import { estimateQuery, useCreateEstimate, useUpdateEstimate, type CreateBody, type Estimate, type UpdateBody } from './api.ts';
import { KindPicker } from './KindPicker.tsx';
import { useEstimateTexts } from './texts.ts';
import { activeClientsQuery } from '../../api/clients.ts';

/**
 * /estimates/new and /estimates/:id/edit: the client (new only), number, subject, date,
 * discount, taxes, currency (new only), notes and the lines (ui/LineItemsEditor.tsx, as
 * the new invoice form). A save sends all the lines (they replace the estimate's); the
 * totals shown afterwards are the server's. Each field's `name` is the API property.
 */

interface Values {
  clientId: string | null;
  number: string;
  subject: string;
  issueDate: CalendarDate | null;
  validUntil: CalendarDate | null;
  discount: number;
  tax: number;
  tax2: number;
  currency: string;
  notes: string;
  lines: EditedLine[];
}

const FIELDS = ['client_id', 'number', 'subject', 'issue_date', 'valid_until', 'discount', 'tax', 'tax2', 'currency', 'notes', 'line_items'];

const valuesOf = (e: Estimate): Values => ({
  clientId: e.client.id,
  number: e.number,
  subject: e.subject ?? '',
  issueDate: pickerDate(e.issue_date),
  validUntil: pickerDate(e.valid_until),
  discount: e.discount,
  tax: e.tax,
  tax2: e.tax2,
  currency: e.currency,
  notes: e.notes ?? '',
  lines: e.line_items.map((l) => ({ key: l.id, kind: kindLabel(l.kind), description: l.description ?? '', quantity: l.quantity, unit_price: l.unit_price, taxed: l.taxed })),
});

/** The form as a request body: empty optional fields are left to the server's defaults (a create) or cleared (a change). */
function bodyOf(v: Values, editing: boolean) {
  const num = (n: number) => (Number.isNaN(n) ? undefined : n);
  const b: Record<string, unknown> = {
    ...(v.number.trim() ? { number: v.number.trim() } : {}),
    subject: v.subject.trim() ? v.subject : null,
    ...(v.issueDate ? { issue_date: v.issueDate.toString() } : {}),
    ...(v.validUntil ? { valid_until: v.validUntil.toString() } : editing ? { valid_until: null } : {}),
    notes: v.notes.trim() ? v.notes : null,
    line_items: lineItemsOf(v.lines),
  };
  for (const key of ['discount', 'tax', 'tax2'] as const) {
    const value = num(v[key]) ?? (editing ? 0 : undefined);
    if (value !== undefined) b[key] = value;
  }
  if (!editing) {
    b.client_id = v.clientId ?? '';
    if (v.currency.trim()) b.currency = v.currency.trim().toUpperCase();
  }
  return b;
}

export function NewEstimatePage() {
  const t = useEstimateTexts();
  const clients = useQuery(activeClientsQuery);
  return (
    <Frame back="/estimates" backText={t('backToEstimates')} title={t('newEstimate')}>
      {clients.error && <Alert>{describeError(clients.error).message}</Alert>}
      {!clients.data && !clients.error && (
        <div role="status" className="text-stone-600">
          {t('loadingClients')}
        </div>
      )}
      {clients.data && (
        <EstimateForm
          clients={clients.data.clients}
          initial={{ clientId: null, number: '', subject: '', issueDate: null, validUntil: null, discount: NaN, tax: NaN, tax2: NaN, currency: '', notes: '', lines: [blankLine(DEFAULT_KIND)] }}
        />
      )}
    </Frame>
  );
}

export function EditEstimatePage() {
  const { id } = useParams() as { id: string };
  const t = useEstimateTexts();
  const { data: estimate, error } = useQuery(estimateQuery(id));
  const editable = estimate && (estimate.state === 'draft' || estimate.state === 'sent');
  return (
    <Frame back={`/estimates/${id}`} backText={t('backToEstimate')} title={estimate ? t('editEstimate', { number: estimate.number }) : t('estimate')}>
      {error && !estimate && <Alert>{describeError(error).message}</Alert>}
      {!estimate && !error && (
        <div role="status" className="text-stone-600">
          {t('loadingOne')}
        </div>
      )}
      {estimate && !editable && <Alert tone="info">{t('form.final', { state: t(`states.${estimate.state}`) })}</Alert>}
      {estimate && editable && <EstimateForm key={estimate.id} estimate={estimate} initial={valuesOf(estimate)} />}
    </Frame>
  );
}

function Frame({ back, backText, title, children }: { back: string; backText: string; title: string; children: React.ReactNode }) {
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div>
        <Link href={back} className="text-sm">
          {backText}
        </Link>
        <PageHeading className="mt-2">{title}</PageHeading>
      </div>
      {children}
    </div>
  );
}

function EstimateForm({ initial, estimate, clients }: { initial: Values; estimate?: Estimate; clients?: Array<{ id: string; name: string; currency: string | null }> }) {
  const t = useEstimateTexts();
  const navigate = useNavigate();
  const create = useCreateEstimate();
  const update = useUpdateEstimate(estimate?.id ?? '');
  const keyFor = useIdempotencyKey();
  const [v, setV] = useState<Values>(initial);
  const set = <K extends keyof Values>(key: K) => (value: Values[K]) => setV((old) => ({ ...old, [key]: value }));
  const failure = estimate ? update.error : create.error;
  const lineCount = v.lines.length;
  // Memoised on the error: React Aria drops a server error once the field is edited, unless it is handed a new object.
  const { fieldErrors, summary } = useMemo(() => formErrors(failure, [...FIELDS, ...lineFieldNames(lineCount)]), [failure, lineCount]);
  const percent = { minValue: 0, maxValue: 100, formatOptions: { maximumFractionDigits: 4 } };
  const pending = create.isPending || update.isPending;

  const submit = () => {
    const body = bodyOf(v, !!estimate);
    const open = (saved: Estimate) => navigate(`/estimates/${saved.id}`);
    if (estimate) update.mutate(body as UpdateBody, { onSuccess: open });
    else create.mutate({ body: body as CreateBody, key: keyFor(body) }, { onSuccess: open });
  };

  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      className="flex flex-col gap-6"
    >
      {summary && <Alert>{summary}</Alert>}
      <section aria-labelledby="estimate-fields" className="flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
        <h2 id="estimate-fields" className="text-lg font-semibold text-stone-900">
          {t('form.details')}
        </h2>
        {clients && (
          <ComboBox
            label={t('form.client')}
            name="client_id"
            isRequired
            options={clients.map((c) => ({ id: c.id, label: c.name }))}
            selectedKey={v.clientId}
            onSelectionChange={(key) => set('clientId')(key === null ? null : String(key))}
          />
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t('form.number')} name="number" value={v.number} onChange={set('number')} description={estimate ? undefined : t('form.numberHint')} />
          <TextField label={t('form.subject')} name="subject" value={v.subject} onChange={set('subject')} />
          <DatePicker label={t('form.issueDate')} name="issue_date" value={v.issueDate} onChange={set('issueDate')} />
          <DatePicker label={t('form.validUntil')} name="valid_until" value={v.validUntil} onChange={set('validUntil')} />
          {clients && <TextField label={t('form.currency')} name="currency" value={v.currency} onChange={set('currency')} description={t('form.currencyHint')} />}
          <NumberField label={t('form.discount')} name="discount" value={v.discount} onChange={set('discount')} description={estimate ? undefined : t('form.percentHint')} {...percent} />
          <NumberField label={t('form.tax')} name="tax" value={v.tax} onChange={set('tax')} description={estimate ? undefined : t('form.percentHint')} {...percent} />
          <NumberField label={t('form.tax2')} name="tax2" value={v.tax2} onChange={set('tax2')} description={estimate ? undefined : t('form.percentHint')} {...percent} />
          <TextArea label={t('form.notes')} name="notes" value={v.notes} onChange={set('notes')} className="sm:col-span-2" />
        </div>
      </section>
      <section aria-labelledby="estimate-lines" className="flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
        <h2 id="estimate-lines" className="text-lg font-semibold text-stone-900">
          {t('form.lines')}
        </h2>
        <LineItemsEditor
          lines={v.lines}
          onChange={set('lines')}
          newKind={DEFAULT_KIND}
          KindField={KindPicker}
          labels={{
            line: (n) => t('form.line', { n }),
            kind: t('form.kind'),
            description: t('form.description'),
            quantity: t('form.quantity'),
            unitPrice: t('form.unitPrice'),
            taxed: t('form.taxed'),
            removeLine: (n) => t('form.removeLine', { n }),
            addLine: t('form.addLine'),
          }}
        />
      </section>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" isPending={pending} isDisabled={!estimate && !v.clientId}>
          {estimate ? t('form.save') : t('form.create')}
        </Button>
        {!estimate && !v.clientId && <p className="text-sm text-stone-700">{t('form.chooseClientFirst')}</p>}
        {estimate && <Link href={`/estimates/${estimate.id}`}>{t('form.cancel')}</Link>}
      </div>
    </Form>
  );
}
