import { useEffect, useId, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { cx, fieldDescription, fieldError } from '../../ui/styles.ts';
import { TextField } from '../../ui/TextField.tsx';
import { useCreateWebhookEndpoint, useUpdateWebhookEndpoint, type WebhookEndpoint, type WebhookEndpointPatch, type WithSecret } from './api.ts';
import { actionOf, groupEvents, normalized, withKind, withRecord, type EventKind } from './events.ts';
import { urlRefusalOf } from './refusals.ts';
import { useWebhookTexts } from './texts.ts';

const URL_MAX = 2000;
const DESCRIPTION_MAX = 500;

/**
 * "Add endpoint", or "Edit" on an endpoint: the form in a dialog. A new endpoint's answer
 * carries its secret, which `onCreated` hands on to be shown once.
 */
export function EndpointDialog({
  endpoint,
  onCreated,
  onSaved,
  variant,
}: {
  endpoint?: WebhookEndpoint;
  onCreated?: (created: WithSecret) => void;
  onSaved?: (saved: WebhookEndpoint) => void;
  variant?: 'primary' | 'secondary';
}) {
  const t = useWebhookTexts();
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant={variant ?? (endpoint ? 'secondary' : 'primary')} aria-label={endpoint ? t('editNamed', { url: endpoint.url }) : undefined}>
        {endpoint ? t('edit') : t('add')}
      </Button>
      <Dialog title={endpoint ? t('editTitle') : t('addTitle')} wide>
        <EndpointForm
          endpoint={endpoint}
          onCreated={(created) => {
            setOpen(false);
            onCreated?.(created);
          }}
          onSaved={(saved) => {
            setOpen(false);
            onSaved?.(saved);
          }}
        />
      </Dialog>
    </DialogTrigger>
  );
}

function EndpointForm({ endpoint, onCreated, onSaved }: { endpoint?: WebhookEndpoint; onCreated: (created: WithSecret) => void; onSaved: (saved: WebhookEndpoint) => void }) {
  const t = useWebhookTexts();
  const create = useCreateWebhookEndpoint();
  const update = useUpdateWebhookEndpoint();
  const keyFor = useIdempotencyKey();
  const mutation = endpoint ? update : create;
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<EventKind[]>(() => normalized(endpoint?.events ?? []));
  const [isActive, setIsActive] = useState(endpoint?.is_active ?? true);
  const [noEvents, setNoEvents] = useState(false);
  // A refusal is about the values sent: once one changes, its message goes.
  const { reset } = mutation;
  useEffect(() => reset(), [url, description, events, isActive, reset]);
  const { fieldErrors: refused, summary } = formErrors(mutation.error, ['url', 'description', 'events']);
  // A refused URL in the reader's words; other refusals read as the server wrote them.
  const refusal = urlRefusalOf(mutation.error);
  const fieldErrors = refusal ? { ...refused, url: t(`form.refusals.${refusal}`) } : refused;
  const eventsError = noEvents ? t('form.chooseEvents') : fieldErrors?.events;

  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        if (mutation.isPending) return;
        if (events.length === 0) return setNoEvents(true);
        const desc = description.trim() === '' ? null : description.trim();
        if (!endpoint) {
          const body = { url: url.trim(), description: desc, events, is_active: isActive };
          create.mutate({ body, key: keyFor(body) }, { onSuccess: onCreated });
          return;
        }
        // Only what changed: sending is_active again would clear why Sheaf turned it off.
        const body: WebhookEndpointPatch = {
          ...(url.trim() !== endpoint.url ? { url: url.trim() } : {}),
          ...(desc !== endpoint.description ? { description: desc } : {}),
          ...(events.join() !== normalized(endpoint.events).join() ? { events } : {}),
          ...(isActive !== endpoint.is_active ? { is_active: isActive } : {}),
        };
        if (Object.keys(body).length === 0) return onSaved(endpoint);
        update.mutate({ id: endpoint.id, body }, { onSuccess: onSaved });
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      <TextField
        name="url"
        label={t('form.url')}
        description={t('form.urlHint')}
        value={url}
        onChange={setUrl}
        isRequired
        maxLength={URL_MAX}
        inputMode="url"
        autoComplete="off"
        spellCheck="false"
        autoFocus={!endpoint}
      />
      <TextField name="description" label={t('form.description')} description={t('form.descriptionHint')} value={description} onChange={setDescription} maxLength={DESCRIPTION_MAX} />
      <EventsField
        value={events}
        error={eventsError}
        onChange={(next) => {
          setNoEvents(false);
          setEvents(next);
        }}
      />
      <div className="flex flex-col gap-1.5">
        <Checkbox isSelected={isActive} onChange={setIsActive} aria-describedby="webhook-active-hint">
          {t('form.active')}
        </Checkbox>
        <p id="webhook-active-hint" className={cx(fieldDescription, 'pl-7.5')}>
          {t('form.activeHint')}
        </p>
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" slot="close">
          {t('form.cancel')}
        </Button>
        <Button type="submit" isPending={mutation.isPending}>
          {endpoint ? t('form.save') : t('form.create')}
        </Button>
      </div>
    </Form>
  );
}

/** The event kinds as checkboxes, one group per record, each with its "select all". */
function EventsField({ value, error, onChange }: { value: EventKind[]; error?: string; onChange: (next: EventKind[]) => void }) {
  const t = useWebhookTexts();
  const id = useId();
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={`${id}-hint`}>
      <legend className="text-sm font-medium text-stone-800">{t('form.events')}</legend>
      {error ? (
        <p id={`${id}-hint`} role="alert" className={fieldError}>
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className={fieldDescription}>
          {t('form.eventsHint')}
        </p>
      )}
      <div className={cx('grid gap-3 sm:grid-cols-2', error && 'rounded-md ring-1 ring-red-600 ring-offset-4')}>
        {groupEvents(value).map((g) => {
          const record = t(`records.${g.record}`);
          return (
            <div key={g.record} role="group" aria-labelledby={`${id}-${g.record}`} className="flex flex-col gap-2 rounded-md border border-stone-200 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span id={`${id}-${g.record}`} className="text-sm font-semibold text-stone-900">
                  {record}
                </span>
                <Checkbox
                  className="text-xs text-stone-700"
                  aria-label={t('form.selectAllNamed', { record })}
                  isSelected={g.state === 'all'}
                  isIndeterminate={g.state === 'some'}
                  onChange={(on) => onChange(withRecord(value, g.record, on))}
                >
                  {t('form.selectAll')}
                </Checkbox>
              </div>
              <div className="flex flex-col gap-2">
                {g.kinds.map((kind) => (
                  <Checkbox key={kind} isSelected={g.chosen.includes(kind)} onChange={(on) => onChange(withKind(value, kind, on))}>
                    <span className="flex min-w-0 flex-wrap items-baseline gap-x-2">
                      <span>{t(`actions.${actionOf(kind)}`)}</span>
                      <code className="font-mono text-xs text-stone-600">{kind}</code>
                    </span>
                  </Checkbox>
                ))}
              </div>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
