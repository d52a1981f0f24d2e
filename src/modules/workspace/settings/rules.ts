import type { Static } from '@sinclair/typebox';
import { IANAZone } from 'luxon';
import { badRequest } from '../../../errors.ts';
import type { CompanyUpdate } from '../../../db/types.ts';
import { isCurrencyCode } from '../../../money.ts';
import type { WorkspacePatch } from './schemas.ts';
import { isEmailAddress } from '../../../email-address.ts';

/** The workspace settings an operator may change (the web app's change), and their rules (DESIGN.md). */
export type WorkspaceSettingsInput = Static<typeof WorkspacePatch>;

export const SETTING_NAMES = [
  'name',
  'address',
  'timezone',
  'currency',
  'week_start',
  'rounding',
  'rounding_minutes',
  'approvals_enabled',
  'allow_past_timer_starts',
  'invoice_before_approval',
  'require_two_factor',
  'sender_email',
  'sender_phone',
  'tax_id',
] as const satisfies ReadonlyArray<keyof WorkspaceSettingsInput>;

const PHONE = /^\+?[0-9 ()./-]{3,50}$/;

/** A short optional text setting: trimmed, and '' or null clears it. */
function optionalText(value: unknown, field: string, max: number): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || value.trim().length > max) throw badRequest(`${field} must be at most ${max} characters.`, { field });
  return value.trim() || null;
}

const BOOLEAN_SETTINGS = ['approvals_enabled', 'allow_past_timer_starts', 'invoice_before_approval', 'require_two_factor'] as const;

/** Checks a settings change and returns the columns to write; throws a 400 naming the field. */
export function validateSettings(input: WorkspaceSettingsInput): CompanyUpdate {
  const out: CompanyUpdate = {};
  for (const key of Object.keys(input)) {
    if (!(SETTING_NAMES as readonly string[]).includes(key)) throw badRequest(`Unknown setting '${key}'.`, { field: key });
  }
  if (input.name !== undefined) {
    if (typeof input.name !== 'string' || !input.name.trim() || input.name.length > 255) {
      throw badRequest('name must be 1 to 255 characters.', { field: 'name' });
    }
    out.name = input.name.trim();
  }
  if (input.address !== undefined) {
    if (input.address !== null && (typeof input.address !== 'string' || input.address.length > 2000)) {
      throw badRequest('address must be at most 2000 characters.', { field: 'address' });
    }
    out.address = input.address;
  }
  if (input.timezone !== undefined) {
    if (typeof input.timezone !== 'string' || !IANAZone.isValidZone(input.timezone)) {
      throw badRequest(`timezone must be an IANA time zone such as Europe/Berlin.`, { field: 'timezone' });
    }
    out.timezone = input.timezone;
  }
  if (input.currency !== undefined) {
    if (!isCurrencyCode(input.currency)) throw badRequest('currency must be an ISO 4217 code such as EUR.', { field: 'currency' });
    out.currency = input.currency;
  }
  if (input.week_start !== undefined) {
    if (!['monday', 'sunday', 'saturday'].includes(input.week_start)) {
      throw badRequest('week_start must be monday, sunday or saturday.', { field: 'week_start' });
    }
    out.week_start = input.week_start;
  }
  if (input.rounding !== undefined) {
    if (!['none', 'up', 'nearest', 'down'].includes(input.rounding)) {
      throw badRequest('rounding must be none, up, nearest or down.', { field: 'rounding' });
    }
    out.rounding = input.rounding;
  }
  if (input.rounding_minutes !== undefined) {
    const m = input.rounding_minutes;
    if (!Number.isInteger(m) || m < 1 || m > 60) {
      throw badRequest('rounding_minutes must be a whole number from 1 to 60.', { field: 'rounding_minutes' });
    }
    out.rounding_minutes = m;
  }
  if (input.sender_email !== undefined) {
    const email = optionalText(input.sender_email, 'sender_email', 320);
    if (email !== null && !isEmailAddress(email)) throw badRequest('sender_email must be an e-mail address.', { field: 'sender_email' });
    out.sender_email = email;
  }
  if (input.sender_phone !== undefined) {
    const phone = optionalText(input.sender_phone, 'sender_phone', 50);
    if (phone !== null && !PHONE.test(phone)) {
      throw badRequest('sender_phone may hold digits, spaces and + ( ) - . / only.', { field: 'sender_phone' });
    }
    out.sender_phone = phone;
  }
  if (input.tax_id !== undefined) out.tax_id = optionalText(input.tax_id, 'tax_id', 50);
  for (const key of BOOLEAN_SETTINGS) {
    if (input[key] === undefined) continue;
    if (typeof input[key] !== 'boolean') throw badRequest(`${key} must be true or false.`, { field: key });
    out[key] = input[key];
  }
  return out;
}
