import { useEffect, useState } from 'react';
import { formErrors } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Form } from '../../ui/Form.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { useCreateSavedReport, useUpdateSavedReport, type SavedReport } from './api.ts';
import { definitionOf, SCHEDULES, VISIBILITIES, type PeriodChoice, type Schedule, type ShownReport, type Visibility } from './definition.ts';
import { DefinitionText, useLabels } from './labels.tsx';
import { useSavedReportTexts } from './texts.ts';

const NAME_MAX = 200;

/**
 * A saved report's form. New (`shown`: what the report page shows): its name, whether a
 * named period stays named (it moves with the calendar) or keeps these dates, who sees
 * it and whether it is e-mailed. Edit (`saved`, the owner's own): name, who sees it,
 * e-mail; what it reports stays, as the line above the fields says. The server checks
 * everything again and names the field it refuses.
 */
export function SavedReportForm({ shown, saved, onSaved }: { shown?: ShownReport; saved?: SavedReport; onSaved: (saved: SavedReport) => void }) {
  const t = useSavedReportTexts();
  const labels = useLabels();
  const format = useFormat();
  const create = useCreateSavedReport();
  const update = useUpdateSavedReport();
  const keyFor = useIdempotencyKey();
  const mutation = saved ? update : create;

  const [name, setName] = useState(() => saved?.name ?? (shown ? defaultName(shown) : ''));
  const [choice, setChoice] = useState<PeriodChoice>('named');
  const [visibility, setVisibility] = useState<Visibility>(saved?.visibility ?? 'private');
  const [schedule, setSchedule] = useState<Schedule>(saved?.schedule ?? 'none');

  const { reset } = mutation;
  useEffect(() => reset(), [name, choice, visibility, schedule, reset]);

  function defaultName(s: ShownReport) {
    const what = labels.kind(s.report, s.group_by);
    const { name: named, dates } = labels.when({ ...s, period: s.preset ?? 'custom' });
    return `${what} · ${named ?? dates}`.slice(0, NAME_MAX);
  }

  const choosesPeriod = !!shown?.range && !!shown.preset;
  const { fieldErrors, summary } = formErrors(mutation.error, ['name', 'visibility', 'schedule', ...(choosesPeriod ? ['period'] : [])]);

  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        if (mutation.isPending) return;
        const common = { name: name.trim(), visibility, schedule };
        if (saved) update.mutate({ id: saved.id, body: common }, { onSuccess: onSaved });
        else if (shown) {
          const body = { ...definitionOf(shown, choice), ...common };
          create.mutate({ body, key: keyFor(body) }, { onSuccess: onSaved });
        }
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      {saved && (
        <p className="text-sm text-stone-800">
          <DefinitionText definition={saved} />
        </p>
      )}
      <TextField name="name" label={t('form.name')} value={name} onChange={setName} maxLength={NAME_MAX} isRequired autoFocus />
      {shown?.range &&
        (shown.preset ? (
          <Select
            name="period"
            label={t('form.period')}
            options={[
              { id: 'named', label: t('form.named', { period: labels.periodName(shown.preset) }) },
              { id: 'dates', label: t('form.dates', { range: format.dayRange(shown.range.from, shown.range.to) }) },
            ]}
            selectedKey={choice}
            onSelectionChange={(key) => setChoice(key as PeriodChoice)}
          />
        ) : (
          <p className="text-sm text-stone-800">{t('form.datesOnly', { range: format.dayRange(shown.range.from, shown.range.to) })}</p>
        ))}
      <Select
        name="visibility"
        label={t('form.visibility')}
        description={t('form.visibilityHint')}
        options={VISIBILITIES.map((v) => ({ id: v, label: t(`form.visibilities.${v}`) }))}
        selectedKey={visibility}
        onSelectionChange={(key) => setVisibility(key as Visibility)}
      />
      <Select
        name="schedule"
        label={t('form.schedule')}
        description={t('form.scheduleHint')}
        options={SCHEDULES.map((s) => ({ id: s, label: t(`form.schedules.${s}`) }))}
        selectedKey={schedule}
        onSelectionChange={(key) => setSchedule(key as Schedule)}
      />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" slot="close">
          {t('form.cancel')}
        </Button>
        <Button type="submit" isPending={mutation.isPending}>
          {saved ? t('form.save') : t('form.create')}
        </Button>
      </div>
    </Form>
  );
}
