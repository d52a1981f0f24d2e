import type { Static } from '@sinclair/typebox';
import type { Company } from '../../../db/types.ts';
import type { Workspace } from './schemas.ts';

/** A workspace's settings as the web app shows them. */
export function presentWorkspace(c: Company): Static<typeof Workspace> {
  return {
    id: c.id,
    name: c.name,
    address: c.address,
    timezone: c.timezone,
    currency: c.currency,
    week_start: c.week_start,
    rounding: c.rounding,
    rounding_minutes: c.rounding_minutes,
    approvals_enabled: c.approvals_enabled,
    allow_past_timer_starts: c.allow_past_timer_starts,
    invoice_before_approval: c.invoice_before_approval,
    require_two_factor: c.require_two_factor,
    sender_email: c.sender_email,
    sender_phone: c.sender_phone,
    tax_id: c.tax_id,
  };
}
