import { Type } from '@sinclair/typebox';
import type { Rounding, WeekStart } from '../../../db/types.ts';
import { Enum, OrNull } from '../../../http/schemas.ts';

/** A workspace's settings as the web app shows them, and a change to them. */

const WEEK_STARTS = ['monday', 'sunday', 'saturday'] as const satisfies readonly WeekStart[];
const ROUNDINGS = ['none', 'up', 'nearest', 'down'] as const satisfies readonly Rounding[];

export const Workspace = Type.Object({
  id: Type.String(),
  name: Type.String(),
  address: OrNull(Type.String()),
  timezone: Type.String({ description: 'IANA time zone' }),
  currency: Type.String({ description: 'ISO 4217 code' }),
  week_start: Enum(WEEK_STARTS),
  rounding: Enum(ROUNDINGS),
  rounding_minutes: Type.Integer(),
  approvals_enabled: Type.Boolean(),
  allow_past_timer_starts: Type.Boolean(),
  invoice_before_approval: Type.Boolean(),
  require_two_factor: Type.Boolean({ description: 'Everyone signing in to the workspace needs two-factor codes; people without them may only set them up.' }),
  sender_email: OrNull(Type.String({ description: 'Printed on invoices under the address' })),
  sender_phone: OrNull(Type.String({ description: 'Printed on invoices under the address' })),
  tax_id: OrNull(Type.String({ description: "The tax number from the tax office, printed on invoices as such and sent in e-invoices as the seller's tax registration (BT-32); a VAT ID is the invoice settings' vat_id." })),
});

/** A settings change: any subset (the operator's `sheaf admin workspace update` takes the same). */
export const WorkspacePatch = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 255 })),
    address: Type.Optional(OrNull(Type.String({ maxLength: 2000 }))),
    timezone: Type.Optional(Type.String({ maxLength: 100 })),
    currency: Type.Optional(Type.String({ maxLength: 3 })),
    week_start: Type.Optional(Enum(WEEK_STARTS)),
    rounding: Type.Optional(Enum(ROUNDINGS)),
    rounding_minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 })),
    approvals_enabled: Type.Optional(Type.Boolean()),
    allow_past_timer_starts: Type.Optional(Type.Boolean()),
    invoice_before_approval: Type.Optional(Type.Boolean()),
    require_two_factor: Type.Optional(Type.Boolean()),
    sender_email: Type.Optional(OrNull(Type.String({ maxLength: 320 }))),
    sender_phone: Type.Optional(OrNull(Type.String({ maxLength: 50 }))),
    tax_id: Type.Optional(OrNull(Type.String({ maxLength: 50 }))),
  },
  { additionalProperties: false },
);
