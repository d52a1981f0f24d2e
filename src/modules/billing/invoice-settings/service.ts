import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { mayUseInvoices } from '../../../access/invoices.ts';
import { isAdmin } from '../../../access/policy.ts';
import { auditActor } from '../../../access/operator.ts';
import type { DB } from '../../../db/types.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import { badRequest, forbidden, notFound } from '../../../errors.ts';
import { audit } from '../../workspace/audit/index.ts';
import { deleteFile, readFile, storeFile } from '../../workspace/files/index.ts';
import { presentSettings, type PresentedInvoiceSettings } from './presenter.ts';
import { findSettings, logoInfo, upsertSettings, workspaceFacts, type SettingsRow } from './queries.ts';
import { applySettings, DEFAULT_SETTINGS, type InvoiceSettingsState } from './rules.ts';
import type { InvoiceSettingsPatch } from './schemas.ts';
import { NEXT_NUMBER_MAX } from './number-format.ts';

/**
 * A workspace's invoice settings. Whoever may use invoices (owners,
 * administrators, managers: access/invoices.ts) reads them, as creating an
 * invoice applies them; owners and administrators change them, as they change
 * the workspace settings the invoice also prints (the seller's identity is the
 * workspace's, not one manager's). The CLI's operator acts as an owner.
 */

function assertMayRead(p: Principal) {
  if (!mayUseInvoices(p)) throw forbidden('Invoice settings are for owners, administrators and managers.');
}

function assertMayChange(p: Principal) {
  if (!isAdmin(p)) throw forbidden('Only owners and administrators change the invoice settings.');
}

const stateOf = (row: SettingsRow | undefined): InvoiceSettingsState => {
  if (!row) return DEFAULT_SETTINGS;
  const { updated_at: _updatedAt, ...state } = row;
  return state;
};

/** The settings in force (the defaults when never saved), inside the caller's transaction. */
export async function invoiceSettingsOf(trx: Tx, companyId: string, { lock = false } = {}): Promise<InvoiceSettingsState> {
  return stateOf(await findSettings(trx, companyId, { lock }));
}

async function present(trx: Tx, companyId: string): Promise<PresentedInvoiceSettings> {
  const row = await findSettings(trx, companyId);
  const logo = row?.logo_file_id ? await logoInfo(trx, companyId, row.logo_file_id) : undefined;
  return presentSettings(stateOf(row), row?.updated_at ?? null, await workspaceFacts(trx, companyId), logo ?? null);
}

export async function getInvoiceSettings(db: Kysely<DB>, p: Principal): Promise<PresentedInvoiceSettings> {
  assertMayRead(p);
  return withTenant(db, p.companyId, (trx) => present(trx, p.companyId));
}

/**
 * Changes any of the writable settings and, with `logo`, replaces (an upload) or
 * removes (null) the logo, in one transaction: a 400 on any of them changes nothing.
 */
export async function updateInvoiceSettings(
  db: Kysely<DB>,
  p: Principal,
  input: InvoiceSettingsPatch,
  now: Date,
  { logo }: { logo?: LogoUpload | null } = {},
): Promise<PresentedInvoiceSettings> {
  assertMayChange(p);
  if (Object.keys(input).length === 0 && logo === undefined) throw badRequest('Send at least one setting to change.');
  // Loaded on first use: jsdom and DOMPurify are only needed when a logo arrives.
  const checked = logo ? await checkUpload(logo) : logo;
  return withTenant(db, p.companyId, async (trx) => {
    const row = await findSettings(trx, p.companyId, { lock: true });
    const changes = applySettings(stateOf(row), input);
    if (Object.keys(changes).length > 0) {
      await upsertSettings(trx, p.companyId, changes, now);
      await audit(trx, { ...auditActor(p), action: 'invoice_settings.updated', subjectType: 'invoice_settings', details: { changed: Object.keys(changes) } });
    }
    if (checked !== undefined) await replaceLogo(trx, p, row?.logo_file_id ?? null, checked, now);
    return present(trx, p.companyId);
  });
}

export interface StoredLogo {
  filename: string;
  content_type: string;
  data: Buffer;
}

export interface LogoUpload {
  filename: string;
  contentType: string | undefined;
  data: Buffer;
}

/** Checks an upload (logo.ts: type, size, SVG cleaning) before any transaction starts. */
async function checkUpload(upload: LogoUpload): Promise<StoredLogo> {
  const { checkLogo, logoFileName } = await import('./logo.ts');
  const logo = checkLogo(upload.data, upload.contentType);
  return { filename: logoFileName(upload.filename, logo.contentType), content_type: logo.contentType, data: logo.data };
}

/** Stores the new logo (or none) and drops the file of the one it replaces. */
async function replaceLogo(trx: Tx, p: Principal, currentFileId: string | null, logo: StoredLogo | null, now: Date) {
  if (!logo && !currentFileId) return;
  const file = logo ? await storeFile(trx, p.companyId, { filename: logo.filename, contentType: logo.content_type, data: logo.data }, now) : null;
  await upsertSettings(trx, p.companyId, { logo_file_id: file?.id ?? null }, now);
  if (currentFileId) await deleteFile(trx, p.companyId, currentFileId);
  await audit(trx, {
    ...auditActor(p),
    action: file ? 'invoice_settings.logo_set' : 'invoice_settings.logo_removed',
    subjectType: 'invoice_settings',
    details: file ? { content_type: file.content_type, byte_size: file.byte_size } : {},
  });
}

/** Stores a new logo, replacing the one before (a refused file writes nothing). */
export const setInvoiceLogo = (db: Kysely<DB>, p: Principal, upload: LogoUpload, now: Date) => updateInvoiceSettings(db, p, {}, now, { logo: upload });

/** Removes the logo (none to remove is not an error: the result is the same). */
export const removeInvoiceLogo = (db: Kysely<DB>, p: Principal, now: Date) => updateInvoiceSettings(db, p, {}, now, { logo: null });

/** The logo's bytes and type, inside the caller's transaction, or undefined when there is none. */
export async function invoiceLogoOf(trx: Tx, companyId: string): Promise<StoredLogo | undefined> {
  const row = await findSettings(trx, companyId);
  if (!row?.logo_file_id) return undefined;
  const file = await readFile(trx, companyId, row.logo_file_id);
  return file && { filename: file.filename, content_type: file.content_type, data: file.data };
}

/** The logo for the settings page's preview (404 when there is none). */
export async function getInvoiceLogo(db: Kysely<DB>, p: Principal): Promise<StoredLogo> {
  assertMayRead(p);
  const logo = await withTenant(db, p.companyId, (trx) => invoiceLogoOf(trx, p.companyId));
  if (!logo) throw notFound('logo');
  return logo;
}

/**
 * After numbering gave a new invoice sequence number `used` of `year`: the next
 * one follows it. Called under the numbering lock, in the invoice's transaction,
 * so a rollback takes the step back too.
 */
export async function advanceNumbering(trx: Tx, companyId: string, used: number, year: number, now: Date) {
  await upsertSettings(trx, companyId, { next_number: Math.min(used + 1, NEXT_NUMBER_MAX), number_year: year }, now);
}
