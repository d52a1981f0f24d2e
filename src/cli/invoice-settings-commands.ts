import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { operatorPrincipal } from '../access/operator.ts';
import {
  getInvoiceSettings,
  updateInvoiceSettings,
  type InvoiceSettingsPatch,
  type LogoUpload,
  type PresentedInvoiceSettings,
} from '../modules/billing/invoice-settings/index.ts';
import { getWorkspace } from '../modules/workspace/settings/index.ts';
import type { AdminCommand } from './admin.ts';
import type { Values } from './command.ts';
import { str } from './command.ts';
import { fields, print, UsageError } from './output.ts';
import { bool, workspaceOption } from './options.ts';

/**
 * `sheaf admin invoice-settings show|set`: a workspace's invoice settings, by the
 * same service and rules as Settings -> Invoicing (the operator acts as an owner).
 * A text option given as "" clears the setting; `--logo PATH` uploads a PNG, JPEG
 * or SVG file, `--logo none` removes the logo.
 */

/** The human view: one line per own setting (not the workspace's facts shown with them); the logo as its description. */
function view(s: PresentedInvoiceSettings) {
  const { logo, workspace_name: _name, address: _address, tax_id: _taxId, sender_email: _email, sender_phone: _phone, updated_at: _updated, ...own } = s;
  return fields({ ...own, logo: logo ? `${logo.filename} (${logo.content_type}, ${logo.byte_size} bytes)` : null });
}

const TEXT_OPTIONS = {
  'legal-name': 'legal_name',
  'vat-id': 'vat_id',
  'registration-number': 'registration_number',
  notes: 'default_notes',
  footer: 'footer',
  'number-format': 'number_format',
  street: 'street',
  'postal-code': 'postal_code',
  city: 'city',
  country: 'country_code',
  'contact-name': 'contact_name',
  'vat-exemption-reason': 'vat_exemption_reason',
} as const;

/** The settings named on the command line (the service checks their values). */
function changesFrom(values: Values): InvoiceSettingsPatch {
  const out: InvoiceSettingsPatch = {};
  for (const [option, key] of Object.entries(TEXT_OPTIONS)) {
    const v = values[option];
    if (v !== undefined) out[key] = v === '' ? null : v;
  }
  const term = values['payment-term'];
  if (term !== undefined) out.default_payment_term = term === '' || term === 'none' ? null : (term as InvoiceSettingsPatch['default_payment_term']);
  for (const [option, key] of [['payment-days', 'default_payment_days'], ['next-number', 'next_number']] as const) {
    const v = values[option];
    if (v === undefined) continue;
    if (!/^\d{1,9}$/.test(v)) throw new UsageError(`--${option} must be a whole number, not '${v}'.`);
    out[key] = Number(v);
  }
  const reset = bool(values, 'yearly-reset');
  if (reset !== undefined) out.yearly_reset = reset;
  return out;
}

const SET_USAGE =
  '--workspace ID [--legal-name T] [--vat-id T] [--registration-number T] [--payment-term TERM|none] [--payment-days N] ' +
  '[--notes T] [--footer T] [--number-format F] [--next-number N] [--yearly-reset B] [--logo PATH|none] ' +
  '[--street T] [--postal-code T] [--city T] [--country CC] [--contact-name T] [--vat-exemption-reason T]';

export const invoiceSettingsCommands: Record<string, AdminCommand<any>> = {
  show: {
    name: 'admin invoice-settings show',
    usage: '--workspace ID',
    summary: "show a workspace's invoice settings",
    options: { workspace: str },
    parse: (values) => ({ id: workspaceOption(values) }),
    async run({ db, output }, input: { id: string }) {
      await getWorkspace(db, input.id);
      const settings = await getInvoiceSettings(db, operatorPrincipal(input.id));
      print(output, settings, () => view(settings));
    },
  },
  set: {
    name: 'admin invoice-settings set',
    usage: SET_USAGE,
    summary: "change a workspace's invoice settings, and its invoice logo from a file",
    options: {
      workspace: str,
      ...Object.fromEntries(Object.keys(TEXT_OPTIONS).map((o) => [o, str])),
      'payment-term': str,
      'payment-days': str,
      'next-number': str,
      'yearly-reset': str,
      logo: str,
    },
    parse(values) {
      const changes = changesFrom(values);
      const logo = values.logo;
      if (logo === '') throw new UsageError('--logo needs a file path, or none to remove the logo.');
      if (Object.keys(changes).length === 0 && logo === undefined) throw new UsageError('Name at least one setting to change.');
      return { id: workspaceOption(values), changes, logo };
    },
    async run({ db, output, clock }, input: { id: string; changes: InvoiceSettingsPatch; logo?: string }) {
      await getWorkspace(db, input.id);
      const p = operatorPrincipal(input.id);
      let logo: LogoUpload | null | undefined;
      if (input.logo === 'none') logo = null;
      else if (input.logo !== undefined) {
        const path = input.logo;
        const data = await readFile(path).catch((err: NodeJS.ErrnoException) => {
          throw new UsageError(`--logo: cannot read '${path}' (${err.code ?? err.message}).`);
        });
        logo = { filename: basename(path), contentType: undefined, data };
      }
      const settings = await updateInvoiceSettings(db, p, input.changes, clock(), { logo });
      print(output, settings, () => view(settings));
    },
  },
};
