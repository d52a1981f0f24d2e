import type { CalendarDate } from '@internationalized/date';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError, formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { ComboBox } from '../../ui/ComboBox.tsx';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { Form } from '../../ui/Form.tsx';
import { Link } from '../../ui/Link.tsx';
import { blankLine, LineItemsEditor, lineFieldNames, lineItemsOf, type EditedLine } from '../../ui/LineItemsEditor.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { pickerDateOrNull } from '../../ui/dates.ts';
import { useCreateInvoice, usePreviewInvoice, type CreateBody, type Invoice } from './api.ts';
import { bodyOf, emptyFields, FIELD_NAMES, InvoiceFields, type FieldValues } from './InvoiceFields.tsx';
import { InvoiceLines } from './InvoiceLines.tsx';
import { KindPicker } from './KindPicker.tsx';
import { DEFAULT_KIND } from './kinds.ts';
import { useInvoiceTexts } from './texts.ts';
import { unpricedTime, type UnpricedTime } from './unpriced.ts';
import { projectLabel } from '../../ui/labels.ts';
import { activeClientsQuery, clientProjectsQuery } from '../../api/clients.ts';

// The API's summary types and payment terms; their names are in texts.ts (`create.*`).
const TIME_SUMMARIES = ['none', 'project', 'task', 'people', 'detailed'] as const;
const EXPENSE_SUMMARIES = ['none', 'project', 'category', 'people', 'detailed'] as const;
const TERMS = ['default', 'upon_receipt', 'net_15', 'net_30', 'net_45', 'net_60', 'custom'] as const;

/**
 * /invoices/new: a draft from tracked work (client, projects, period and summary types;
 * prefilled from the URL, as the reports link here) or from lines typed in. The server
 * previews it first (its own create, rolled back: the browser computes nothing), then
 * creates it with an Idempotency-Key and the invoice opens.
 */
export function NewInvoicePage() {
  const t = useInvoiceTexts();
  const clients = useQuery(activeClientsQuery);
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div>
        <Link href="/invoices" className="text-sm">
          {t('backToInvoices')}
        </Link>
        <PageHeading className="mt-2">{t('newInvoice')}</PageHeading>
      </div>
      {clients.error && <Alert>{describeError(clients.error).message}</Alert>}
      {!clients.data && !clients.error && (
        <div role="status" className="text-stone-600">
          {t('loadingClients')}
        </div>
      )}
      {clients.data && <NewInvoiceForm clients={clients.data.clients} />}
    </div>
  );
}

function NewInvoiceForm({ clients }: { clients: Array<{ id: string; name: string; currency: string | null }> }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const t = useInvoiceTexts();
  const preview = usePreviewInvoice();
  const create = useCreateInvoice();
  const keyFor = useIdempotencyKey();

  const [clientId, setClientId] = useState<string | null>(() => {
    const id = params.get('client_id');
    return id && clients.some((c) => c.id === id) ? id : null;
  });
  const [source, setSource] = useState<'import' | 'lines'>('import');
  const fromUrl = params.get('project_ids')?.split(',').filter(Boolean) ?? [];
  const [projectIds, setProjectIds] = useState<string[] | null>(fromUrl.length ? fromUrl : null);
  const [from, setFrom] = useState<CalendarDate | null>(pickerDateOrNull(params.get('from')));
  const [to, setTo] = useState<CalendarDate | null>(pickerDateOrNull(params.get('to')));
  const [timeSummary, setTimeSummary] = useState<string>('task');
  const [expenseSummary, setExpenseSummary] = useState<string>('category');
  const [lines, setLines] = useState<EditedLine[]>(() => [blankLine(DEFAULT_KIND)]);
  const [fields, setFields] = useState<FieldValues>(emptyFields);
  const [term, setTerm] = useState<string>('default');
  const [currency, setCurrency] = useState('');

  const body = (): CreateBody => {
    const range = { ...(from ? { from: from.toString() } : {}), ...(to ? { to: to.toString() } : {}) };
    const b: Record<string, unknown> = { client_id: clientId ?? '', ...bodyOf(fields) };
    if (term !== 'default') b.payment_term = term;
    if (currency.trim()) b.currency = currency.trim().toUpperCase();
    if (source === 'import') {
      b.line_items_import = {
        ...(projectIds ? { project_ids: projectIds } : {}),
        ...(timeSummary !== 'none' ? { time: { summary_type: timeSummary, ...range } } : {}),
        ...(expenseSummary !== 'none' ? { expenses: { summary_type: expenseSummary, ...range } } : {}),
      };
    } else {
      b.line_items = lineItemsOf(lines);
    }
    return b as CreateBody;
  };
  const current = JSON.stringify(body());
  const clientCurrency = clients.find((c) => c.id === clientId)?.currency;
  // The preview shown is of exactly this form: any change asks for a new one before creating.
  const previewed = preview.data && preview.variables && JSON.stringify(preview.variables) === current ? preview.data : null;

  const failure = create.error ?? preview.error;
  // Memoised on the failure: React Aria drops a server error once the field is edited, unless it is handed a new object.
  const lineCount = lines.length;
  const { errors, summary } = useMemo(() => {
    const lineFields = lineFieldNames(lineCount);
    const importFields = ['line_items_import.time.from', 'line_items_import.time.to', 'line_items_import.expenses.from', 'line_items_import.expenses.to'];
    const { fieldErrors, summary } = formErrors(failure, ['client_id', 'payment_term', 'currency', ...FIELD_NAMES, ...lineFields, ...importFields]);
    // The period's two pickers stand for both parts of the import.
    const errors = fieldErrors && {
      ...fieldErrors,
      ...Object.fromEntries(Object.entries(fieldErrors).flatMap(([k, v]) => (k.startsWith('line_items_import.') ? [[`period_${k.endsWith('.to') ? 'to' : 'from'}`, v]] : []))),
    };
    return { errors, summary };
  }, [failure, lineCount]);

  return (
    <Form
      validationErrors={errors}
      onSubmit={(e) => {
        e.preventDefault();
        if (!clientId) return;
        create.reset();
        preview.mutate(body());
      }}
      className="flex flex-col gap-6"
    >
      {summary && <Alert>{summary}</Alert>}
      <section aria-labelledby="new-what" className="flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
        <h2 id="new-what" className="text-lg font-semibold text-stone-900">
          {t('create.whatToInvoice')}
        </h2>
        <ComboBox
          label={t('create.client')}
          name="client_id"
          isRequired
          options={clients.map((c) => ({ id: c.id, label: c.name }))}
          selectedKey={clientId}
          onSelectionChange={(key) => {
            setClientId(key === null ? null : String(key));
            setProjectIds(null);
          }}
        />
        <Select
          label={t('create.source')}
          options={[
            { id: 'import', label: t('create.fromTracked') },
            { id: 'lines', label: t('create.typed') },
          ]}
          selectedKey={source}
          onSelectionChange={(key) => setSource(key as 'import' | 'lines')}
        />
        {source === 'import' ? (
          <>
            {clientId && <ProjectChoice clientId={clientId} chosen={projectIds} onChange={setProjectIds} />}
            <div className="grid gap-4 sm:grid-cols-2">
              <DatePicker label={t('create.workFrom')} name="period_from" value={from} onChange={setFrom} />
              <DatePicker label={t('create.workTo')} name="period_to" value={to} onChange={setTo} />
              <Select
                label={t('create.time')}
                options={TIME_SUMMARIES.map((id) => ({ id, label: t(`create.timeSummaries.${id}`) }))}
                selectedKey={timeSummary}
                onSelectionChange={(k) => setTimeSummary(String(k))}
              />
              <Select
                label={t('create.expenses')}
                options={EXPENSE_SUMMARIES.map((id) => ({ id, label: t(`create.expenseSummaries.${id}`) }))}
                selectedKey={expenseSummary}
                onSelectionChange={(k) => setExpenseSummary(String(k))}
              />
            </div>
            <p className="text-sm text-stone-700">
              {t('create.importHint')}
            </p>
          </>
        ) : (
          <LineItemsEditor
            lines={lines}
            onChange={setLines}
            newKind={DEFAULT_KIND}
            KindField={KindPicker}
            labels={{
              line: (n) => t('create.line', { n }),
              kind: t('create.kind'),
              description: t('create.description'),
              quantity: t('create.quantity'),
              unitPrice: t('create.unitPrice'),
              taxed: t('create.taxed'),
              removeLine: (n) => t('create.removeLine', { n }),
              addLine: t('create.addLine'),
            }}
          />
        )}
      </section>

      <section aria-labelledby="new-fields" className="flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
        <h2 id="new-fields" className="text-lg font-semibold text-stone-900">
          {t('create.invoice')}
        </h2>
        <InvoiceFields value={fields} onChange={setFields} numberHint={t('create.numberHint')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Select
            label={t('create.paymentTerms')}
            name="payment_term"
            options={TERMS.map((id) => ({ id, label: t(`create.termChoices.${id}`) }))}
            selectedKey={term}
            onSelectionChange={(k) => setTerm(String(k))}
          />
          <TextField
            label={t('create.currency')}
            name="currency"
            value={currency}
            onChange={setCurrency}
            description={clientCurrency ? t('create.currencyHintOf', { currency: clientCurrency }) : t('create.currencyHint')}
          />
        </div>
      </section>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant={previewed ? 'secondary' : 'primary'} isPending={preview.isPending} isDisabled={!clientId}>
          {t('create.preview')}
        </Button>
        {!clientId && <p className="self-center text-sm text-stone-700">{t('create.chooseClientFirst')}</p>}
      </div>

      {previewed && (
        <Preview
          invoice={previewed}
          clientId={clientId}
          // Imported in another currency than the client's: the rates' numbers are kept, not converted.
          unconvertedFrom={source === 'import' && clientCurrency && previewed.currency !== clientCurrency ? clientCurrency : null}
          creating={create.isPending}
          onCreate={() => {
            const b = JSON.parse(current) as CreateBody;
            create.mutate({ body: b, key: keyFor(b) }, { onSuccess: (created) => navigate(`/invoices/${created.id}`) });
          }}
        />
      )}
    </Form>
  );
}

/** All of the client's projects (the default, sent as no project_ids), or the ones ticked; the list loads when asked for. */
function ProjectChoice({ clientId, chosen, onChange }: { clientId: string; chosen: string[] | null; onChange: (ids: string[] | null) => void }) {
  const t = useInvoiceTexts();
  const [open, setOpen] = useState(false);
  const projects = useQuery({ ...clientProjectsQuery(clientId), enabled: open });
  if (!open) {
    return (
      <div className="flex flex-wrap items-center gap-3 text-sm text-stone-800">
        <span>{chosen ? t('create.projectsChosen', { count: chosen.length }) : t('create.allProjects')}</span>
        <Button variant="secondary" onPress={() => setOpen(true)}>
          {t('create.chooseProjects')}
        </Button>
      </div>
    );
  }
  if (projects.error) return <Alert>{describeError(projects.error).message}</Alert>;
  if (!projects.data) {
    return (
      <p role="status" className="text-sm text-stone-600">
        {t('create.loadingProjects')}
      </p>
    );
  }
  const all = projects.data.projects;
  const ticked = new Set(chosen ?? all.map((p) => p.id));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-stone-900">{t('create.projects')}</legend>
      {all.length === 0 && <p className="text-sm text-stone-700">{t('create.noProjects')}</p>}
      {all.map((p) => (
        <Checkbox
          key={p.id}
          isSelected={ticked.has(p.id)}
          onChange={(on) => {
            const next = all.filter((q) => (q.id === p.id ? on : ticked.has(q.id))).map((q) => q.id);
            onChange(next.length === all.length ? null : next);
          }}
        >
          {projectLabel(p)}
        </Checkbox>
      ))}
    </fieldset>
  );
}

function Preview({
  invoice,
  clientId,
  unconvertedFrom,
  creating,
  onCreate,
}: {
  invoice: Invoice;
  clientId: string | null;
  unconvertedFrom: string | null;
  creating: boolean;
  onCreate: () => void;
}) {
  const t = useInvoiceTexts();
  const format = useFormat();
  const unpriced = unpricedTime(invoice);
  // Each new preview takes focus to its heading, so a screen reader says it arrived (as the import's preview does).
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [invoice]);
  return (
    <section aria-labelledby="new-preview" className="flex flex-col gap-3">
      <h2 id="new-preview" ref={heading} tabIndex={-1} className="text-lg font-semibold text-stone-900 outline-none">
        {t('create.previewOf', { number: invoice.number })}
      </h2>
      <p className="text-sm text-stone-700">{t('create.previewNote')}</p>
      {unconvertedFrom && invoice.line_items.length > 0 && (
        // A warning, not a refusal: the spec's import takes any currency, as Harvest's does (docs/decisions.md).
        <Alert tone="warning" title={t('create.unconverted.title')}>
          {t('create.unconverted.text', { rate: format.money(100, unconvertedFrom), copied: format.money(100, invoice.currency), client: unconvertedFrom })}
        </Alert>
      )}
      {unpriced && clientId && <UnpricedWarning unpriced={unpriced} currency={invoice.currency} clientId={clientId} />}
      <InvoiceLines invoice={invoice} headingId="new-preview" />
      <div>
        <Button onPress={onCreate} isPending={creating}>
          {t('create.createInvoice')}
        </Button>
      </div>
    </section>
  );
}

/**
 * Imported time billed at 0.00 (unpriced.ts), said before the create: which lines and hours, why,
 * what to do, and a link to each project (named once the client's projects are loaded). A warning,
 * not a refusal: the spec's import takes such time, and creating still marks it billed.
 */
function UnpricedWarning({ unpriced, currency, clientId }: { unpriced: UnpricedTime; currency: string; clientId: string }) {
  const t = useInvoiceTexts();
  const format = useFormat();
  const projects = useQuery(clientProjectsQuery(clientId, 'all'));
  const names = new Map((projects.data?.projects ?? []).map((p) => [p.id, projectLabel(p)]));
  const linked = unpriced.projectIds.flatMap((id) => (names.has(id) ? [{ id, name: names.get(id)! }] : []));
  const count = unpriced.lines.length;
  return (
    <Alert tone="warning" title={t('create.unpriced.title', { count, hours: format.number(unpriced.hours, 4), price: format.money(0, currency) })}>
      <p>{t('create.unpriced.why')}</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {unpriced.lines.map((l) => (
          <li key={l.id}>{t('create.unpriced.line', { description: l.description || t('create.unpriced.noDescription'), hours: format.number(l.hours, 4) })}</li>
        ))}
      </ul>
      <p className="mt-2">{t('create.unpriced.fix')}</p>
      {linked.length > 0 && (
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
          {linked.map((p) => (
            <li key={p.id}>
              <Link href={`/projects/${encodeURIComponent(p.id)}`}>{t('create.unpriced.setRate', { project: p.name })}</Link>
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
