import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { isAdministrator } from '../../api/access.ts';
import { describeError, formErrors } from '../../api/errors.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { SettingsPage, SettingsSection } from '../../ui/SettingsSection.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useUpdateWorkspace, workspaceQuery, type WorkspacePatch, type WorkspaceSettings } from './api.ts';
import { useSettingsTexts } from './texts.ts';
import { workspaceProblems } from './workspace-rules.ts';

const WEEK_STARTS = ['monday', 'sunday', 'saturday'] as const;
const ROUNDINGS = ['none', 'up', 'nearest', 'down'] as const;
const SWITCHES = ['approvals_enabled', 'allow_past_timer_starts', 'invoice_before_approval', 'require_two_factor'] as const;

export const FIELDS = ['name', 'address', 'sender_email', 'sender_phone', 'tax_id', 'timezone', 'currency', 'week_start', 'rounding', 'rounding_minutes'];

/** Settings → Workspace: every member reads it; owners and administrators change it. */
export function WorkspacePage() {
  const { workspace: mine } = useWorkspaceSession();
  const canEdit = isAdministrator(mine);
  const query = useQuery(workspaceQuery);
  const t = useSettingsTexts();

  return (
    <SettingsPage
      heading={t('heading')}
      intro={canEdit ? t('introEdit') : t('introView')}
      error={query.isError ? describeError(query.error).message : null}
      data={query.data}
      loading={t('loading')}
      placeholder="h-[44rem]"
    >
      {(settings) => (canEdit ? <SettingsForm settings={settings} /> : <SettingsView settings={settings} />)}
    </SettingsPage>
  );
}

function SettingsForm({ settings }: { settings: WorkspaceSettings }) {
  const update = useUpdateWorkspace();
  const t = useSettingsTexts();
  const [saved, setSaved] = useState(false);
  const [weekStart, setWeekStart] = useState(settings.week_start);
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
          require_two_factor: f.require_two_factor === 'on',
        };
        const found = workspaceProblems(body);
        setProblems(found);
        setSaved(false);
        if (Object.keys(found).length || update.isPending) return;
        update.mutate(body, { onSuccess: () => setSaved(true) });
      }}
    >
      {server.summary && <Alert>{server.summary}</Alert>}
      <SettingsSection id="section-company" title={t('company')} description={t('companyHint')}>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField name="name" label={t('name')} defaultValue={settings.name} isRequired className="sm:col-span-2" />
          <TextArea name="address" label={t('address')} defaultValue={settings.address ?? ''} className="sm:col-span-2" />
          <TextField name="sender_email" type="email" label={t('senderEmail')} defaultValue={settings.sender_email ?? ''} />
          <TextField name="sender_phone" type="tel" label={t('senderPhone')} defaultValue={settings.sender_phone ?? ''} />
          <TextField name="tax_id" label={t('taxId')} description={t('taxIdHint')} defaultValue={settings.tax_id ?? ''} />
        </div>
      </SettingsSection>
      <SettingsSection id="section-time" title={t('timeAndMoney')}>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            name="timezone"
            label={t('timezone')}
            description={t('timezoneHint')}
            defaultValue={settings.timezone}
            isRequired
            validate={(v) => (v ? (workspaceProblems({ timezone: v.trim() }).timezone ?? null) : null)}
          />
          <TextField
            name="currency"
            label={t('currency')}
            description={t('currencyHint')}
            defaultValue={settings.currency}
            isRequired
            validate={(v) => (v ? (workspaceProblems({ currency: v.trim().toUpperCase() }).currency ?? null) : null)}
          />
          <Select
            name="week_start"
            label={t('weekStart')}
            options={WEEK_STARTS.map((id) => ({ id, label: t(`weekStarts.${id}`) }))}
            defaultSelectedKey={settings.week_start}
            onSelectionChange={(key) => setWeekStart(String(key) as WorkspaceSettings['week_start'])}
            // An approval locks whole weeks as the week start counts them when read (tracking/week/lock.ts),
            // so a new start moves every approved week's lock: said before it is saved.
            description={weekStart !== settings.week_start ? t('weekStartMoves') : undefined}
          />
          <Select
            name="rounding"
            label={t('rounding')}
            options={ROUNDINGS.map((id) => ({ id, label: t(`roundings.${id}`) }))} defaultSelectedKey={settings.rounding} className="sm:col-start-1" />
          <TextField
            name="rounding_minutes"
            type="number"
            label={t('roundingMinutes')}
            description={t('roundingMinutesHint')}
            defaultValue={String(settings.rounding_minutes)}
            isRequired
            validate={(v) => (v ? (workspaceProblems({ rounding_minutes: Number(v) }).rounding_minutes ?? null) : null)}
          />
        </div>
        <div className="mt-6 flex flex-col gap-4">
          {SWITCHES.map((name) => (
            <div key={name}>
              <Switch name={name} defaultSelected={settings[name]}>
                {t(`switches.${name}`)}
              </Switch>
              <p className="mt-1 pl-13 text-sm text-stone-600">{t(`switches.${name}Hint`)}</p>
            </div>
          ))}
        </div>
      </SettingsSection>
      <div className="flex items-center gap-4">
        <Button type="submit" isPending={update.isPending}>
          {t('save')}
        </Button>
        {saved && !update.isPending && (
          <p role="status" className="text-sm text-emerald-800">
            {t('saved')}
          </p>
        )}
      </div>
    </Form>
  );
}

function SettingsView({ settings }: { settings: WorkspaceSettings }) {
  const t = useSettingsTexts();
  const rows: [string, string][] = [
    [t('name'), settings.name],
    [t('address'), settings.address ?? '—'],
    [t('timezone'), settings.timezone],
    [t('currency'), settings.currency],
    [t('weekStart'), (WEEK_STARTS as readonly string[]).includes(settings.week_start) ? t(`weekStarts.${settings.week_start}`) : settings.week_start],
    [
      t('rounding'),
      settings.rounding === 'none' ? t('roundings.none') : t(`roundingTo.${settings.rounding}`, { minutes: settings.rounding_minutes }),
    ],
    ...SWITCHES.map((name): [string, string] => [t(`switches.${name}`), settings[name] ? t('on') : t('off')]),
  ];
  return (
    <SettingsSection id="section-settings" title={t('settings')}>
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
