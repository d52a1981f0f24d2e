import { Type, type Static } from '@sinclair/typebox';
import { createBody, Enum, patchBody } from '../../../http/schemas.ts';
import { DESCRIPTION_MAX, DISABLED_REASONS, EVENT_TYPES, URL_MAX } from './rules.ts';

const EventKind = Enum(EVENT_TYPES, 'An event kind (docs/webhooks.md lists what each carries).');
const Timestamp = Type.String({ format: 'date-time' });

/** The writable properties of an endpoint, shared by create and PATCH. */
const writable = {
  url: Type.String({ minLength: 1, maxLength: URL_MAX, description: 'Where events are posted: an http or https URL at a public address (private ones only with WEBHOOK_ALLOW_PRIVATE).' }),
  description: Type.Union([Type.String({ maxLength: DESCRIPTION_MAX }), Type.Null()], { description: 'What the endpoint is for.' }),
  events: Type.Array(EventKind, { minItems: 1, maxItems: EVENT_TYPES.length * 2, description: 'The event kinds sent to it; at least one.' }),
  is_active: Type.Boolean({ description: 'Inactive endpoints get no new events; turning one on again sends what was waiting.' }),
};

export const EndpointCreateBody = createBody(writable, ['url', 'events']);
export const EndpointPatchBody = patchBody(writable);

export const EndpointSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    events: Type.Array(EventKind),
    is_active: Type.Boolean(),
    disabled_reason: Type.Union([Enum(DISABLED_REASONS), Type.Null()], {
      description: 'Why Sheaf turned it off: delivery_failing (a delivery failed for more than a day) or administrator_inactive (its administrator is no longer one: shown, with is_active false, from the moment the role is lost, before its next event turns it off); null when a person did, or it is on.',
    }),
    disabled_at: Type.Union([Timestamp, Type.Null()]),
    previous_secret_valid_until: Type.Union([Timestamp, Type.Null()], { description: 'After a rotation: until when the previous secret signs too.' }),
    created_by: Type.Union([Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }, { additionalProperties: false }), Type.Null()], {
      description: 'The administrator whose view the payloads carry (who created it or last turned it on); null for the operator.',
    }),
    pending_count: Type.Integer({ description: 'Deliveries still to go.' }),
    failed_count: Type.Integer({ description: 'Deliveries that failed for good (kept 30 days).' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);
export type PresentedEndpoint = Static<typeof EndpointSchema>;

export const EndpointWithSecretSchema = Type.Intersect([
  EndpointSchema,
  Type.Object({ secret: Type.String({ description: 'The signing secret (whsec_…): shown this once.' }) }),
]);

export const DeliverySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    webhook_id: Type.String({ description: 'The webhook-id header: the same on every attempt and resend.' }),
    cursor: Type.String({ description: 'Pass as `before` for the next, older page.' }),
    event_type: EventKind,
    record_type: Type.String(),
    record_id: Type.String({ format: 'uuid' }),
    state: Enum(['pending', 'delivered', 'failed'], 'pending: still to go (or being retried); delivered: a 2xx answer; failed: retried for more than a day.'),
    attempts: Type.Integer(),
    response_status: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status of the last attempt; null when none answered.' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed.' }),
    occurred_at: Timestamp,
    last_attempt_at: Type.Union([Timestamp, Type.Null()]),
    next_attempt_at: Type.Union([Timestamp, Type.Null()]),
    delivered_at: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);
export type PresentedDelivery = Static<typeof DeliverySchema>;
