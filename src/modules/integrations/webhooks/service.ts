import type { Kysely } from 'kysely';
import { actingUserId, auditActor } from '../../../access/operator.ts';
import { isAdmin } from '../../../access/policy.ts';
import type { Principal } from '../../../auth/principal.ts';
import { insertRow, updateRow } from '../../../db/rows.ts';
import { withTenant, type Tx } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { badRequest, forbidden, notFound } from '../../../errors.ts';
import { isId, newId } from '../../../ids.ts';
import { audit } from '../../workspace/audit/index.ts';
import { privateAddressOf, type Resolver } from './address.ts';
import { holderProblem } from './holder.ts';
import { presentDelivery, presentEndpoint } from './presenter.ts';
import type { PresentedDelivery, PresentedEndpoint } from './schemas.ts';
import { deliveryCounts, deliveryLog, endpointsOf, findDelivery, findEndpoint, type EndpointView } from './queries.ts';
import { newSecret, normalizedEvents, ROTATION_OVERLAP_MS, urlProblem, type DisabledReason, type EventType, type UrlRefusal } from './rules.ts';

/**
 * Webhook endpoints: administrators (and the operator, `sheaf admin webhook`) register,
 * change, rotate and delete them and read their delivery log. The secret is returned
 * once, by create and by rotate; nothing else ever shows it.
 */

export interface WebhookDeps {
  /** WEBHOOK_ALLOW_PRIVATE: private, loopback and link-local targets are allowed. */
  allowPrivate: boolean;
  /** How names are resolved (tests resolve a name to 127.0.0.1 without a DNS server). */
  resolve?: Resolver;
}

export interface EndpointInput {
  url?: string;
  description?: string | null;
  events?: string[];
  is_active?: boolean;
}

function assertAdministrator(p: Principal) {
  if (!isAdmin(p)) throw forbidden('Only owners and administrators manage webhooks.');
}

/** The URL as stored, or a 400 naming `url`: http(s), no credentials, and a public address unless allowed. */
async function checkedUrl(raw: string, deps: WebhookDeps): Promise<string> {
  const url = raw.trim();
  const problem = urlProblem(url);
  if (problem) throw badRequest(`url ${problem.message}`, { field: 'url', refusal: problem.refusal });
  if (!deps.allowPrivate) {
    const address = await privateAddressOf(new URL(url).hostname, deps.resolve);
    if (address) {
      throw badRequest(`url points at ${address}, a private, loopback or link-local address; webhooks go to public addresses only (an operator may allow private ones with WEBHOOK_ALLOW_PRIVATE).`, {
        field: 'url',
        refusal: 'private_address' satisfies UrlRefusal,
      });
    }
  }
  return url;
}

function checkedEvents(events: string[]): EventType[] {
  const chosen = normalizedEvents(events);
  if (chosen.length === 0) throw badRequest('events must name at least one event kind.', { field: 'events' });
  return chosen;
}

const description = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

/** Endpoints as shown: one whose holder has lost the role is off from that moment (holder.ts). */
async function presented(trx: Tx, companyId: string, rows: EndpointView[], now: Date): Promise<PresentedEndpoint[]> {
  const counts = await deliveryCounts(trx, companyId);
  const problems = new Map<string | null, DisabledReason | null>();
  for (const r of rows) {
    if (r.is_active && !problems.has(r.created_by)) problems.set(r.created_by, await holderProblem(trx, companyId, r.created_by));
  }
  return rows.map((r) => presentEndpoint(r, counts.get(r.id), now, r.is_active ? (problems.get(r.created_by) ?? null) : null));
}

const presentedOne = async (trx: Tx, companyId: string, row: EndpointView, now: Date) => (await presented(trx, companyId, [row], now))[0]!;

async function endpointOrThrow(trx: Tx, p: Principal, id: string, lock = false) {
  const row = isId(id) ? await findEndpoint(trx, p.companyId, id, lock) : undefined;
  if (!row) throw notFound('webhook endpoint');
  return row;
}

export function listEndpoints(db: Kysely<DB>, p: Principal, now: Date): Promise<PresentedEndpoint[]> {
  assertAdministrator(p);
  return withTenant(db, p.companyId, async (trx) => {
    const rows = await endpointsOf(trx, p.companyId).orderBy('e.created_at').orderBy('e.id').execute();
    return presented(trx, p.companyId, rows, now);
  });
}

export function getEndpoint(db: Kysely<DB>, p: Principal, id: string, now: Date): Promise<PresentedEndpoint> {
  assertAdministrator(p);
  return withTenant(db, p.companyId, async (trx) => {
    return presentedOne(trx, p.companyId, await endpointOrThrow(trx, p, id), now);
  });
}

/** A new endpoint, with its secret (shown this once). */
export async function createEndpoint(
  db: Kysely<DB>,
  p: Principal,
  input: Required<Pick<EndpointInput, 'url' | 'events'>> & EndpointInput,
  deps: WebhookDeps,
  now: Date,
): Promise<PresentedEndpoint & { secret: string }> {
  assertAdministrator(p);
  const url = await checkedUrl(input.url, deps);
  const events = checkedEvents(input.events);
  const secret = newSecret();
  const id = newId(now.getTime());
  return withTenant(db, p.companyId, async (trx) => {
    await insertRow(
      trx,
      'webhook_endpoints',
      p.companyId,
      id,
      { url, events, description: description(input.description) ?? null, is_active: input.is_active ?? true, secret, created_by: actingUserId(p) },
      now,
    );
    await audit(trx, { ...auditActor(p), action: 'webhook_endpoint.created', subjectType: 'webhook_endpoint', subjectId: id, details: { url, events } });
    return { ...(await presentedOne(trx, p.companyId, (await findEndpoint(trx, p.companyId, id))!, now)), secret };
  });
}

/**
 * Changes an endpoint. Turning one on again clears why the service turned it off, and makes
 * the administrator who does it the one whose view the payloads carry.
 */
export async function updateEndpoint(db: Kysely<DB>, p: Principal, id: string, input: EndpointInput, deps: WebhookDeps, now: Date): Promise<PresentedEndpoint> {
  assertAdministrator(p);
  const url = input.url === undefined ? undefined : await checkedUrl(input.url, deps);
  const events = input.events === undefined ? undefined : checkedEvents(input.events);
  return withTenant(db, p.companyId, async (trx) => {
    const row = await endpointOrThrow(trx, p, id, true);
    // Held (its holder lost the role) is off, though not turned off yet: turning it on takes it over.
    const wasActive = row.is_active && (await holderProblem(trx, p.companyId, row.created_by)) === null;
    const reactivated = input.is_active === true && !wasActive;
    await updateRow(
      trx,
      'webhook_endpoints',
      p.companyId,
      id,
      {
        ...(url !== undefined ? { url } : {}),
        ...(events !== undefined ? { events } : {}),
        ...(input.description !== undefined ? { description: description(input.description) } : {}),
        ...(input.is_active !== undefined ? { is_active: input.is_active } : {}),
        ...(input.is_active !== undefined ? { disabled_reason: null, disabled_at: input.is_active ? null : now } : {}),
        ...(reactivated ? { created_by: actingUserId(p) } : {}),
      },
      now,
    );
    // The URL names the endpoint in the log (its subject label); is_active says whether it was turned on or off.
    const turned = input.is_active !== undefined && input.is_active !== wasActive ? { is_active: input.is_active } : {};
    await audit(trx, {
      ...auditActor(p),
      action: 'webhook_endpoint.updated',
      subjectType: 'webhook_endpoint',
      subjectId: id,
      details: { url: url ?? row.url, changes: Object.keys(input), ...turned },
    });
    return presentedOne(trx, p.companyId, (await findEndpoint(trx, p.companyId, id))!, now);
  });
}

/** A new secret (shown this once); the old one keeps signing too for ROTATION_OVERLAP_MS. */
export async function rotateSecret(db: Kysely<DB>, p: Principal, id: string, now: Date): Promise<PresentedEndpoint & { secret: string }> {
  assertAdministrator(p);
  const secret = newSecret();
  return withTenant(db, p.companyId, async (trx) => {
    const row = await endpointOrThrow(trx, p, id, true);
    await updateRow(
      trx,
      'webhook_endpoints',
      p.companyId,
      id,
      { secret, previous_secret: row.secret, previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS) },
      now,
    );
    await audit(trx, { ...auditActor(p), action: 'webhook_endpoint.secret_rotated', subjectType: 'webhook_endpoint', subjectId: id, details: { url: row.url } });
    return { ...(await presentedOne(trx, p.companyId, (await findEndpoint(trx, p.companyId, id))!, now)), secret };
  });
}

/** Deletes an endpoint and its delivery log; what it had not sent yet is not sent. */
export function deleteEndpoint(db: Kysely<DB>, p: Principal, id: string): Promise<void> {
  assertAdministrator(p);
  return withTenant(db, p.companyId, async (trx) => {
    const row = await endpointOrThrow(trx, p, id, true);
    await trx.deleteFrom('webhook_deliveries').where('company_id', '=', p.companyId).where('endpoint_id', '=', id).execute();
    await trx.deleteFrom('webhook_endpoints').where('company_id', '=', p.companyId).where('id', '=', id).execute();
    await audit(trx, { ...auditActor(p), action: 'webhook_endpoint.deleted', subjectType: 'webhook_endpoint', subjectId: id, details: { url: row.url } });
  });
}

export const LOG_PAGE_MAX = 200;

/** An endpoint's delivery log, newest first; `before` is the `cursor` of the last one shown. */
export function listDeliveries(
  db: Kysely<DB>,
  p: Principal,
  endpointId: string,
  query: { per_page?: number; before?: string },
): Promise<{ deliveries: PresentedDelivery[]; next_before: string | null }> {
  assertAdministrator(p);
  if (query.before !== undefined && !/^[1-9][0-9]{0,18}$/.test(query.before)) throw badRequest('before must be the cursor of a delivery of the log.', { field: 'before' });
  const limit = query.per_page ?? 50;
  return withTenant(db, p.companyId, async (trx) => {
    await endpointOrThrow(trx, p, endpointId);
    const rows = await deliveryLog(trx, p.companyId, endpointId, limit + 1, query.before);
    const page = rows.slice(0, limit);
    return { deliveries: page.map(presentDelivery), next_before: rows.length > limit ? String(page.at(-1)!.seq) : null };
  });
}

/**
 * Sends a delivery again, with the same webhook-id and body (a receiver that already has it
 * can tell): it becomes pending and due at once, its attempts counted afresh.
 */
export function resendDelivery(db: Kysely<DB>, p: Principal, endpointId: string, deliveryId: string): Promise<PresentedDelivery> {
  assertAdministrator(p);
  return withTenant(db, p.companyId, async (trx) => {
    const endpoint = await endpointOrThrow(trx, p, endpointId);
    const row = isId(deliveryId) ? await findDelivery(trx, p.companyId, endpointId, deliveryId) : undefined;
    if (!row) throw notFound('webhook delivery');
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({ state: 'pending', attempts: 0, next_attempt_at: null, first_attempt_at: null, delivered_at: null })
      .where('company_id', '=', p.companyId)
      .where('endpoint_id', '=', endpointId)
      .where('seq', '=', row.seq)
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, { ...auditActor(p), action: 'webhook_delivery.resent', subjectType: 'webhook_endpoint', subjectId: endpointId, details: { url: endpoint.url, delivery_id: deliveryId } });
    return presentDelivery(updated);
  });
}
