import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { describeError, formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Form } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { invoiceQuery, useSetLineTaxes, useUpdateInvoice, type Invoice, type LineTaxesBody, type UpdateBody } from './api.ts';
import { bodyOf, FIELD_NAMES, fieldsOf, InvoiceFields, type FieldValues } from './InvoiceFields.tsx';
import { KindPicker } from './KindPicker.tsx';
import { kindLabel, RETAINER_KIND } from './kinds.ts';
import { useInvoiceTexts } from './texts.ts';

type LineEdit = { id: string; kind: string; description: string; unit_price: number; taxed: boolean; taxed2: boolean };

/**
 * /invoices/:id/edit: a draft's fields and its lines' kind, description and unit price
 * (the PATCH of the spec: lines by id; quantities and lines themselves stay), and which of the
 * invoice's taxes each line bears (the web app's own route: the spec's PATCH takes no tax flags).
 * Only what changed is sent, the PATCH first, then the taxes; the totals shown afterwards are the server's.
 */
export function EditInvoicePage() {
  const { id } = useParams() as { id: string };
  const { data: invoice, error } = useQuery(invoiceQuery(id));
  const t = useInvoiceTexts();
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div>
        <Link href={`/invoices/${id}`} className="text-sm">
          {t('edit.backToInvoice')}
        </Link>
        <PageHeading className="mt-2">{invoice ? t('edit.titleNumbered', { number: invoice.number }) : t('edit.title')}</PageHeading>
      </div>
      {error && !invoice && <Alert>{describeError(error).message}</Alert>}
      {!invoice && !error && (
        <div role="status" className="text-stone-600">
          {t('loadingInvoice')}
        </div>
      )}
      {invoice && invoice.state !== 'draft' && (
        <Alert tone="info">
          {t(`edit.notDraft.${invoice.state}`)} <Link href={`/invoices/${id}`}>{t('edit.openInvoice')}</Link>
        </Alert>
      )}
      {invoice?.state === 'draft' && <EditForm key={invoice.id} invoice={invoice} />}
    </div>
  );
}

function EditForm({ invoice }: { invoice: Invoice }) {
  const navigate = useNavigate();
  const t = useInvoiceTexts();
  const format = useFormat();
  const update = useUpdateInvoice(invoice.id);
  const setTaxes = useSetLineTaxes(invoice.id);
  const [before] = useState(() => fieldsOf(invoice));
  const [fields, setFields] = useState<FieldValues>(before);
  // The kind as people read it ("Service", not the import's "SERVICE"); sent only when the person changes it.
  const original: LineEdit[] = invoice.line_items.map((l) => ({
    id: l.id,
    kind: kindLabel(l.kind),
    description: l.description ?? '',
    unit_price: l.unit_price,
    taxed: l.taxed,
    taxed2: l.taxed2,
  }));
  const [lines, setLines] = useState<LineEdit[]>(original);

  const lineEdits = lines.flatMap((l, i) => {
    const o = original[i]!;
    const edit: Record<string, unknown> = {};
    if (l.kind !== o.kind) edit.kind = l.kind;
    if (l.description !== o.description) edit.description = l.description.trim() ? l.description : null;
    if (l.unit_price !== o.unit_price && !Number.isNaN(l.unit_price)) edit.unit_price = l.unit_price;
    return Object.keys(edit).length ? [{ id: l.id, ...edit }] : [];
  });
  const body = { ...bodyOf(fields, before), ...(lineEdits.length ? { line_items: lineEdits } : {}) } as UpdateBody;
  // A line's tax is chosen only where the invoice has that tax (as the form now says); a retainer's line is never taxed.
  const hasTax = fields.tax > 0;
  const hasTax2 = fields.tax2 > 0;
  const taxable = (l: { kind: string }) => l.kind !== RETAINER_KIND;
  const taxEdits: LineTaxesBody['line_items'] = lines.flatMap((l, i) => {
    const o = original[i]!;
    const edit = {
      ...(hasTax && l.taxed !== o.taxed ? { taxed: l.taxed } : {}),
      ...(hasTax2 && l.taxed2 !== o.taxed2 ? { taxed2: l.taxed2 } : {}),
    };
    return taxable(l) && Object.keys(edit).length ? [{ id: l.id, ...edit }] : [];
  });
  const changed = Object.keys(body).length > 0 || taxEdits.length > 0;

  // Memoised on the error: React Aria drops a server error once the field is edited, unless it is handed a new object.
  // A line's error names its place among the lines sent (line_items.N.field): mapped back to the row shown.
  const { fieldErrors, summary } = useMemo(() => {
    const sent = (update.variables?.line_items ?? []) as Array<{ id: string }>;
    const lineFields = sent.flatMap((_, i) => ['kind', 'description', 'unit_price'].map((f) => `line_items.${i}.${f}`));
    const described = formErrors(update.error, [...FIELD_NAMES, ...lineFields]);
    if (!described.fieldErrors) return described;
    const mapped = Object.fromEntries(
      Object.entries(described.fieldErrors).map(([k, v]) => {
        const m = /^line_items\.(\d+)\.(.+)$/.exec(k);
        if (!m) return [k, v];
        const row = invoice.line_items.findIndex((l) => l.id === sent[Number(m[1])]?.id);
        return [`line_items.${row}.${m[2]}`, v];
      }),
    );
    return { fieldErrors: mapped, summary: undefined };
  }, [update.error, update.variables, invoice.line_items]);
  const errors = fieldErrors;

  const setLine = (i: number, patch: Partial<LineEdit>) => setLines(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));

  return (
    <Form
      validationErrors={errors}
      onSubmit={(e) => {
        e.preventDefault();
        if (!changed) return navigate(`/invoices/${invoice.id}`);
        // Not mutate's own onSuccess: the answer replaces the cached invoice, and a callback of a re-rendered form must still run.
        // The fields first, then the taxes: a refused field stops before the taxes; either error shows (update.error, setTaxes.error).
        setTaxes.reset();
        const save = async () => {
          if (Object.keys(body).length > 0) await update.mutateAsync(body);
          if (taxEdits.length > 0) await setTaxes.mutateAsync({ line_items: taxEdits });
        };
        save().then(
          () => navigate(`/invoices/${invoice.id}`),
          () => undefined,
        );
      }}
      className="flex flex-col gap-6"
    >
      {summary && <Alert>{summary}</Alert>}
      {setTaxes.error && <Alert>{describeError(setTaxes.error).message}</Alert>}
      <section aria-labelledby="edit-fields" className="flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
        <h2 id="edit-fields" className="text-lg font-semibold text-stone-900">
          {t('edit.invoice')}
        </h2>
        <p className="text-sm text-stone-700">{t('edit.clientAndCurrency', { client: invoice.client.name, currency: invoice.currency })}</p>
        <InvoiceFields value={fields} onChange={setFields} numberHint={t('edit.numberHint')} />
      </section>
      <section aria-labelledby="edit-lines" className="flex flex-col gap-3">
        <h2 id="edit-lines" className="text-lg font-semibold text-stone-900">
          {t('edit.lines')}
        </h2>
        <p className="text-sm text-stone-700">{t('edit.linesNote')}</p>
        <ol className="flex flex-col gap-3">
          {lines.map((l, i) => {
            const q = invoice.line_items[i]!;
            // A retainer's credit is set by the retainer (the server refuses another price or kind): shown, not offered.
            const fromRetainer = !taxable(l);
            return (
              <li key={l.id} aria-label={t('edit.line', { n: i + 1 })} className="grid gap-3 rounded-lg border border-stone-200 bg-white p-3 shadow-xs sm:grid-cols-[8rem_1fr_9rem]">
                <KindPicker label={t('edit.kind')} name={`line_items.${i}.kind`} value={l.kind} onChange={(kind) => setLine(i, { kind })} isDisabled={fromRetainer} />
                <TextArea label={t('edit.description')} name={`line_items.${i}.description`} rows={2} value={l.description} onChange={(description) => setLine(i, { description })} />
                <NumberField
                  label={t('edit.unitPrice')}
                  name={`line_items.${i}.unit_price`}
                  value={l.unit_price}
                  onChange={(unit_price) => setLine(i, { unit_price })}
                  minValue={0}
                  formatOptions={{ maximumFractionDigits: 4 }}
                  isReadOnly={fromRetainer}
                  description={
                    fromRetainer
                      ? t('edit.retainerPriceHint')
                      : t('edit.unitPriceHint', { quantity: format.quantity(q.quantity), amount: format.money(q.amount, invoice.currency) })
                  }
                />
                {taxable(l) && (hasTax || hasTax2) && (
                  <div role="group" aria-label={t('edit.taxes', { n: i + 1 })} className="flex flex-col gap-1 sm:col-span-3">
                    <div className="flex flex-wrap gap-x-6 gap-y-2">
                      {hasTax && (
                        <Checkbox name={`line_items.${i}.taxed`} isSelected={l.taxed} onChange={(taxed) => setLine(i, { taxed })}>
                          {t('edit.taxed', { percent: format.number(fields.tax, 4) })}
                        </Checkbox>
                      )}
                      {hasTax2 && (
                        <Checkbox name={`line_items.${i}.taxed2`} isSelected={l.taxed2} onChange={(taxed2) => setLine(i, { taxed2 })}>
                          {t('edit.taxed2', { percent: format.number(fields.tax2, 4) })}
                        </Checkbox>
                      )}
                    </div>
                    {hasTax && hasTax2 && l.taxed && l.taxed2 && <p className="text-xs text-stone-600">{t('edit.bothTaxes')}</p>}
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      </section>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" isPending={update.isPending || setTaxes.isPending}>
          {t('edit.save')}
        </Button>
        <Link href={`/invoices/${invoice.id}`} className="self-center">
          {t('edit.cancel')}
        </Link>
      </div>
    </Form>
  );
}
