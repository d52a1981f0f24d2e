import type { CalendarDate } from '@internationalized/date';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { pickerDate } from '../../ui/dates.ts';
import { Form } from '../../ui/Form.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { Select, type SelectOption } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import {
  useCreateSchedule,
  useUpdateSchedule,
  type Schedule,
  type ScheduleBody,
} from './api.ts';
import { useRecurringTexts } from './texts.ts';
import { projectLabel } from '../../ui/labels.ts';
import { activeClientsQuery, clientProjectsQuery } from '../../api/clients.ts';
import { useFormat } from '../../api/format.ts';
import { kindChoicesQuery } from '../../api/item-categories.ts';
import { serverNow } from '../../api/server-clock.ts';
import { KindPicker } from '../../ui/KindPicker.tsx';
import { DEFAULT_KIND, kindLabel, kindText } from '../../ui/kinds.ts';
import { scheduleErrors } from './errors.ts';
import { formatRecipients, parseRecipients } from './recipients.ts';

type Frequency = Schedule['frequency'];
type TimeSummary = NonNullable<ScheduleBody['time_summary']>;
type ExpenseSummary = NonNullable<ScheduleBody['expense_summary']>;

type TemplateLine = Schedule['line_items'][number];

interface LineRow {
  key: number;
  kind: string;
  description: string;
  quantity: number;
  unit_price: number;
  taxed: boolean;
  taxed2: boolean;
  /** What the form does not show (a credit's effect, a project): sent back as it came, so an edit keeps it. */
  rest: Pick<TemplateLine, 'effect' | 'project_id'>;
}

const FREQUENCIES: Frequency[] = ['weekly', 'monthly', 'quarterly', 'yearly'];
const TIME_SUMMARIES: TimeSummary[] = ['project', 'task', 'people', 'detailed'];
const EXPENSE_SUMMARIES: ExpenseSummary[] = ['project', 'category', 'people', 'detailed'];

let nextKey = 1;
const emptyLine = (): LineRow => ({ key: nextKey++, kind: DEFAULT_KIND, description: '', quantity: 1, unit_price: NaN, taxed: true, taxed2: true, rest: {} });

/** A stored template line as the form's row: every field kept, shown or not. */
const rowOf = (l: TemplateLine): LineRow => ({
  key: nextKey++,
  kind: kindLabel(l.kind ?? DEFAULT_KIND),
  description: l.description ?? '',
  quantity: l.quantity ?? 1,
  unit_price: l.unit_price ?? NaN,
  taxed: l.taxed ?? true,
  taxed2: l.taxed2 ?? true,
  rest: {
    ...(l.effect !== undefined ? { effect: l.effect } : {}),
    ...(l.project_id !== undefined ? { project_id: l.project_id } : {}),
  },
});

/**
 * A recurring invoice's form: when (frequency, day, start, end), what (fixed
 * lines or the uninvoiced work of chosen projects), and whether it is only
 * drafted or also sent. The server checks everything again and names the field
 * it refuses (an end before the start: `end_date`).
 */
export function ScheduleForm({ schedule, onSaved }: { schedule?: Schedule; onSaved: (saved: Schedule) => void }) {
  const t = useRecurringTexts();
  const format = useFormat();
  const create = useCreateSchedule();
  const update = useUpdateSchedule();
  const keyFor = useIdempotencyKey();
  const mutation = schedule ? update : create;
  const clients = useQuery({ ...activeClientsQuery, enabled: !schedule });

  const [clientId, setClientId] = useState(schedule?.client.id ?? '');
  const [frequency, setFrequency] = useState<Frequency>(schedule?.frequency ?? 'monthly');
  const [anchorDay, setAnchorDay] = useState(schedule?.anchor_day ?? 1);
  const [start, setStart] = useState<CalendarDate | null>(pickerDate(schedule?.start_date ?? format.dayOf(serverNow())));
  const [end, setEnd] = useState<CalendarDate | null>(pickerDate(schedule?.end_date));
  const [source, setSource] = useState<Schedule['source']>(schedule?.source ?? 'lines');
  const [lines, setLines] = useState<LineRow[]>(schedule?.line_items.length ? schedule.line_items.map(rowOf) : [emptyLine()]);
  // The second tax's checkbox, when the schedule has a second tax (or a line already leaves it out).
  const hasTax2 = schedule ? schedule.tax2 !== null || schedule.line_items.some((l) => l.taxed2 === false) : false;
  const [projectIds, setProjectIds] = useState<string[]>(schedule?.project_ids ?? []);
  const [timeSummary, setTimeSummary] = useState<TimeSummary | 'none'>((schedule?.time_summary as TimeSummary | null) ?? 'project');
  const [expenseSummary, setExpenseSummary] = useState<ExpenseSummary | 'none'>((schedule?.expense_summary as ExpenseSummary | null) ?? 'none');
  const [subject, setSubject] = useState(schedule?.subject ?? '');
  const [notes, setNotes] = useState(schedule?.notes ?? '');
  const [tax, setTax] = useState<number>(schedule?.tax ?? NaN);
  const [discount, setDiscount] = useState<number>(schedule?.discount ?? NaN);
  const [action, setAction] = useState<Schedule['action']>(schedule?.action ?? 'draft');
  const [recipients, setRecipients] = useState(formatRecipients(schedule?.recipients ?? []));
  const [paused, setPaused] = useState(schedule?.is_paused ?? false);

  const { reset } = mutation;
  useEffect(() => reset(), [clientId, frequency, anchorDay, start, end, source, lines, projectIds, timeSummary, expenseSummary, subject, notes, tax, discount, action, recipients, reset]);

  const lineFields = lines.flatMap((_, i) => ['kind', 'description', 'quantity', 'unit_price'].map((f) => `line_items.${i}.${f}`));
  const formFields = [
    'client_id', 'frequency', 'anchor_day', 'start_date', 'end_date', 'source', 'time_summary', 'expense_summary',
    'subject', 'notes', 'tax', 'discount', 'action', 'recipients', ...lineFields,
  ];
  const { fieldErrors, summary } = scheduleErrors(mutation.error, formFields, t);

  const dayOptions: SelectOption[] =
    frequency === 'weekly'
      ? [1, 2, 3, 4, 5, 6, 7].map((d) => ({ id: d, label: t(`form.weekdays.d${d as 1}`) }))
      : Array.from({ length: 31 }, (_, i) => ({ id: i + 1, label: i === 30 ? t('form.lastDay') : String(i + 1) }));

  const body = (): ScheduleBody => ({
    client_id: clientId,
    frequency,
    anchor_day: anchorDay,
    start_date: start?.toString() ?? '',
    end_date: end?.toString() ?? null,
    source,
    ...(source === 'lines'
      ? {
          line_items: lines.map((l) => ({
            ...l.rest,
            kind: l.kind,
            description: l.description.trim() || null,
            quantity: Number.isNaN(l.quantity) ? 1 : l.quantity,
            unit_price: Number.isNaN(l.unit_price) ? 0 : l.unit_price,
            taxed: l.taxed,
            taxed2: l.taxed2,
          })),
        }
      : {
          project_ids: projectIds,
          time_summary: timeSummary === 'none' ? null : timeSummary,
          expense_summary: expenseSummary === 'none' ? null : expenseSummary,
        }),
    subject: subject.trim() || null,
    notes: notes.trim() || null,
    tax: Number.isNaN(tax) ? null : tax,
    discount: Number.isNaN(discount) ? null : discount,
    action,
    recipients: parseRecipients(recipients),
    is_paused: paused,
  });

  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        if (mutation.isPending) return;
        const b = body();
        if (schedule) {
          const { client_id: _client, ...patch } = b;
          update.mutate({ id: schedule.id, body: patch }, { onSuccess: onSaved });
        } else {
          create.mutate({ body: b, key: keyFor(b) }, { onSuccess: onSaved });
        }
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      {schedule ? (
        <p className="text-sm text-stone-800">
          <span className="font-medium">{t('form.client')}:</span> {schedule.client.name}
        </p>
      ) : (
        <Select
          name="client_id"
          label={t('form.client')}
          placeholder={clients.data ? t('form.chooseClient') : t('form.loadingClients')}
          options={(clients.data?.clients ?? []).map((c) => ({ id: c.id, label: c.name }))}
          selectedKey={clientId || null}
          onSelectionChange={(key) => {
            setClientId(String(key));
            setProjectIds([]);
          }}
          isRequired
          autoFocus
        />
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <Select
          name="frequency"
          label={t('form.frequency')}
          options={FREQUENCIES.map((f) => ({ id: f, label: t(`form.frequencies.${f}`) }))}
          selectedKey={frequency}
          onSelectionChange={(key) => {
            const next = key as Frequency;
            setFrequency(next);
            if (next === 'weekly' && anchorDay > 7) setAnchorDay(1);
          }}
        />
        <Select
          name="anchor_day"
          label={frequency === 'weekly' ? t('form.weekday') : t('form.dayOfMonth')}
          description={frequency === 'weekly' ? undefined : frequency === 'monthly' ? t('form.dayHint') : t('form.quarterHint')}
          options={dayOptions}
          selectedKey={anchorDay}
          onSelectionChange={(key) => setAnchorDay(Number(key))}
        />
        <DatePicker name="start_date" label={t('form.startDate')} value={start} onChange={setStart} isRequired />
        <DatePicker name="end_date" label={t('form.endDate')} value={end} onChange={setEnd} />
      </div>

      <Select
        name="source"
        label={t('form.what')}
        options={(['lines', 'uninvoiced'] as const).map((s) => ({ id: s, label: t(`form.sources.${s}`) }))}
        selectedKey={source}
        onSelectionChange={(key) => setSource(key as Schedule['source'])}
      />
      {source === 'lines' ? (
        <Lines lines={lines} setLines={setLines} hasTax2={hasTax2} />
      ) : (
        <>
          <Projects clientId={clientId} chosen={projectIds} onChange={setProjectIds} />
          <div className="grid gap-5 sm:grid-cols-2">
            <Select
              name="time_summary"
              label={t('form.time')}
              options={[{ id: 'none', label: t('form.none') }, ...TIME_SUMMARIES.map((s) => ({ id: s, label: t(`form.timeSummaries.${s}`) }))]}
              selectedKey={timeSummary}
              onSelectionChange={(key) => setTimeSummary(key as TimeSummary | 'none')}
            />
            <Select
              name="expense_summary"
              label={t('form.expenses')}
              options={[{ id: 'none', label: t('form.none') }, ...EXPENSE_SUMMARIES.map((s) => ({ id: s, label: t(`form.expenseSummaries.${s}`) }))]}
              selectedKey={expenseSummary}
              onSelectionChange={(key) => setExpenseSummary(key as ExpenseSummary | 'none')}
            />
          </div>
        </>
      )}

      <TextField name="subject" label={t('form.subject')} value={subject} onChange={setSubject} maxLength={1000} />
      <TextArea name="notes" label={t('form.notes')} value={notes} onChange={setNotes} rows={2} />
      <div className="grid gap-5 sm:grid-cols-2">
        <NumberField name="tax" label={t('form.tax')} description={t('form.clientDefault')} value={tax} onChange={setTax} minValue={0} maxValue={100} formatOptions={{ maximumFractionDigits: 4 }} />
        <NumberField name="discount" label={t('form.discount')} description={t('form.clientDefault')} value={discount} onChange={setDiscount} minValue={0} maxValue={100} formatOptions={{ maximumFractionDigits: 4 }} />
      </div>
      <Select
        name="action"
        label={t('form.action')}
        options={(['draft', 'send'] as const).map((a) => ({ id: a, label: t(`form.actions.${a}`) }))}
        selectedKey={action}
        onSelectionChange={(key) => setAction(key as Schedule['action'])}
      />
      {action === 'send' && (
        <TextField name="recipients" label={t('form.recipients')} description={t('form.recipientsHint')} value={recipients} onChange={setRecipients} isRequired />
      )}
      {schedule && (
        <Switch isSelected={paused} onChange={setPaused}>
          {t('form.paused')}
        </Switch>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" slot="close">
          {t('form.cancel')}
        </Button>
        <Button type="submit" isPending={mutation.isPending}>
          {schedule ? t('form.save') : t('form.create')}
        </Button>
      </div>
    </Form>
  );
}

function Lines({ lines, setLines, hasTax2 }: { lines: LineRow[]; setLines: (l: LineRow[]) => void; hasTax2: boolean }) {
  const t = useRecurringTexts();
  const { data: kinds = [] } = useQuery(kindChoicesQuery);
  const setLine = (i: number, patch: Partial<LineRow>) => setLines(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-sm font-medium text-stone-900">{t('form.lines')}</legend>
      <ol className="flex flex-col gap-3">
        {lines.map((l, i) => (
          <li key={l.key} aria-label={t('form.line', { n: i + 1 })} className="grid gap-3 rounded-md border border-stone-200 p-3 sm:grid-cols-[1fr_6rem_8rem]">
            <TextField label={t('form.description')} name={`line_items.${i}.description`} value={l.description} onChange={(description) => setLine(i, { description })} />
            <NumberField label={t('form.quantity')} name={`line_items.${i}.quantity`} value={l.quantity} onChange={(quantity) => setLine(i, { quantity })} minValue={0} formatOptions={{ maximumFractionDigits: 4 }} />
            <NumberField label={t('form.unitPrice')} name={`line_items.${i}.unit_price`} value={l.unit_price} onChange={(unit_price) => setLine(i, { unit_price })} minValue={0} formatOptions={{ maximumFractionDigits: 4 }} />
            <div className="flex flex-wrap items-end gap-x-5 gap-y-3 sm:col-span-3">
              <div className="min-w-48">
                <KindPicker label={t('form.kind')} name={`line_items.${i}.kind`} value={l.kind} onChange={(kind) => setLine(i, { kind })} kinds={kinds} kindText={(k) => kindText(t, k)} />
              </div>
              <Checkbox isSelected={l.taxed} onChange={(taxed) => setLine(i, { taxed })}>
                {t('form.taxed')}
              </Checkbox>
              {hasTax2 && (
                <Checkbox isSelected={l.taxed2} onChange={(taxed2) => setLine(i, { taxed2 })}>
                  {t('form.taxed2')}
                </Checkbox>
              )}
              {lines.length > 1 && (
                <Button variant="quiet" onPress={() => setLines(lines.filter((_, j) => j !== i))}>
                  {t('form.removeLine', { n: i + 1 })}
                </Button>
              )}
            </div>
          </li>
        ))}
      </ol>
      <div>
        <Button variant="secondary" onPress={() => setLines([...lines, emptyLine()])}>
          {t('form.addLine')}
        </Button>
      </div>
    </fieldset>
  );
}

function Projects({ clientId, chosen, onChange }: { clientId: string; chosen: string[]; onChange: (ids: string[]) => void }) {
  const t = useRecurringTexts();
  const projects = useQuery({ ...clientProjectsQuery(clientId), enabled: !!clientId });
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-stone-900">{t('form.projects')}</legend>
      <p className="text-sm text-stone-600">{t('form.projectsHint')}</p>
      {!clientId && <p className="text-sm text-stone-600">{t('form.chooseClientFirst')}</p>}
      {projects.data?.projects.length === 0 && <p className="text-sm text-stone-600">{t('form.noProjects')}</p>}
      {projects.data?.projects.map((p) => (
        <Checkbox
          key={p.id}
          isSelected={chosen.includes(p.id)}
          onChange={(on) => onChange(on ? [...chosen, p.id] : chosen.filter((id) => id !== p.id))}
        >
          {projectLabel(p)}
        </Checkbox>
      ))}
    </fieldset>
  );
}
