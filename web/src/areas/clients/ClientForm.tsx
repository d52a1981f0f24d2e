import { useEffect, useState } from 'react';
import { Label, TextArea, TextField as AriaTextField } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { HttpError } from '../../api/call.ts';
import { formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { CountryField } from '../../ui/CountryField.tsx';
import { Form } from '../../ui/Form.tsx';
import { NumberField } from '../../ui/NumberField.tsx';
import { Select } from '../../ui/Select.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { cx, fieldLabel, inputBox } from '../../ui/styles.ts';
import type { ClientAccess } from './access.ts';
import { useCreateClient, useUpdateClient, type Client } from './api.ts';
import { changesOf, createOf, INVOICE_LANGUAGES, valuesOf, type InvoiceLanguage, type Values } from './client-values.ts';
import { StaleAlert } from './StaleAlert.tsx';
import { PAYMENT_TERMS, type PaymentTerms } from './terms.ts';
import { useClientTexts } from './texts.ts';
import { FieldErrorText } from '../../ui/FieldErrorText.tsx';

/** Every writable property of a client (src/modules/catalog/clients/routes.ts); an error naming another goes above the form. */
const FIELDS = ['name', 'address', 'currency', 'payment_terms', 'payment_days', 'tax', 'tax2', 'discount', 'language', 'vat_id', 'invoice_email', 'street', 'postal_code', 'city', 'country_code', 'buyer_reference', 'is_active'] as const;

const PERCENT = { maximumFractionDigits: 4 };
/**
 * Create or edit a client: every writable field; the API's message shows under the
 * field it names. An edit sends only the changed fields, with If-Match (a 412 offers
 * to reload); a create carries an Idempotency-Key (a retry or a double click saves once).
 */
export function ClientForm({ access, loaded, onReload }: { access: ClientAccess; loaded?: { client: Client; etag: string }; onReload?: () => void }) {
  const t = useClientTexts();
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
      aria-label={base ? t('form.editClient') : t('form.newClient')}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {stale && onReload && <StaleAlert onReload={onReload} />}
      {summary && <Alert>{summary}</Alert>}
      <TextField label={t('name')} name="name" value={values.name} onChange={set('name')} isRequired maxLength={255} description={t('form.nameHint')} />
      <AriaTextField name="address" value={values.address} onChange={set('address')} maxLength={2000} className="flex flex-col gap-1.5">
        <Label className={fieldLabel}>{t('address')}</Label>
        <TextArea rows={3} className={cx(inputBox, 'resize-y')} />
        <FieldErrorText />
      </AriaTextField>
      <TextField
        label={t('currency')}
        name="currency"
        value={values.currency}
        onChange={set('currency')}
        maxLength={3}
        description={t('form.currencyHint')}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <Select
          label={t('paymentTerms')}
          name="payment_terms"
          options={(['none', ...PAYMENT_TERMS] as const).map((id) => ({ id, label: t(`terms.${id}`) }))}
          selectedKey={values.payment_terms ?? 'none'}
          onSelectionChange={(key) => set('payment_terms')(key === 'none' ? null : (key as PaymentTerms))}
          description={t('form.termsHint')}
        />
        {values.payment_terms === 'custom' && (
          <NumberField
            label={t('form.daysUntilDue')}
            name="payment_days"
            value={values.payment_days}
            onChange={set('payment_days')}
            minValue={0}
            maxValue={365}
            formatOptions={{ maximumFractionDigits: 0 }}
            description={t('form.daysHint')}
          />
        )}
      </div>
      <div className="grid gap-5 sm:grid-cols-3">
        <NumberField label={t('form.taxPercent')} name="tax" value={values.tax} onChange={set('tax')} minValue={0} maxValue={100} formatOptions={PERCENT} />
        <NumberField label={t('form.secondTaxPercent')} name="tax2" value={values.tax2} onChange={set('tax2')} minValue={0} maxValue={100} formatOptions={PERCENT} />
        <NumberField label={t('form.discountPercent')} name="discount" value={values.discount} onChange={set('discount')} minValue={0} maxValue={100} formatOptions={PERCENT} />
      </div>
      <Select
        label={t('form.invoiceLanguage')}
        name="language"
        options={INVOICE_LANGUAGES.map((id) => ({ id, label: t(`form.languages.${id}`) }))}
        selectedKey={values.language}
        onSelectionChange={(key) => set('language')(key as InvoiceLanguage)}
        description={t('form.invoiceLanguageHint')}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label={t('form.vatId')} name="vat_id" value={values.vat_id} onChange={set('vat_id')} maxLength={50} description={t('form.vatIdHint')} />
        <TextField
          label={t('form.invoiceEmail')}
          name="invoice_email"
          type="email"
          value={values.invoice_email}
          onChange={set('invoice_email')}
          maxLength={320}
          description={t('form.invoiceEmailHint')}
        />
      </div>
      <fieldset className="flex flex-col gap-5 border-t border-stone-200 pt-5">
        <legend className="float-left w-full text-base font-semibold text-stone-900">{t('form.eInvoice')}</legend>
        <p className="-mt-3 text-sm text-stone-600">{t('form.eInvoiceHint')}</p>
        <TextField label={t('form.street')} name="street" value={values.street} onChange={set('street')} maxLength={255} />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label={t('form.postalCode')} name="postal_code" value={values.postal_code} onChange={set('postal_code')} maxLength={20} />
          <TextField label={t('form.city')} name="city" value={values.city} onChange={set('city')} maxLength={100} />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <CountryField label={t('form.country')} name="country_code" value={values.country_code} onChange={set('country_code')} description={t('form.countryHint')} />
          <TextField
            label={t('form.buyerReference')}
            name="buyer_reference"
            value={values.buyer_reference}
            onChange={set('buyer_reference')}
            maxLength={100}
            description={t('form.buyerReferenceHint')}
          />
        </div>
      </fieldset>
      {access.archives && (
        <Checkbox name="is_active" isSelected={values.is_active} onChange={set('is_active')}>
          {t('form.active')}
        </Checkbox>
      )}
      <div className="flex flex-wrap items-center gap-3 border-t border-stone-200 pt-5">
        <Button type="submit" isPending={create.isPending || update.isPending}>
          {base ? t('form.save') : t('form.create')}
        </Button>
        {!base && (
          <Button variant="secondary" onPress={() => navigate('/clients')}>
            {t('form.cancel')}
          </Button>
        )}
        <span role="status" className="text-sm text-stone-700">
          {saved ? t('form.saved') : ''}
        </span>
      </div>
    </Form>
  );
}
