import { Type, type Static } from '@sinclair/typebox';
import { Nullable, patchBody } from '../../../http/schemas.ts';
import { NEXT_NUMBER_MAX, NUMBER_FORMAT_MAX } from './number-format.ts';
import { PAYMENT_TERMS } from './rules.ts';

const Text = (maxLength: number, description: string) => Nullable(Type.String({ maxLength, description }));

/** The writable settings; a change sends any of them, at least one. */
export const writable = {
  legal_name: Text(255, 'The seller\u2019s legal name on invoices; null prints the workspace name.'),
  vat_id: Text(50, 'The seller\u2019s VAT id.'),
  registration_number: Text(100, 'The company registration number (e.g. a commercial register entry).'),
  default_payment_term: Nullable(
    Type.Unsafe<(typeof PAYMENT_TERMS)[number]>({ type: 'string', enum: [...PAYMENT_TERMS], description: 'For clients without payment terms; `custom` takes `default_payment_days`.' }),
  ),
  default_payment_days: Nullable(Type.Integer({ minimum: 0, maximum: 365 })),
  default_notes: Text(10_000, 'The notes of an invoice created without notes.'),
  footer: Text(2000, 'Printed at the foot of every page of the invoice PDF.'),
  number_format: Text(NUMBER_FORMAT_MAX, 'New invoice numbers: {YYYY} the issue year, {NNNN} the sequence number zero-padded; null: the next all-digit number.'),
  next_number: Type.Integer({ minimum: 1, maximum: NEXT_NUMBER_MAX, description: 'The sequence number of the next invoice (a taken one is skipped).' }),
  yearly_reset: Type.Boolean({ description: 'Start the sequence at 1 in each new issue year (needs {YYYY} in the format).' }),
  street: Text(255, 'The seller\u2019s street and number on e-invoices (BT-35).'),
  postal_code: Text(20, 'The seller\u2019s post code on e-invoices (BT-38).'),
  city: Text(100, 'The seller\u2019s city on e-invoices (BT-37).'),
  country_code: Text(2, 'The seller\u2019s country, ISO 3166-1 alpha-2 (BT-40); required for e-invoices.'),
  contact_name: Text(255, 'The seller\u2019s contact person on e-invoices (BT-41; XRechnung requires it).'),
  vat_exemption_reason: Text(255, 'Why lines without tax are exempt (BT-120), e.g. a small-business rule; required for e-invoices with such lines.'),
};

export const InvoiceSettingsPatchBody = patchBody(writable);
export type InvoiceSettingsPatch = Static<typeof InvoiceSettingsPatchBody>;

export const LogoSchema = Type.Object(
  {
    content_type: Type.String(),
    byte_size: Type.Integer(),
    filename: Type.String(),
    uploaded_at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

export const InvoiceSettingsSchema = Type.Object(
  {
    ...writable,
    logo: Nullable(LogoSchema),
    workspace_name: Type.String({ description: 'Read-only: the workspace settings\u2019 name (printed when legal_name is null).' }),
    address: Nullable(Type.String({ description: 'Read-only here: the workspace settings\u2019 address.' })),
    tax_id: Nullable(Type.String({ description: 'Read-only here: the workspace settings\u2019 tax id.' })),
    sender_email: Nullable(Type.String()),
    sender_phone: Nullable(Type.String()),
    updated_at: Nullable(Type.String({ format: 'date-time', description: 'null until the settings are first saved.' })),
  },
  { additionalProperties: false },
);
