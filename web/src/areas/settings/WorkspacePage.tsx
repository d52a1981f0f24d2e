import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isAdministrator } from '../../api/access.ts';
import { describeError, formErrors } from '../../api/errors.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useUpdateWorkspace, workspaceQuery, type WorkspacePatch, type WorkspaceSettings } from './api.ts';
import { SettingsSection } from './SettingsSection.tsx';
import { workspaceProblems } from './workspace-rules.ts';

const WEEK_STARTS = [
  { id: 'monday', label: 'Monday' },
  { id: 'sunday', label: 'Sunday' },
  { id: 'saturday', label: 'Saturday' },
];
const ROUNDINGS = [
  { id: 'none', label: 'No rounding' },
  { id: 'up', label: 'Round up' },
  { id: 'nearest', label: 'Round to the nearest' },
  { id: 'down', label: 'Round down' },
];
const SWITCHES = [
  ['approvals_enabled', 'Timesheet approvals', 'People submit their weeks and approvers approve them.'],
  ['allow_past_timer_starts', 'Timers may start in the past', 'A timer can be started at an earlier time of today.'],
  ['invoice_before_approval', 'Invoice time before it is approved', 'Unapproved time counts as invoiceable work.'],
] as const;

export const FIELDS = ['name', 'address', 'sender_email', 'sender_phone', 'tax_id', 'timezone', 'currency', 'week_start', 'rounding', 'rounding_minutes'];

/** Settings → Workspace: every member reads it; owners and administrators change it. */
export function WorkspacePage() {
  const { workspace: mine } = useWorkspaceSession();
  const canEdit = isAdministrator(mine);
  const query = useQuery(workspaceQuery);

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div>
        <PageHeading>Workspace</PageHeading>
        <p className="mt-2 text-sm text-stone-600">
          {canEdit
            ? 'The name, the sender details invoices print, and how time is kept.'
            : 'How this workspace keeps time. Only owners and administrators change these settings.'}
        </p>
      </div>
      {query.isError ? (
        <Alert>{describeError(query.error).message}</Alert>
      ) : !query.data ? (
        <div aria-busy="true" className="h-[44rem] animate-pulse rounded-lg border border-stone-200 bg-stone-50">
          <span className="sr-only">Loading the settings…</span>
        </div>
      ) : canEdit ? (
        <SettingsForm settings={query.data} />
      ) : (
        <SettingsView settings={query.data} />
      )}
    </div>
  );
}

function SettingsForm({ settings }: { settings: WorkspaceSettings }) {
  const update = useUpdateWorkspace();
  const [saved, setSaved] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const server = formErrors(update.error, FIELDS);
  const fieldErrors = { ...problems, ...server.fieldErrors };

  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        const f = fieldsOf(event);
        const body: WorkspacePatch = {
          name: f.name.trim(),
          address: f.address.trim() || null,
          sender_email: f.sender_email.trim() || null,
          sender_phone: f.sender_phone.trim() || null,
          tax_id: f.tax_id.trim() || null,
          timezone: f.timezone.trim(),
          currency: f.currency.trim().toUpperCase(),
          week_start: f.week_start as WorkspacePatch['week_start'],
          rounding: f.rounding as WorkspacePatch['rounding'],
          rounding_minutes: Number(f.rounding_minutes),
          approvals_enabled: f.approvals_enabled === 'on',
          allow_past_timer_starts: f.allow_past_timer_starts === 'on',
          invoice_before_approval: f.invoice_before_approval === 'on',
        };
        const found = workspaceProblems(body);
        setProblems(found);
        setSaved(false);
        if (Object.keys(found).length || update.isPending) return;
        update.mutate(body, { onSuccess: () => setSaved(true) });
      }}
    >
      {server.summary && <Alert>{server.summary}</Alert>}
      <SettingsSection id="section-company" title="Company" description="Invoices print these as the sender.">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField name="name" label="Workspace name" defaultValue={settings.name} isRequired className="sm:col-span-2" />
          <TextArea name="address" label="Address" defaultValue={settings.address ?? ''} className="sm:col-span-2" />
          <TextField name="sender_email" type="email" label="Sender e-mail" defaultValue={settings.sender_email ?? ''} />
          <TextField name="sender_phone" type="tel" label="Sender phone" defaultValue={settings.sender_phone ?? ''} />
          <TextField name="tax_id" label="Tax ID" description="VAT or other tax number." defaultValue={settings.tax_id ?? ''} />
        </div>
      </SettingsSection>
      <SettingsSection id="section-time" title="Time and money">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            name="timezone"
            label="Time zone"
            description="An IANA name, such as Europe/Berlin."
            defaultValue={settings.timezone}
            isRequired
            validate={(v) => (v ? (workspaceProblems({ timezone: v.trim() }).timezone ?? null) : null)}
          />
          <TextField
            name="currency"
            label="Currency"
            description="A three-letter code, such as EUR."
            defaultValue={settings.currency}
            isRequired
            validate={(v) => (v ? (workspaceProblems({ currency: v.trim().toUpperCase() }).currency ?? null) : null)}
          />
          <Select name="week_start" label="Week starts on" options={WEEK_STARTS} defaultSelectedKey={settings.week_start} />
          <Select name="rounding" label="Rounding of time" options={ROUNDINGS} defaultSelectedKey={settings.rounding} className="sm:col-start-1" />
          <TextField
            name="rounding_minutes"
            type="number"
            label="Round to minutes"
            description="From 1 to 60."
            defaultValue={String(settings.rounding_minutes)}
            isRequired
            validate={(v) => (v ? (workspaceProblems({ rounding_minutes: Number(v) }).rounding_minutes ?? null) : null)}
          />
        </div>
        <div className="mt-6 flex flex-col gap-4">
          {SWITCHES.map(([name, label, hint]) => (
            <div key={name}>
              <Switch name={name} defaultSelected={settings[name]}>
                {label}
              </Switch>
              <p className="mt-1 pl-13 text-sm text-stone-600">{hint}</p>
            </div>
          ))}
        </div>
      </SettingsSection>
      <div className="flex items-center gap-4">
        <Button type="submit" isPending={update.isPending}>
          Save settings
        </Button>
        {saved && !update.isPending && (
          <p role="status" className="text-sm text-emerald-800">
            Saved.
          </p>
        )}
      </div>
    </Form>
  );
}

function SettingsView({ settings }: { settings: WorkspaceSettings }) {
  const rows: [string, string][] = [
    ['Workspace name', settings.name],
    ['Address', settings.address ?? '—'],
    ['Time zone', settings.timezone],
    ['Currency', settings.currency],
    ['Week starts on', WEEK_STARTS.find((w) => w.id === settings.week_start)?.label ?? settings.week_start],
    [
      'Rounding of time',
      settings.rounding === 'none' ? 'No rounding' : `${ROUNDINGS.find((r) => r.id === settings.rounding)?.label} to ${settings.rounding_minutes} min`,
    ],
    ...SWITCHES.map(([name, label]): [string, string] => [label, settings[name] ? 'On' : 'Off']),
  ];
  return (
    <SettingsSection id="section-settings" title="Settings">
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[14rem_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-stone-600">{label}</dt>
            <dd className="whitespace-pre-line text-stone-900">{value}</dd>
          </div>
        ))}
      </dl>
    </SettingsSection>
  );
}
