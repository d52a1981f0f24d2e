import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Company } from '../../../db/types.ts';
import { Enum, ErrorResponses, OrNull } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { getWorkspace, updateWorkspaceSettings } from './service.ts';
import type { WorkspaceSettingsInput } from './rules.ts';

/**
 * The web app's workspace settings: any member reads them (the pages need the
 * time zone, currency, week start...), owners and administrators change them by
 * the same rules as the operator's `sheaf admin workspace update` (validateSettings).
 */

const WEEK_STARTS = ['monday', 'sunday', 'saturday'];
const ROUNDINGS = ['none', 'up', 'nearest', 'down'];

const Workspace = Type.Object({
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
  sender_email: OrNull(Type.String({ description: 'Printed on invoices under the address' })),
  sender_phone: OrNull(Type.String({ description: 'Printed on invoices under the address' })),
  tax_id: OrNull(Type.String({ description: 'Tax (VAT) number, printed on invoices' })),
});

const WorkspacePatch = Type.Object(
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
    sender_email: Type.Optional(OrNull(Type.String({ maxLength: 320 }))),
    sender_phone: Type.Optional(OrNull(Type.String({ maxLength: 50 }))),
    tax_id: Type.Optional(OrNull(Type.String({ maxLength: 50 }))),
  },
  { additionalProperties: false },
);

function present(c: Company): Static<typeof Workspace> {
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
    sender_email: c.sender_email,
    sender_phone: c.sender_phone,
    tax_id: c.tax_id,
  };
}

const tags = ['web'];

export async function workspaceRoutes(app: FastifyInstance) {
  app.get(
    '/web/api/workspace',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getWorkspace',
        summary: 'The current workspace\u2019s settings',
        response: { 200: Workspace, ...ErrorResponses },
      },
    },
    async (request) => present(await getWorkspace(app.db, principalOf(request).companyId)),
  );

  app.patch<{ Body: Static<typeof WorkspacePatch> }>(
    '/web/api/workspace',
    {
      config: { access: 'administrator', web: true },
      schema: {
        tags,
        operationId: 'updateWorkspace',
        summary: 'Change workspace settings (any subset)',
        description:
          'Owners and administrators. `address`, `sender_email`, `sender_phone` and `tax_id` are cleared with null (or ""); ' +
          'the last three are printed on invoices under the name and address.',
        body: WorkspacePatch,
        response: { 200: Workspace, ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      return present(await updateWorkspaceSettings(app.db, p.companyId, request.body as WorkspaceSettingsInput, { userId: p.userId }));
    },
  );
}
