import { useEffect, useState } from 'react';
import { FieldError, Label, TextArea, TextField as AriaTextField } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { HttpError } from '../../api/call.ts';
import { formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Form } from '../../ui/Form.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { cx, fieldError, fieldLabel, inputBox } from '../../ui/styles.ts';
import type { ClientAccess } from './access.ts';
import { useCreateClient, useUpdateClient, type Client } from './api.ts';
import { changesOf, createOf, INVOICE_LANGUAGES, valuesOf, type InvoiceLanguage, type Values } from './client-values.ts';
import { StaleAlert } from './StaleAlert.tsx';
import { PAYMENT_TERMS, type PaymentTerms } from './terms.ts';

/** Every writable property of a client (src/modules/clients/routes.ts); an error naming another goes above the form. */
const FIELDS = ['name', 'address', 'currency', 'payment_terms', 'payment_days', 'tax', 'tax2', 'discount', 'language', 'is_active'] as const;

const TERMS_OPTIONS = [{ id: 'none', label: 'Not set' }, ...PAYMENT_TERMS];

const PERCENT = { maximumFractionDigits: 4 };
/**
 * Create or edit a client: every writable field; the API's message shows under the
 * field it names. An edit sends only the changed fields, with If-Match (a 412 offers
 * to reload); a create carries an Idempotency-Key (a retry or a double click saves once).
 */
export function ClientForm({ access, loaded, onReload }: { access: ClientAccess; loaded?: { client: Client; etag: string }; onReload?: () => void }) {
  const navigate = useNavigate();
  const create = useCreateClient();
  // The version this form edits: what was loaded, then what each save returned.
  const [base, setBase] = useState(loaded);
  const update = useUpdateClient(loaded?.client.id ?? '');
  const keyFor = useIdempotencyKey();
  const [values, setValues] = useState<Values>(() => valuesOf(loaded?.client));
  const [saved, setSaved] = useState(false);
  const set = <K extends keyof Values>(key: K) => (value: Values[K]) => {
    setSaved(false);
    setValues((v) => ({ ...v, [key]: value }));
  };

  // A refusal is about the values sent: once one changes, its message goes.
  const { reset: resetCreate } = create;
  const { reset: resetUpdate } = update;
  useEffect(() => {
    resetCreate();
    resetUpdate();
  }, [values, resetCreate, resetUpdate]);

  const error = create.error ?? update.error;
  const stale = error instanceof HttpError && error.status === 412;
  const { fieldErrors, summary } = formErrors(stale ? null : error, values.payment_terms === 'custom' ? FIELDS : FIELDS.filter((f) => f !== 'payment_days'));

  const submit = () => {
    if (!base) {
      const body = createOf(values, access);
      create.mutate({ body, key: keyFor(body) }, { onSuccess: (client) => navigate(`/clients/${client.id}`) });
      return;
    }
    const changes = changesOf(base.client, values, access);
    if (Object.keys(changes).length === 0) return setSaved(true);
    update.mutate(
      { changes, etag: base.etag },
      {
        onSuccess: (fresh) => {
          setBase(fresh);
          setValues(valuesOf(fresh.client));
          setSaved(true);
        },
      },
    );
  };

  return (
    <Form
      validationErrors={fieldErrors}
      aria-label={base ? 'Edit client' : 'New client'}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {stale && onReload && <StaleAlert onReload={onReload} />}
      {summary && <Alert>{summary}</Alert>}
      <TextField label="Name" name="name" value={values.name} onChange={set('name')} isRequired maxLength={255} description="Unique in the workspace." />
      <AriaTextField name="address" value={values.address} onChange={set('address')} maxLength={2000} className="flex flex-col gap-1.5">
        <Label className={fieldLabel}>Address</Label>
        <TextArea rows={3} className={cx(inputBox, 'resize-y')} />
        <FieldError className={fieldError} />
      </AriaTextField>
      <TextField
        label="Currency"
        name="currency"
        value={values.currency}
        onChange={set('currency')}
        maxLength={3}
        description="A three-letter code such as EUR or USD. Leave it empty to use the workspace currency."
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <Select
          label="Payment terms"
          name="payment_terms"
          options={TERMS_OPTIONS}
          selectedKey={values.payment_terms ?? 'none'}
          onSelectionChange={(key) => set('payment_terms')(key === 'none' ? null : (key as PaymentTerms))}
          description="The default due date of this client’s invoices."
        />
        {values.payment_terms === 'custom' && (
          <NumberField
            label="Days until due"
            name="payment_days"
            value={values.payment_days}
            onChange={set('payment_days')}
            minValue={0}
            maxValue={365}
            formatOptions={{ maximumFractionDigits: 0 }}
            description="Custom terms need a number of days, from 0 to 365."
          />
        )}
      </div>
      <div className="grid gap-5 sm:grid-cols-3">
        <NumberField label="Tax (%)" name="tax" value={values.tax} onChange={set('tax')} minValue={0} maxValue={100} formatOptions={PERCENT} />
        <NumberField label="Second tax (%)" name="tax2" value={values.tax2} onChange={set('tax2')} minValue={0} maxValue={100} formatOptions={PERCENT} />
        <NumberField label="Discount (%)" name="discount" value={values.discount} onChange={set('discount')} minValue={0} maxValue={100} formatOptions={PERCENT} />
      </div>
      <Select
        label="Invoice language"
        name="language"
        options={INVOICE_LANGUAGES}
        selectedKey={values.language}
        onSelectionChange={(key) => set('language')(key as InvoiceLanguage)}
        description="The language of this client’s invoice PDFs and the default texts of their invoice e-mails."
      />
      {access.archives && (
        <Checkbox name="is_active" isSelected={values.is_active} onChange={set('is_active')}>
          Active (an archived client leaves the lists of active clients)
        </Checkbox>
      )}
      <div className="flex flex-wrap items-center gap-3 border-t border-stone-200 pt-5">
        <Button type="submit" isPending={create.isPending || update.isPending}>
          {base ? 'Save client' : 'Create client'}
        </Button>
        {!base && (
          <Button variant="secondary" onPress={() => navigate('/clients')}>
            Cancel
          </Button>
        )}
        <span role="status" className="text-sm text-stone-700">
          {saved ? 'Saved.' : ''}
        </span>
      </div>
    </Form>
  );
}
