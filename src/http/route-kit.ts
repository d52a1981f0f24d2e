import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  preValidationAsyncHookHandler,
} from 'fastify';
import type { Principal } from '../auth/principal.ts';
import type { DB } from '../db/types.ts';
import { ApiError, badRequest } from '../errors.ts';
import { parseIsoInstant } from '../time/workspace-time.ts';
import { principalOf } from './security.ts';

/**
 * An `updated_since` query parameter: records changed at or after it. Any ISO 8601 timestamp, as
 * the spec says (parseIsoInstant): a date alone is its midnight, a time without an offset is UTC.
 */
export const UpdatedSince = (what: string) =>
  Type.Optional(Type.String({ format: 'iso-instant', description: `An ISO 8601 timestamp (a date alone: its midnight; no offset: UTC); ${what}` }));

/** An `updated_since` value as the instant it names (the schema has checked it). */
export const updatedSinceOf = (value: string | undefined): Date | undefined => (value === undefined ? undefined : parseIsoInstant(value)!);

/** The `:id` of a record's route. */
export const IdParams = Type.Object({ id: Type.String() }, { additionalProperties: false });

/** The `ETag` response header a record's GET, create and update declare. */
export const etagHeader = (description = 'Strong ETag of this body.') => ({ ETag: { type: 'string', description } });
export const EtagHeader = etagHeader();

export interface ReadOnlyRule {
  /** Properties the server sets: sending one is `unknown_field` naming it. */
  readOnly: readonly string[];
  /** When given, an empty body is a 400 listing these (an update must change something). */
  requireOneOf?: readonly string[];
  /** Properties refused with their own sentence (e.g. create-only ones on an update). */
  refused?: { fields: readonly string[]; message: (field: string) => string };
}

/**
 * A preValidation hook that refuses read-only properties before the schema runs, so a client that
 * echoes a whole record back gets one clear `unknown_field` naming the property, not a generic
 * "must NOT have additional properties".
 */
export function rejectReadOnly(rule: ReadOnlyRule): preValidationAsyncHookHandler {
  return async (request) => {
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return;
    for (const field of rule.readOnly) {
      if (Object.hasOwn(body, field)) throw new ApiError('unknown_field', `'${field}' is read-only and cannot be set.`, { field });
    }
    for (const field of rule.refused?.fields ?? []) {
      if (Object.hasOwn(body, field)) throw new ApiError('unknown_field', rule.refused!.message(field), { field });
    }
    if (rule.requireOneOf && Object.keys(body).length === 0) {
      throw badRequest(`Send at least one writable property: ${rule.requireOneOf.join(', ')}.`);
    }
  };
}

/** A route without query parameters: an unknown one is a 400, not silently ignored. */
export const NoQuery = Type.Object({}, { additionalProperties: false });

/**
 * The app as a routes plugin sees it: TypeBox's type provider gives each handler `request.body`,
 * `query` and `params` typed from the route's own schema, so a handler never casts them.
 * A routes plugin takes it as its parameter (`async function xRoutes(app: TypedApp)`);
 * `app.register` takes the provider from that parameter's type (`withTypeProvider` would return the
 * same instance at run time: the provider is types only).
 */
export type TypedApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/**
 * The handler of a route that answers with what a service reads about one record (`/:id`), for
 * the request's caller: `read(db, caller, id)`. The service checks the caller's reach itself (a
 * record outside it is its 404), as every service does; the route adds nothing to it.
 */
export const readById =
  <T>(app: TypedApp, read: (db: Kysely<DB>, p: Principal, id: string) => Promise<T>) =>
  (request: FastifyRequest<{ Params: { id: string } }>) =>
    read(app.db, principalOf(request), request.params.id);
