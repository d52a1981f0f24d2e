import { parseDate, type CalendarDate } from '@internationalized/date';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ComboBox, type ComboOption } from '../../ui/ComboBox.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { parseDuration } from '../../ui/duration.ts';
import { Form } from '../../ui/Form.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import {
  projectChoicesQuery,
  useCreateAssignment,
  useCreatePlaceholder,
  useDeleteAssignment,
  useReplacePlaceholder,
  useUpdateAssignment,
  type Assignment,
  type AssignmentBody,
  type Person,
  type Placeholder,
  type Schedule,
} from './api.ts';
import { rowKeyOf, type Dated, type RowKey } from './schedule.ts';
import { usePlanningTexts } from './texts.ts';

/** Which dialog the page has open. */
export type Open = { kind: 'assignment'; assignment?: Assignment; row?: RowKey } | { kind: 'placeholder' } | { kind: 'replace'; placeholderId: string };

/**
 * The planner's forms, each in a dialog the page opens (this module loads lazily): an assignment (add, edit, delete; read
 * only when not the caller's to change), a placeholder, and staffing a placeholder with a
 * person. A server refusal naming a field shows under it (WEB-STYLE 2); anything else above
 * the form. `onDone` gets the sentence the page announces.
 */

type By = 'hours_per_day' | 'total_hours';
/** The web route's bounds (planning/assignments/web-routes.ts): a day holds 24 hours; a plan at most 100,000. */
const TOTAL_HOURS_MAX = 100_000;
const FIELDS = ['project_id', 'user_id', 'starts_on', 'ends_on', 'hours_per_day', 'total_hours', 'notes'] as const;

/** A refusal split for the assignment form: placeholder_id is the "who" field's too. */
function assignmentErrors(error: unknown): { fieldErrors: Record<string, string>; summary?: string } {
  if (!error) return { fieldErrors: {} };
  const { message, field } = describeError(error);
  const name = field === 'placeholder_id' ? 'user_id' : field;
  return name && (FIELDS as readonly string[]).includes(name) ? { fieldErrors: { [name]: message } } : { fieldErrors: {}, summary: message };
}

export interface AssignmentFormProps {
  /** The assignment edited; absent: a new one. */
  assignment?: Assignment;
  /** The row a new one is for ("Add assignment" on a row). */
  row?: RowKey;
  people: Person[];
  placeholders: Placeholder[];
  /** A new assignment's dates. */
  dates: Dated;
  /** The projects the caller plans (the schedule's plannable_project_ids); null: every one. */
  plannable: string[] | null;
  onDone: (message: string) => void;
}

export function AssignmentForm({ assignment, row, people, placeholders, dates, plannable, onDone }: AssignmentFormProps) {
  const t = usePlanningTexts();
  const projects = useQuery(projectChoicesQuery);
  const create = useCreateAssignment();
  const update = useUpdateAssignment();
  const remove = useDeleteAssignment();
  const keyFor = useIdempotencyKey();
  const readOnly = assignment ? !assignment.may_change : false;
  const [projectId, setProjectId] = useState<string | null>(assignment?.project.id ?? null);
  const [who, setWho] = useState<RowKey | null>(assignment ? rowKeyOf(assignment) : (row ?? null));
  const [start, setStart] = useState<CalendarDate | null>(parseDate(assignment?.starts_on ?? dates.starts_on));
  const [end, setEnd] = useState<CalendarDate | null>(parseDate(assignment?.ends_on ?? dates.ends_on));
  const [by, setBy] = useState<By>(assignment && assignment.hours_per_day === null ? 'total_hours' : 'hours_per_day');
  const format = useFormat();
  // Typed as every duration in the app ("7:30", "7.5", "7h 30m"), shown in the person's style.
  const [hoursText, setHoursText] = useState(() => {
    const kept = assignment?.hours_per_day ?? assignment?.total_hours;
    return kept == null ? '' : format.hours(kept);
  });
  const readHours = (text: string) => parseDuration(text, by === 'hours_per_day' ? {} : { maxHours: TOTAL_HOURS_MAX, tooLong: t('dialog.totalTooLong') });
  const parsedHours = readHours(hoursText);
  // Sent with the two places the plan is stored with.
  const hours = 'seconds' in parsedHours ? Math.round(parsedHours.seconds / 36) / 100 : Number.NaN;
  const [notes, setNotes] = useState(assignment?.notes ?? '');
  const [missing, setMissing] = useState<Record<string, string>>({});
  const mutation = assignment ? update : create;
  // A refusal is about the values sent: once one changes, its message goes.
  const { reset } = mutation;
  useEffect(() => {
    reset();
    setMissing({});
  }, [projectId, who, start, end, by, hoursText, notes, reset]);

  const projectOptions: ComboOption[] = useMemo(() => {
    const list = projects.data ?? (assignment ? [{ id: assignment.project.id, name: assignment.project.name ?? '', client_name: assignment.project.client_name ?? '' }] : []);
    // A manager is offered the projects they plan only: the server refuses the others.
    return list
      .filter((p) => plannable === null || plannable.includes(p.id) || p.id === assignment?.project.id)
      .map((p) => ({ id: p.id, label: `${p.client_name} – ${p.name}` }))
      .sort((a, b) => a.label.localeCompare(b.label));
  }, [projects.data, assignment, plannable]);
  // Whom the planner plans: active people and placeholders (the server refuses others), and whom this plan names already.
  const whoOptions: ComboOption[] = useMemo(
    () => [
      ...people.filter((p) => p.is_active || p.user_id === assignment?.user_id).map((p) => ({ id: `user:${p.user_id}`, label: p.name })),
      ...placeholders
        .filter((p) => p.is_active || p.id === assignment?.placeholder_id)
        .map((p) => ({ id: `placeholder:${p.id}`, label: t('dialog.placeholderOption', { name: p.name }) })),
    ],
    [people, placeholders, assignment, t],
  );
  const { fieldErrors, summary } = assignmentErrors(mutation.error);
  const projectName = (id: string | null) => projects.data?.find((p) => p.id === id)?.name ?? assignment?.project.name ?? '';

  const submit = () => {
    if (mutation.isPending || readOnly) return;
    const problems: Record<string, string> = {};
    if (!projectId) problems.project_id = t('dialog.chooseProject');
    if (!who) problems.user_id = t('dialog.chooseWho');
    if ('error' in parsedHours) problems[by] = parsedHours.error;
    else if (hours <= 0) problems[by] = t('dialog.hoursNeeded');
    if (!start) problems.starts_on = t('dialog.chooseDate');
    if (!end) problems.ends_on = t('dialog.chooseDate');
    // Said here in the person's words, where the server's refusal names its fields in English.
    else if (start && end.compare(start) < 0) problems.ends_on = t('dialog.endBeforeStart');
    if (!projectId || !who || !start || !end || Object.keys(problems).length) {
      setMissing(problems);
      return;
    }
    const [kind, id] = who.split(':') as ['user' | 'placeholder', string];
    const body: AssignmentBody = {
      project_id: projectId,
      user_id: kind === 'user' ? id : null,
      placeholder_id: kind === 'placeholder' ? id : null,
      starts_on: start.toString(),
      ends_on: end.toString(),
      [by]: hours,
      notes: notes.trim() || null,
    };
    const project = projectName(projectId);
    if (assignment) update.mutate({ id: assignment.id, body }, { onSuccess: () => onDone(t('announce.saved', { project })) });
    else create.mutate({ body, key: keyFor(body) }, { onSuccess: (made) => onDone(t('announce.added', { project: made.project.name ?? project })) });
  };

  return (
    <Form
      validationErrors={{ ...fieldErrors, ...missing }}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {readOnly && <Alert tone="info">{t('bar.locked')}</Alert>}
      {summary && <Alert>{summary}</Alert>}
      <ComboBox
        name="project_id"
        label={t('dialog.project')}
        options={projectOptions}
        selectedKey={projectId}
        onSelectionChange={(key) => setProjectId(key === null ? null : String(key))}
        emptyText={projects.isPending ? t('dialog.loadingProjects') : t('dialog.noProject')}
        errorMessage={projects.error ? describeError(projects.error).message : undefined}
        isDisabled={readOnly}
      />
      <ComboBox
        name="user_id"
        label={t('dialog.who')}
        options={whoOptions}
        selectedKey={who}
        onSelectionChange={(key) => setWho(key === null ? null : (String(key) as RowKey))}
        emptyText={t('dialog.noMatch')}
        isDisabled={readOnly}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <DatePicker name="starts_on" label={t('dialog.startsOn')} value={start} onChange={setStart} isDisabled={readOnly} />
        <DatePicker name="ends_on" label={t('dialog.endsOn')} value={end} onChange={setEnd} isDisabled={readOnly} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <Select
          label={t('dialog.planBy')}
          options={[
            { id: 'hours_per_day', label: t('dialog.perDay') },
            { id: 'total_hours', label: t('dialog.total') },
          ]}
          selectedKey={by}
          onSelectionChange={(key) => key && setBy(key as By)}
          isDisabled={readOnly}
        />
        <TextField
          name={by}
          label={by === 'hours_per_day' ? t('dialog.perDay') : t('dialog.total')}
          description={by === 'hours_per_day' ? t('dialog.perDayHint') : t('dialog.totalHint')}
          value={hoursText}
          onChange={setHoursText}
          validate={(v) => {
            const read = readHours(v);
            return 'error' in read ? read.error : null;
          }}
          inputMode="decimal"
          autoComplete="off"
          isDisabled={readOnly}
        />
      </div>
      <TextArea name="notes" label={t('dialog.notes')} value={notes} onChange={setNotes} maxLength={2000} rows={2} isDisabled={readOnly} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          {assignment && !readOnly && (
            <ConfirmButton
              label={t('dialog.remove')}
              title={t('dialog.removeTitle')}
              text={t('dialog.removeText')}
              confirmLabel={t('dialog.removeConfirm')}
              isPending={remove.isPending}
              errorMessage={remove.error ? describeError(remove.error).message : null}
              onOpenChange={() => remove.reset()}
              onConfirm={(close) =>
                remove.mutate(assignment.id, {
                  onSuccess: () => {
                    close();
                    onDone(t('announce.deleted', { project: assignment.project.name ?? '' }));
                  },
                })
              }
            />
          )}
        </div>
        <div className="flex gap-2">
          <Button variant="secondary" slot="close">
            {readOnly ? t('dialog.close') : t('dialog.cancel')}
          </Button>
          {!readOnly && (
            <Button type="submit" isPending={mutation.isPending}>
              {assignment ? t('dialog.save') : t('dialog.create')}
            </Button>
          )}
        </div>
      </div>
    </Form>
  );
}

export function PlaceholderForm({ onDone }: { onDone: (message: string) => void }) {
  const t = usePlanningTexts();
  const create = useCreatePlaceholder();
  const keyFor = useIdempotencyKey();
  const [name, setName] = useState('');
  const [weekly, setWeekly] = useState(40);
  const { reset } = create;
  useEffect(() => reset(), [name, weekly, reset]);
  const refused = create.error ? describeError(create.error) : null;
  const onField = refused?.field === 'name' || refused?.field === 'weekly_hours';
  return (
    <Form
      validationErrors={refused && onField ? { [refused.field!]: refused.message } : undefined}
      onSubmit={(event) => {
        event.preventDefault();
        if (create.isPending) return;
        const body = { name: name.trim(), ...(Number.isFinite(weekly) ? { weekly_hours: weekly } : {}) };
        create.mutate({ body, key: keyFor(body) }, { onSuccess: (made) => onDone(t('announce.placeholderAdded', { name: made.name })) });
      }}
    >
      {refused && !onField && <Alert>{refused.message}</Alert>}
      <TextField name="name" label={t('placeholder.name')} description={t('placeholder.nameHint')} value={name} onChange={setName} isRequired maxLength={200} autoFocus />
      <NumberField
        name="weekly_hours"
        label={t('placeholder.weeklyHours')}
        description={t('placeholder.weeklyHint')}
        value={weekly}
        onChange={setWeekly}
        minValue={0}
        maxValue={168}
        formatOptions={{ maximumFractionDigits: 2 }}
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" slot="close">
          {t('dialog.cancel')}
        </Button>
        <Button type="submit" isPending={create.isPending}>
          {t('placeholder.add')}
        </Button>
      </div>
    </Form>
  );
}

export function ReplaceForm({ placeholder, people, onDone }: { placeholder: Placeholder; people: Person[]; onDone: (message: string) => void }) {
  const t = usePlanningTexts();
  const replace = useReplacePlaceholder();
  const [person, setPerson] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const { reset } = replace;
  useEffect(() => {
    reset();
    setMissing(false);
  }, [person, reset]);
  const options = useMemo(() => people.map((p) => ({ id: p.user_id, label: p.name })), [people]);
  const refused = replace.error ? describeError(replace.error) : null;
  return (
    <Form
      validationErrors={missing ? { user_id: t('replace.choose') } : refused?.field === 'user_id' ? { user_id: refused.message } : undefined}
      onSubmit={(event) => {
        event.preventDefault();
        if (replace.isPending) return;
        if (!person) return setMissing(true);
        const name = people.find((p) => p.user_id === person)?.name ?? '';
        replace.mutate({ id: placeholder.id, userId: person }, { onSuccess: ({ moved }) => onDone(t('announce.replaced', { count: moved, name: placeholder.name, person: name })) });
      }}
    >
      <p className="text-sm text-stone-700">{t('replace.text')}</p>
      {refused && refused.field !== 'user_id' && <Alert>{refused.message}</Alert>}
      <ComboBox
        name="user_id"
        label={t('replace.person')}
        options={options}
        selectedKey={person}
        onSelectionChange={(key) => setPerson(key === null ? null : String(key))}
        emptyText={t('dialog.noMatch')}
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" slot="close">
          {t('dialog.cancel')}
        </Button>
        <Button type="submit" isPending={replace.isPending}>
          {t('replace.confirm')}
        </Button>
      </div>
    </Form>
  );
}

/** The open dialog, titled for what it does; closing it (Escape, outside, Cancel) calls onClose. */
export function PlanningDialog({ open, schedule, dates, onClose, onDone }: { open: Open; schedule: Schedule; dates: { starts_on: string; ends_on: string }; onClose: () => void; onDone: (message: string) => void }) {
  const t = usePlanningTexts();
  const placeholder = open.kind === 'replace' ? schedule.placeholders.find((p) => p.id === open.placeholderId) : undefined;
  const title =
    open.kind === 'placeholder'
      ? t('placeholder.title')
      : open.kind === 'replace'
        ? t('replace.title', { name: placeholder?.name ?? '' })
        : !open.assignment
          ? t('dialog.newTitle')
          : open.assignment.may_change
            ? t('dialog.editTitle')
            : t('dialog.viewTitle');
  return (
    <Dialog title={title} isOpen onOpenChange={(isOpen) => !isOpen && onClose()}>
      {open.kind === 'assignment' && (
        <AssignmentForm
          assignment={open.assignment}
          row={open.row}
          people={schedule.people}
          placeholders={schedule.placeholders}
          dates={dates}
          plannable={schedule.plannable_project_ids}
          onDone={onDone}
        />
      )}
      {open.kind === 'placeholder' && <PlaceholderForm onDone={onDone} />}
      {open.kind === 'replace' && placeholder && <ReplaceForm placeholder={placeholder} people={schedule.people.filter((p) => p.is_active)} onDone={onDone} />}
    </Dialog>
  );
}
