import type { Kysely } from 'kysely';
import type { Principal } from '../../../auth/principal.ts';
import { isAdmin } from '../../../access/policy.ts';
import { actingUserId, auditActor } from '../../../access/operator.ts';
import { withTenant } from '../../../db/tenant.ts';
import type { DB } from '../../../db/types.ts';
import { conflict, forbidden } from '../../../errors.ts';
import { newId } from '../../../ids.ts';
import { sameDecimal } from '../../../money.ts';
import { rateOn, setRate } from '../../catalog/rates/index.ts';
import { said, type ImportProblem, type LineProblem } from './problems.ts';
import { inviteImportedMember } from '../../people/invitations/index.ts';
import { audit } from '../../workspace/audit/index.ts';
import { parseExport } from './parse.ts';
import { IMPORT_SERVICE, planImport, type Plan } from './plan.ts';
import { ensureAssignments, identitiesOf, importedRefs, insertEntries, insertNewRates, insertPeople, loadExisting, lockWorkspaceImports, type EntryValues } from './queries.ts';
import { TRACKER_NAMES, type DateOrder, type Tracker } from './row.ts';

/**
 * Importing another tracker's export (issue 27 item 3): a preview of how the file maps
 * onto the workspace, and the import itself, all of one file in one tenant transaction
 * (any failure leaves nothing behind). Owners and administrators only; the CLI acts as
 * the operator. Idempotent: every entry carries external_reference {service:
 * IMPORT_SERVICE, id: <tracker>:<row hash>, with :<n> for the n-th of identical rows}, and
 * a row whose reference the workspace has is skipped, so the same file twice adds nothing.
 */

/** How many skipped rows a report lists (it counts them all). */
export const SKIPPED_LISTED = 100;

export interface ImportOptions {
  tracker?: Tracker;
  /** How the file writes day and month before the year; told from its dates when not given (parse.ts). */
  dates?: DateOrder;
  /** Preview only: match and count, write nothing. */
  dryRun: boolean;
  /** The entries' source: web (the Import page) or cli (`sheaf import`). */
  source: 'web' | 'cli';
  baseUrl: string;
  now: Date;
}

export interface ImportReport {
  tracker: Tracker;
  tracker_name: string;
  dry_run: boolean;
  rows: number;
  created: { clients: number; projects: number; tasks: number; people: number; invitations: number; rates: number; time_entries: number };
  skipped_count: number;
  skipped: Array<{ line: number; reason: string; problem: ImportProblem }>;
  warnings_count: number;
  warnings: LineProblem[];
  people: Array<{ name: string | null; email: string | null; status: 'member' | 'invite'; rows: number }>;
  clients: Array<{ name: string; status: 'existing' | 'new'; rows: number }>;
  projects: Array<{ name: string; client: string; status: 'existing' | 'new'; bill_by: string | null; rows: number }>;
  tasks: Array<{ name: string; status: 'existing' | 'new'; rows: number }>;
  rates: Array<{ project: string; person: string; effective_from: string; hourly_rate: string; currency: string | null; status: 'existing' | 'new' }>;
}

function assertMayImport(p: Principal) {
  if (!isAdmin(p)) throw forbidden('Only owners and administrators may import time from another tracker.');
}

const splitName = (name: string | null, email: string) => {
  const parts = (name ?? '').trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { first_name: email.split('@')[0].slice(0, 255), last_name: '' };
  return { first_name: parts[0].slice(0, 255), last_name: parts.slice(1).join(' ').slice(0, 255) };
};

function reportOf(plan: Plan, rows: number, skipped: ImportReport['skipped'], dryRun: boolean, created: ImportReport['created'], written: ReadonlySet<Plan['rates'][number]>): ImportReport {
  return {
    tracker: plan.tracker,
    tracker_name: TRACKER_NAMES[plan.tracker],
    dry_run: dryRun,
    rows,
    created,
    skipped_count: skipped.length,
    skipped: skipped.slice(0, SKIPPED_LISTED),
    warnings_count: plan.warnings.length,
    warnings: plan.warnings.slice(0, SKIPPED_LISTED),
    people: plan.people.map((p) => ({ name: p.name, email: p.email, status: p.status, rows: p.rows })),
    clients: plan.clients.map((c) => ({ name: c.name, status: c.status, rows: c.rows })),
    projects: plan.projects.map((p) => ({ name: p.name, client: p.client, status: p.status, bill_by: p.bill_by, rows: p.rows })),
    tasks: plan.tasks.map((t) => ({ name: t.name, status: t.status, rows: t.rows })),
    // existing: the rate is in force from that date already (an earlier import, or set by hand), so it is not written again.
    rates: plan.rates.map((r) => ({ project: r.project, person: r.person, effective_from: r.effective_from, hourly_rate: r.hourly_rate, currency: r.currency, status: written.has(r) ? 'new' : 'existing' })),
  };
}

/**
 * Previews (dryRun) or imports one export. A file that is not a known export, or has a row
 * that cannot be mapped, is a 400 naming the lines (parseExport, planImport) before
 * anything is written.
 */
export async function importFile(db: Kysely<DB>, p: Principal, data: Buffer | string, options: ImportOptions): Promise<ImportReport> {
  assertMayImport(p);
  const parsed = parseExport(data, { tracker: options.tracker, dates: options.dates });
  const emails = [...new Set(parsed.rows.map((r) => r.person.email).filter((e): e is string => e !== null))];
  const identities = await identitiesOf(db, emails);
  const companyId = p.companyId;
  return withTenant(db, companyId, async (trx) => {
    await lockWorkspaceImports(trx, companyId);
    const existing = await loadExisting(trx, companyId);
    const plan = planImport(parsed.tracker, parsed.rows, { ...existing, identities });
    plan.warnings.unshift(...parsed.warnings);
    const done = await importedRefs(trx, companyId, plan.tracker, plan.rows.map((r) => r.ref));
    const before = said('imported_before');
    const skipped: ImportReport['skipped'] = plan.rows.filter((r) => done.has(r.ref)).map((r) => ({ line: r.row.line, reason: before.message, problem: before.problem }));
    const fresh = plan.rows.filter((r) => !done.has(r.ref));
    // Rates already in force from their date (an earlier import, or set by hand) are not written again.
    const rates: typeof plan.rates = [];
    for (const r of plan.rates) {
      const project = plan.projects.find((x) => x.key === r.project_key)!;
      const person = plan.people.find((x) => x.key === r.person_key)!;
      if (project.status === 'existing' && person.user_id) {
        const inForce = await rateOn(trx, companyId, { kind: 'billable', projectId: project.id!, userId: person.user_id }, r.effective_from);
        if (inForce !== null && sameDecimal(inForce, r.hourly_rate)) continue;
      }
      rates.push(r);
    }
    const count = (list: Array<{ status: string }>, status: string) => list.filter((x) => x.status === status).length;
    const created = {
      clients: count(plan.clients, 'new'),
      projects: count(plan.projects, 'new'),
      tasks: count(plan.tasks, 'new'),
      people: count(plan.people, 'invite'),
      invitations: plan.people.filter((x) => x.status === 'invite' && x.needs_invitation).length,
      rates: rates.length,
      time_entries: fresh.length,
    };
    const written = new Set(rates);
    if (options.dryRun) return reportOf(plan, parsed.rows.length, skipped, true, created, written);

    // clients, projects, tasks
    const newClients = plan.clients.filter((c) => c.status === 'new');
    for (const c of newClients) c.id = newId(options.now.getTime());
    if (newClients.length) {
      await trx
        .insertInto('clients')
        .values(
          newClients.map((c) => ({ company_id: companyId, id: c.id!, name: c.name, currency: c.currency && c.currency !== existing.currency ? c.currency : null })),
        )
        .execute();
    }
    const clientId = new Map(plan.clients.map((c) => [c.key, c.id!]));
    const newProjects = plan.projects.filter((x) => x.status === 'new');
    for (const x of newProjects) x.id = newId(options.now.getTime());
    if (newProjects.length) {
      await trx
        .insertInto('projects')
        .values(
          newProjects.map((x) => ({
            company_id: companyId,
            id: x.id!,
            client_id: clientId.get(x.client_key)!,
            name: x.name,
            is_billable: x.is_billable,
            bill_by: (x.bill_by ?? 'project') as 'project' | 'people',
          })),
        )
        .execute();
    }
    const newTasks = plan.tasks.filter((t) => t.status === 'new');
    for (const t of newTasks) t.id = newId(options.now.getTime());
    if (newTasks.length) await trx.insertInto('tasks').values(newTasks.map((t) => ({ company_id: companyId, id: t.id!, name: t.name }))).execute();

    // people: a member for each invited person (a new identity, or their account of another workspace), then the link
    const invited = plan.people.filter((x) => x.status === 'invite');
    const newIdentities: Array<{ id: string; email: string; first_name: string; last_name: string }> = [];
    for (const x of invited) {
      x.user_id = x.identity_id ?? newId(options.now.getTime());
      if (!x.identity_id) newIdentities.push({ id: x.user_id, email: x.email!, ...splitName(x.name, x.email!) });
    }
    if (!(await insertPeople(trx, companyId, newIdentities, invited.map((x) => x.user_id!)))) {
      throw conflict('An account with one of the invited addresses was created meanwhile: run the import again.');
    }
    for (const x of invited) if (x.needs_invitation) await inviteImportedMember(trx, p, x.email!, options.baseUrl, options.now);

    // assignments, so every entry is valid work of its person on its project's task
    const projectById = new Map(plan.projects.map((x) => [x.key, x]));
    const personId = new Map(plan.people.map((x) => [x.key, x.user_id!]));
    const taskId = new Map(plan.tasks.map((t) => [t.key, t.id!]));
    const pairs = new Map<string, { project_id: string; user_id: string }>();
    const taskPairs = new Map<string, { project_id: string; task_id: string; billable: boolean }>();
    for (const r of fresh) {
      const project = projectById.get(r.project_key)!;
      pairs.set(`${project.id}/${personId.get(r.person_key)}`, { project_id: project.id!, user_id: personId.get(r.person_key)! });
      taskPairs.set(`${project.id}/${taskId.get(r.task_key)}`, { project_id: project.id!, task_id: taskId.get(r.task_key)!, billable: project.is_billable });
    }
    await ensureAssignments(trx, companyId, [...pairs.values()], [...taskPairs.values()]);

    // rates, from the first date each was used: a new project's in one statement; an existing
    // project's through the rates area, which reprices its unbilled work from that date on
    const newRates = rates.filter((r) => projectById.get(r.project_key)!.status === 'new');
    await insertNewRates(
      trx,
      companyId,
      newRates.map((r) => ({ project_id: projectById.get(r.project_key)!.id!, user_id: personId.get(r.person_key)!, effective_from: r.effective_from, hourly_rate: r.hourly_rate })),
    );
    for (const r of rates.filter((x) => projectById.get(x.project_key)!.status === 'existing')) {
      const scope = { kind: 'billable' as const, projectId: projectById.get(r.project_key)!.id!, userId: personId.get(r.person_key)! };
      await setRate(trx, companyId, scope, r.effective_from, r.hourly_rate);
    }

    const entries: EntryValues[] = fresh.map((r) => ({
      id: newId(options.now.getTime()),
      user_id: personId.get(r.person_key)!,
      project_id: projectById.get(r.project_key)!.id!,
      task_id: taskId.get(r.task_key)!,
      spent_date: r.row.date,
      duration_seconds: r.row.seconds,
      hours_entered: r.row.hours,
      started_time: r.row.startTime,
      ended_time: r.row.endTime,
      notes: r.row.notes,
      billable: r.row.billable,
      is_billed: r.row.billedElsewhere === true,
      external_reference: JSON.stringify({ service: IMPORT_SERVICE, service_name: TRACKER_NAMES[plan.tracker], id: r.ref }),
    }));
    await insertEntries(trx, companyId, entries, { source: options.source, createdBy: actingUserId(p), now: options.now });
    const report = reportOf(plan, parsed.rows.length, skipped, false, created, written);
    await audit(trx, { ...auditActor(p), action: 'import.completed', subjectType: 'import', details: { tracker: plan.tracker, rows: report.rows, created: report.created, skipped: report.skipped_count } });
    return report;
  });
}
