import { useEffect, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { Label, TextArea, TextField as AriaTextField } from 'react-aria-components';
import { formErrors } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { ComboBox } from '../../ui/ComboBox.tsx';
import { pickerDate } from '../../ui/dates.ts';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { Form } from '../../ui/Form.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { cx, fieldDescription, fieldError, fieldLabel, inputBox } from '../../ui/styles.ts';
import type { Choices, Project } from './api.ts';
import { useFormat } from '../../api/format.ts';
import { useProjectTexts } from './texts.ts';
import { PROJECT_LEVEL, rateChanged, type Values } from './values.ts';
import { FieldErrorText } from '../../ui/FieldErrorText.tsx';

/** The API's fields this form shows; an error naming another goes above the form. */
const FIELDS = [
  'client_id',
  'name',
  'code',
  'notes',
  'owner_id',
  'starts_on',
  'ends_on',
  'is_billable',
  'bill_by',
  'hourly_rate',
  'hourly_rate_effective_from',
  'is_fixed_fee',
  'fee',
  'cost_budget',
  'budget_by',
  'budget',
  'budget_is_monthly',
  'show_budget_to_all',
  'notify_when_over_budget',
  'over_budget_notification_percentage',
] as const;

/**
 * Every field of a project the API accepts, for a new one or a change: the billing and budget
 * fieldset only for those who may set them. A change of hourly rate asks from which date, and
 * says that work dated earlier keeps its rate.
 */
export function ProjectForm(props: {
  choices: Choices;
  project?: Project;
  values: Values;
  /** A state setter: every change is applied to the latest values (see `set`). */
  onChange: Dispatch<SetStateAction<Values>>;
  error: unknown;
  onSubmit: () => void;
  disabled?: boolean;
  actions: ReactNode;
}) {
  const { choices, project, values: v, onChange, error, onSubmit, disabled, actions } = props;
  const t = useProjectTexts();
  const format = useFormat();
  // Applied to the latest values, not this render's: a number field commits on blur, so pressing a
  // checkbox right after typing an amount made two changes in one gesture, and the second, built
  // on the values of before the first, undid it (the checkbox stayed unticked).
  const set = <K extends keyof Values>(key: K, value: Values[K]) => onChange((latest) => ({ ...latest, [key]: value }));
  const { fieldErrors, summary } = formErrors(error, FIELDS);
  const may = choices.may;
  const client = choices.clients.find((c) => c.id === v.client_id) ?? (project && { id: project.client.id, name: project.client.name, currency: project.client.currency });
  // Until a client is picked, the workspace's currency (a project is priced in its client's, else the workspace's).
  const currency = client?.currency ?? choices.currency;
  const money: Intl.NumberFormatOptions = { style: 'currency', currency };
  const newRate = !!project && rateChanged(v, project);
  const clients = choices.clients.some((c) => c.id === project?.client.id) || !project ? choices.clients : [...choices.clients, { ...project.client }];

  // A new rate on an existing project takes effect today unless the person picks another day.
  useEffect(() => {
    if (newRate && !v.hourly_rate_effective_from) onChange((latest) => ({ ...latest, hourly_rate_effective_from: choices.today }));
  }, [newRate, v, onChange, choices.today]);

  return (
    <Form
      validationErrors={fieldErrors}
      aria-label={project ? t('form.editNamed', { name: project.name }) : t('newProject')}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      <fieldset disabled={disabled} className="contents">
        <ComboBox
          label={t('client')}
          name="client_id"
          options={clients.map((c) => ({ id: c.id, label: c.name }))}
          selectedKey={v.client_id}
          onSelectionChange={(key) => set('client_id', key === null ? null : String(key))}
          isRequired
          isDisabled={disabled}
          emptyText={t('form.noClientMatches')}
        />
        <div className="grid gap-5 sm:grid-cols-3">
          <div className="sm:col-span-2">
            <TextField label={t('form.name')} name="name" value={v.name} onChange={(x) => set('name', x)} isRequired isDisabled={disabled} maxLength={255} />
          </div>
          <TextField label={t('form.code')} name="code" value={v.code} onChange={(x) => set('code', x)} isDisabled={disabled} maxLength={64} description={t('form.codeHint')} />
        </div>
        <Select
          label={t('owner')}
          name="owner_id"
          options={[{ id: 'none', label: t('form.noOwner') }, ...choices.people.map((p) => ({ id: p.id, label: p.name }))]}
          selectedKey={v.owner_id ?? 'none'}
          onSelectionChange={(key) => set('owner_id', key === 'none' || key === null ? null : String(key))}
          isDisabled={disabled}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <DatePicker label={t('form.startsOn')} name="starts_on" value={pickerDate(v.starts_on)} onChange={(d) => set('starts_on', d ? d.toString() : null)} isDisabled={disabled} />
          <DatePicker label={t('form.endsOn')} name="ends_on" value={pickerDate(v.ends_on)} onChange={(d) => set('ends_on', d ? d.toString() : null)} isDisabled={disabled} />
        </div>
        <AriaTextField name="notes" value={v.notes} onChange={(x) => set('notes', x)} isDisabled={disabled} className="flex flex-col gap-1.5">
          <Label className={fieldLabel}>{t('form.notes')}</Label>
          <TextArea rows={3} className={cx(inputBox, 'resize-y')} />
          <FieldErrorText />
        </AriaTextField>

        {may.set_commercial && (
          <fieldset className="flex flex-col gap-5 rounded-lg border border-stone-200 p-4">
            <legend className="px-1 text-base font-semibold text-stone-900">{t('billing')}</legend>
            <Checkbox
              isSelected={v.is_billable}
              isDisabled={disabled}
              onChange={(billable) =>
                onChange((latest) => ({
                  ...latest,
                  is_billable: billable,
                  bill_by: billable ? (latest.bill_by === 'none' ? 'project' : latest.bill_by) : 'none',
                  is_fixed_fee: billable && latest.is_fixed_fee,
                }))
              }
            >
              {t('form.billableProject')}
            </Checkbox>
            {v.is_billable && (
              <>
                <Select
                  label={t('form.billBy')}
                  name="bill_by"
                  options={(['project', 'tasks', 'people', 'none'] as const).map((id) => ({ id, label: t(`billBy.${id}`) }))}
                  selectedKey={v.bill_by}
                  onSelectionChange={(key) => set('bill_by', key as Values['bill_by'])}
                  isDisabled={disabled}
                  description={t('form.billByHint')}
                />
                {v.bill_by !== 'none' && (
                  <div className="grid gap-5 sm:grid-cols-2">
                    <NumberField
                      label={t('form.projectRate')}
                      name="hourly_rate"
                      value={v.hourly_rate}
                      onChange={(x) => set('hourly_rate', x)}
                      minValue={0}
                      formatOptions={money}
                      isDisabled={disabled}
                      description={project?.hourly_rate_effective_from ? t('form.inForceSince', { date: format.day(project.hourly_rate_effective_from) }) : t('form.inCurrency', { currency })}
                    />
                    {(newRate || !project) && (
                      <div className="flex flex-col gap-1.5">
                        <DatePicker
                          label={project ? t('form.newRateFrom') : t('form.rateFromOptional')}
                          name="hourly_rate_effective_from"
                          value={pickerDate(v.hourly_rate_effective_from)}
                          onChange={(d) => set('hourly_rate_effective_from', d ? d.toString() : null)}
                          isRequired={!!project}
                          isDisabled={disabled}
                        />
                        <p className={fieldDescription}>
                          {project
                            ? project.hourly_rate != null
                              ? t('form.keepsEarlierRateOf', { rate: format.money(project.hourly_rate, currency) })
                              : t('form.keepsEarlierRate')
                            : t('form.emptyPricesAll')}
                        </p>
                      </div>
                    )}
                  </div>
                )}
                <Checkbox isSelected={v.is_fixed_fee} onChange={(x) => set('is_fixed_fee', x)} isDisabled={disabled}>
                  {t('form.fixedFeeInvoiced')}
                </Checkbox>
                {v.is_fixed_fee && (
                  <NumberField label={t('form.fixedFee')} name="fee" value={v.fee} onChange={(x) => set('fee', x)} minValue={0} formatOptions={money} isRequired isDisabled={disabled} />
                )}
              </>
            )}
          </fieldset>
        )}

        {may.set_commercial && (
          <fieldset className="flex flex-col gap-5 rounded-lg border border-stone-200 p-4">
            <legend className="px-1 text-base font-semibold text-stone-900">{t('budget')}</legend>
            <Select
              label={t('form.budgetBy')}
              name="budget_by"
              options={(['none', 'project', 'project_cost', 'task', 'task_fees', 'person'] as const)
                .filter((id) => id !== 'project_cost' || may.see_internal_costs || v.budget_by === id)
                .map((id) => ({ id, label: t(`budgetBy.${id}`) }))}
              selectedKey={v.budget_by}
              onSelectionChange={(key) => set('budget_by', key as Values['budget_by'])}
              isDisabled={disabled}
              description={t('form.budgetByHint')}
            />
            {PROJECT_LEVEL.includes(v.budget_by) && (
              <NumberField
                label={v.budget_by === 'project' ? t('form.budgetHours') : t('form.budgetCost')}
                name="budget"
                value={v.budget}
                onChange={(x) => set('budget', x)}
                minValue={0}
                // An internal cost budget is the workspace's money (choices.currency), not the client's.
                formatOptions={v.budget_by === 'project' ? { maximumFractionDigits: 2 } : { style: 'currency', currency: choices.currency }}
                isRequired
                isDisabled={disabled}
              />
            )}
            {v.budget_by !== 'none' && (
              <Checkbox isSelected={v.budget_is_monthly} onChange={(x) => set('budget_is_monthly', x)} isDisabled={disabled}>
                {t('form.monthly')}
              </Checkbox>
            )}
            <Checkbox isSelected={v.show_budget_to_all} onChange={(x) => set('show_budget_to_all', x)} isDisabled={disabled}>
              {t('form.showToAll')}
            </Checkbox>
            {v.budget_by !== 'none' && (
              <div className="flex flex-col gap-3">
                <Checkbox isSelected={v.notify_when_over_budget} onChange={(x) => set('notify_when_over_budget', x)} isDisabled={disabled}>
                  {t('form.alert')}
                </Checkbox>
                {v.notify_when_over_budget && (
                  <NumberField
                    label={t('form.alertAt')}
                    name="over_budget_notification_percentage"
                    value={v.over_budget_notification_percentage}
                    onChange={(x) => set('over_budget_notification_percentage', x)}
                    moreThan={0}
                    maxValue={1000}
                    formatOptions={{ maximumFractionDigits: 2 }}
                    isRequired
                    isDisabled={disabled}
                    description={t('form.alertHint')}
                  />
                )}
              </div>
            )}
            {may.see_internal_costs && (
              <NumberField
                label={t('form.costBudget')}
                name="cost_budget"
                value={v.cost_budget}
                onChange={(x) => set('cost_budget', x)}
                minValue={0}
                formatOptions={money}
                isDisabled={disabled}
                description={t('form.costBudgetHint')}
              />
            )}
          </fieldset>
        )}
      </fieldset>
      {fieldErrors?.is_billable && <p className={fieldError}>{fieldErrors.is_billable}</p>}
      {(fieldErrors?.is_fixed_fee || fieldErrors?.budget_is_monthly) && <p className={fieldError}>{fieldErrors.is_fixed_fee ?? fieldErrors.budget_is_monthly}</p>}
      {actions}
    </Form>
  );
}

/** Keeps a create's or change's refusal only until a value changes (then it no longer applies). */
export function useResetOnChange(values: Values, reset: () => void) {
  useEffect(() => reset(), [values, reset]);
}
