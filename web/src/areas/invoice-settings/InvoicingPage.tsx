import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FileTrigger } from 'react-aria-components';
import { describeError, formErrors } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { CountryField } from '../../ui/CountryField.tsx';
import { Form } from '../../ui/Form.tsx';
import { fieldsOf } from '../../ui/form-data.ts';
import { Link } from '../../ui/Link.tsx';
import { Select } from '../../ui/Select.tsx';
import { SettingsPage, SettingsSection } from '../../ui/SettingsSection.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '../../../../src/modules/billing/invoice-settings/logo-limits.ts';
import { invoiceSettingsQuery, logoUrl, useRemoveLogo, useUpdateInvoiceSettings, useUploadLogo, type InvoiceSettings, type InvoiceSettingsPatch } from './api.ts';
import { nextNumberExample, numberFormatProblem } from './next-number.ts';
import { useInvoiceSettingsTexts } from './texts.ts';

const TERMS = ['none', 'upon_receipt', 'net_15', 'net_30', 'net_45', 'net_60', 'custom'] as const;
type Term = (typeof TERMS)[number];

export const FIELDS = [
  'legal_name',
  'vat_id',
  'registration_number',
  'default_payment_term',
  'default_payment_days',
  'default_notes',
  'footer',
  'number_format',
  'next_number',
  'yearly_reset',
  'street',
  'postal_code',
  'city',
  'country_code',
  'contact_name',
  'vat_exemption_reason',
];

/** Settings → Invoicing (owners and administrators): the seller, the logo, the defaults of new invoices, the numbers. */
export function InvoicingPage() {
  const query = useQuery(invoiceSettingsQuery);
  const t = useInvoiceSettingsTexts();
  return (
    <SettingsPage
      heading={t('heading')}
      intro={t('intro')}
      error={query.isError ? describeError(query.error).message : null}
      data={query.data}
      loading={t('loading')}
      placeholder="h-[44rem]"
    >
      {(settings) => (
        <>
          <LogoSection settings={settings} />
          <SettingsForm settings={settings} />
        </>
      )}
    </SettingsPage>
  );
}

function LogoSection({ settings }: { settings: InvoiceSettings }) {
  const t = useInvoiceSettingsTexts();
  const upload = useUploadLogo();
  const remove = useRemoveLogo();
  const [done, setDone] = useState<'logoSaved' | 'logoRemoved' | null>(null);
  const error = upload.error ?? remove.error;
  const logo = settings.logo;
  return (
    <SettingsSection id="section-logo" title={t('logo')} description={t('logoHint', { size: LOGO_MAX_BYTES / 1024 })}>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <div className="flex h-24 w-full items-center justify-center rounded-md border border-stone-200 bg-stone-50 p-3 sm:w-64">
          {logo ? (
            <img src={logoUrl(logo)} alt={t('logoAlt')} className="max-h-full max-w-full object-contain" />
          ) : (
            <span className="text-sm text-stone-600">{t('noLogo')}</span>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <FileTrigger
            acceptedFileTypes={[...LOGO_TYPES]}
            onSelect={(files) => {
              const file = files?.[0];
              if (!file) return;
              setDone(null);
              remove.reset();
              upload.mutate(file, { onSuccess: () => setDone('logoSaved') });
            }}
          >
            <Button variant="secondary" isPending={upload.isPending}>
              {logo ? t('replaceLogo') : t('uploadLogo')}
            </Button>
          </FileTrigger>
          {logo && (
            <Button
              variant="secondary"
              isPending={remove.isPending}
              onPress={() => {
                setDone(null);
                upload.reset();
                remove.mutate(undefined, { onSuccess: () => setDone('logoRemoved') });
              }}
            >
              {t('removeLogo')}
            </Button>
          )}
        </div>
      </div>
      {error && (
        <div className="mt-4">
          <Alert>{describeError(error).message}</Alert>
        </div>
      )}
      {done && !error && (
        <p role="status" className="mt-3 text-sm text-emerald-800">
          {t(done)}
        </p>
      )}
    </SettingsSection>
  );
}

/** What the page checks before sending (the server checks the same and names the field). */
function problemsOf(body: InvoiceSettingsPatch, t: ReturnType<typeof useInvoiceSettingsTexts>): Record<string, string> {
  const out: Record<string, string> = {};
  if (body.number_format && numberFormatProblem(body.number_format)) out.number_format = t('problems.number_format');
  if (body.next_number !== undefined && (!Number.isInteger(body.next_number) || body.next_number < 1)) out.next_number = t('problems.next_number');
  if (body.default_payment_term === 'custom') {
    const days = body.default_payment_days;
    if (days === null || days === undefined || !Number.isInteger(days) || days < 0 || days > 365) out.default_payment_days = t('problems.default_payment_days');
  }
  if (body.yearly_reset && !body.number_format?.includes('{YYYY}')) out.yearly_reset = t('problems.yearly_reset');
  return out;
}

function SettingsForm({ settings }: { settings: InvoiceSettings }) {
  const t = useInvoiceSettingsTexts();
  const update = useUpdateInvoiceSettings();
  const [saved, setSaved] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [term, setTerm] = useState<Term>(settings.default_payment_term ?? 'none');
  const [format, setFormat] = useState(settings.number_format ?? '');
  const [next, setNext] = useState(String(settings.next_number));
  const [reset, setReset] = useState(settings.yearly_reset);
  const [country, setCountry] = useState(settings.country_code);
  const server = formErrors(update.error, FIELDS);
  const fieldErrors = { ...problems, ...server.fieldErrors };
  const example = nextNumberExample(format, Number(next), new Date().getFullYear());
  const workspaceRows: [string, string | null][] = [
    [t('address'), settings.address],
    [t('taxId'), settings.tax_id],
    [t('senderEmail'), settings.sender_email],
    [t('senderPhone'), settings.sender_phone],
  ];

  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        const f = fieldsOf(event);
        const hasFormat = format.trim() !== '';
        const body: InvoiceSettingsPatch = {
          legal_name: f.legal_name.trim() || null,
          vat_id: f.vat_id.trim() || null,
          registration_number: f.registration_number.trim() || null,
          default_payment_term: term === 'none' ? null : term,
          default_payment_days: term === 'custom' ? Number(f.default_payment_days) : null,
          default_notes: f.default_notes.trim() ? f.default_notes : null,
          footer: f.footer.trim() ? f.footer : null,
          number_format: hasFormat ? format.trim() : null,
          // The running number and the yearly restart belong to a format; without one they are left as they are.
          ...(hasFormat ? { next_number: Number(next), yearly_reset: reset } : {}),
          street: f.street.trim() || null,
          postal_code: f.postal_code.trim() || null,
          city: f.city.trim() || null,
          country_code: country,
          contact_name: f.contact_name.trim() || null,
          vat_exemption_reason: f.vat_exemption_reason.trim() || null,
        };
        // An unchanged running number is not sent: setting it restarts the year's count from it.
        if (body.next_number === settings.next_number) delete body.next_number;
        const found = problemsOf(body, t);
        setProblems(found);
        setSaved(false);
        if (Object.keys(found).length || update.isPending) return;
        update.mutate(body, { onSuccess: () => setSaved(true) });
      }}
    >
      {server.summary && <Alert>{server.summary}</Alert>}
      <SettingsSection id="section-seller" title={t('seller')} description={t('sellerHint')}>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            name="legal_name"
            label={t('legalName')}
            description={t('legalNameHint', { name: settings.workspace_name })}
            defaultValue={settings.legal_name ?? ''}
            maxLength={255}
            className="sm:col-span-2"
          />
          <TextField name="vat_id" label={t('vatId')} defaultValue={settings.vat_id ?? ''} maxLength={50} />
          <TextField
            name="registration_number"
            label={t('registrationNumber')}
            description={t('registrationNumberHint')}
            defaultValue={settings.registration_number ?? ''}
            maxLength={100}
          />
        </div>
        <div className="mt-6 rounded-md bg-stone-50 p-4">
          <h3 className="text-sm font-medium text-stone-900">{t('fromWorkspace')}</h3>
          <p className="mt-1 text-sm text-stone-600">
            {t('fromWorkspaceHint')} <Link href="/settings/workspace">{t('workspaceLink')}</Link>.
          </p>
          <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
            {workspaceRows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-stone-600">{label}</dt>
                <dd className="whitespace-pre-line text-stone-900">{value || t('none')}</dd>
              </div>
            ))}
          </dl>
        </div>
      </SettingsSection>

      <SettingsSection id="section-e-invoice" title={t('eInvoice')} description={t('eInvoiceHint')}>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField name="street" label={t('street')} description={t('streetHint')} defaultValue={settings.street ?? ''} maxLength={255} className="sm:col-span-2" />
          <TextField name="postal_code" label={t('postalCode')} defaultValue={settings.postal_code ?? ''} maxLength={20} />
          <TextField name="city" label={t('city')} defaultValue={settings.city ?? ''} maxLength={100} />
          <CountryField name="country_code" label={t('country')} value={country} onChange={setCountry} description={t('countryHint')} />
          <TextField name="contact_name" label={t('contactName')} description={t('contactNameHint')} defaultValue={settings.contact_name ?? ''} maxLength={255} />
          <TextField
            name="vat_exemption_reason"
            label={t('vatExemptionReason')}
            description={t('vatExemptionReasonHint')}
            defaultValue={settings.vat_exemption_reason ?? ''}
            maxLength={255}
            className="sm:col-span-2"
          />
        </div>
      </SettingsSection>

      <SettingsSection id="section-defaults" title={t('defaults')} description={t('defaultsHint')}>
        <div className="grid gap-5 sm:grid-cols-2">
          <Select
            name="default_payment_term"
            label={t('paymentTerm')}
            description={t('paymentTermHint')}
            options={TERMS.map((id) => ({ id, label: t(`terms.${id}`) }))}
            selectedKey={term}
            onSelectionChange={(key) => setTerm(key as Term)}
          />
          {term === 'custom' && (
            <TextField
              name="default_payment_days"
              type="number"
              inputMode="numeric"
              label={t('paymentDays')}
              description={t('paymentDaysHint')}
              defaultValue={settings.default_payment_days === null ? '' : String(settings.default_payment_days)}
              isRequired
            />
          )}
          <TextArea name="default_notes" label={t('notes')} description={t('notesHint')} defaultValue={settings.default_notes ?? ''} className="sm:col-span-2" />
          <TextArea name="footer" label={t('footer')} description={t('footerHint')} defaultValue={settings.footer ?? ''} className="sm:col-span-2" />
        </div>
      </SettingsSection>

      <SettingsSection id="section-numbering" title={t('numbering')} description={t('numberingHint')}>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            name="number_format"
            label={t('numberFormat')}
            description={t('numberFormatHint')}
            value={format}
            onChange={setFormat}
            maxLength={40}
            placeholder="{YYYY}-{NNNN}"
            className="sm:col-span-2"
          />
          <TextField
            name="next_number"
            type="number"
            inputMode="numeric"
            label={t('nextNumber')}
            description={t('nextNumberHint')}
            value={next}
            onChange={setNext}
            isDisabled={!format.trim()}
          />
          <div className="flex flex-col justify-center gap-1 sm:pt-6">
            <Switch name="yearly_reset" isSelected={reset} onChange={setReset} isDisabled={!format.trim()}>
              {t('yearlyReset')}
            </Switch>
            <p className="pl-13 text-sm text-stone-600">{t('yearlyResetHint')}</p>
            {fieldErrors.yearly_reset && <p className="pl-13 text-sm text-red-700">{fieldErrors.yearly_reset}</p>}
          </div>
        </div>
        <p aria-live="polite" className="mt-5 rounded-md bg-teal-50 px-4 py-3 text-sm font-medium text-teal-900">
          {example ? t('example', { number: example }) : format.trim() ? t('exampleIncomplete') : t('exampleDigits')}
        </p>
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
