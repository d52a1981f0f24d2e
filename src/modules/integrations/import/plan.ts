import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { linesAtFault } from './parse.ts';
import { lineProblem, type LineProblem } from './problems.ts';
import type { ImportRow, Tracker } from './row.ts';

/**
 * The pure part of an import (no I/O): how a file's people, clients, projects and tasks
 * map onto the workspace's records (matched by e-mail or name, or to be created), each
 * row's identity for idempotency, and the effective-dated rates the rows imply.
 */

/** What an entry without a client, project or task is filed under (Sheaf's entries always have all three). */
export const NO_CLIENT = 'No client';
export const NO_PROJECT = 'No project';
export const NO_TASK = 'General';

/** external_reference.service of every imported entry; its id is `<tracker>:<row hash>` (occurrenceRef: `:<n>` after it for the n-th identical row). */
export const IMPORT_SERVICE = 'sheaf-import';

export interface Existing {
  members: Array<{ user_id: string; email: string; name: string; is_active: boolean }>;
  clients: Array<{ id: string; name: string; currency: string | null }>;
  projects: Array<{ id: string; client_id: string; name: string; bill_by: string; is_billable: boolean }>;
  tasks: Array<{ id: string; name: string }>;
  /** Identities of the installation by e-mail (people of other workspaces too), read as the service. */
  identities: Array<{ id: string; email: string; user_type: string; has_password: boolean }>;
}

export type Status = 'existing' | 'new';

export interface PersonMap {
  key: string;
  name: string | null;
  email: string | null;
  status: 'member' | 'invite';
  user_id: string | null;
  /** For an invited person: an identity that exists already in another workspace. */
  identity_id: string | null;
  /** Whether the invitation link is needed (the identity cannot sign in yet). */
  needs_invitation: boolean;
  rows: number;
}

export interface NamedMap {
  key: string;
  name: string;
  status: Status;
  id: string | null;
  rows: number;
}

export interface ClientMap extends NamedMap {
  /** The currency it bills in: an existing client's own (null: the workspace's), a new one's first row's. */
  currency: string | null;
}

export interface ProjectMap extends NamedMap {
  client_key: string;
  client: string;
  bill_by: string | null;
  is_billable: boolean;
}

export interface RatePoint {
  project_key: string;
  project: string;
  person_key: string;
  person: string;
  effective_from: string;
  hourly_rate: string;
  currency: string | null;
  line: number;
}

export interface PlannedRow {
  row: ImportRow;
  ref: string;
  person_key: string;
  client_key: string;
  project_key: string;
  task_key: string;
}

export interface Plan {
  tracker: Tracker;
  people: PersonMap[];
  clients: ClientMap[];
  projects: ProjectMap[];
  tasks: NamedMap[];
  rates: RatePoint[];
  rows: PlannedRow[];
  warnings: LineProblem[];
}

/**
 * The one rule by which names match (people without e-mail, clients, projects, tasks): the
 * same text after Unicode NFC (Zoë typed as e + combining diaeresis is Zoë), with runs of
 * whitespace collapsed to one space and none at either end ("Café  Zucker" is "Café Zucker"),
 * in lower case.
 */
export const keyOf = (name: string) => name.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * A person's name as row identities (rowRef) have always hashed it: trimmed and in lower case
 * only. Not keyOf: a row must keep the identity earlier imports gave it, or the same file
 * imported again would add its rows a second time.
 */
const refName = (name: string) => name.trim().toLowerCase();
const personKey = (row: ImportRow) => (row.person.email ? `e:${row.person.email}` : `n:${keyOf(row.person.name ?? '')}`);
export const projectKey = (clientKey: string, name: string) => `${clientKey}\u0000${keyOf(name)}`;

/**
 * A row's identity: a hash of everything the entry is made of. The same export (or an
 * overlapping one) imported again finds its rows by it (external_reference). Identical rows
 * of one file are told apart by occurrenceRef.
 */
export function rowRef(tracker: Tracker, row: ImportRow): string {
  const parts = [
    row.person.email ?? refName(row.person.name ?? ''),
    row.client,
    row.project,
    row.task,
    row.date,
    row.startTime,
    row.endTime,
    row.seconds,
    row.hours,
    row.notes,
    row.fileBillable ?? row.billable,
    row.rate,
  ];
  return `${tracker}:${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 40)}`;
}

/**
 * The identity of the n-th of identical rows in one file (two separate hours of the same work
 * on one day are two hours): the row's own for the first, which is the key every import has
 * given it, so files imported before stay idempotent; `<ref>:<n>` for the n-th after it. The
 * same file (or one that repeats the row as often) gives the same keys again.
 */
export const occurrenceRef = (ref: string, occurrence: number) => (occurrence === 1 ? ref : `${ref}:${occurrence}`);

/** Does `rate` reproduce a derived row's amount (to the cent)? Then that row did not change the rate. */
function reproduces(rate: string, row: ImportRow): boolean {
  if (row.amount === null) return rate === row.rate;
  const amount = new Decimal(rate).mul(row.seconds).div(3600);
  return amount.minus(row.amount).abs().lte('0.005');
}

export function planImport(tracker: Tracker, rows: ImportRow[], existing: Existing): Plan {
  const problems: LineProblem[] = [];
  const warnings: LineProblem[] = [];
  const membersByEmail = new Map(existing.members.map((m) => [m.email.toLowerCase(), m]));
  const membersByName = new Map<string, Array<Existing['members'][number]>>();
  for (const m of existing.members) {
    const k = keyOf(m.name);
    membersByName.set(k, [...(membersByName.get(k) ?? []), m]);
  }
  const identities = new Map(existing.identities.map((i) => [i.email, i]));
  const clientsByName = new Map(existing.clients.map((c) => [keyOf(c.name), c]));
  const projectsByKey = new Map(existing.projects.map((p) => [`${p.client_id}\u0000${keyOf(p.name)}`, p]));
  const tasksByName = new Map(existing.tasks.map((t) => [keyOf(t.name), t]));

  const people = new Map<string, PersonMap>();
  const clients = new Map<string, ClientMap>();
  /** Clients whose rows are in another currency than theirs: warned of once each. */
  const otherCurrency = new Set<string>();
  const projects = new Map<string, ProjectMap>();
  const tasks = new Map<string, NamedMap>();
  const planned: PlannedRow[] = [];
  /** How many times each row identity has come up in the file so far. */
  const occurrences = new Map<string, number>();

  for (const row of rows) {
    // people: by e-mail, else by name; someone unknown with an e-mail is invited
    const pk = personKey(row);
    let person = people.get(pk);
    if (!person) {
      const byEmail = row.person.email ? membersByEmail.get(row.person.email) : undefined;
      const byName = !row.person.email && row.person.name ? (membersByName.get(keyOf(row.person.name)) ?? []) : [];
      if (byEmail) {
        person = { key: pk, name: byEmail.name, email: byEmail.email, status: 'member', user_id: byEmail.user_id, identity_id: null, needs_invitation: false, rows: 0 };
      } else if (byName.length === 1) {
        person = { key: pk, name: byName[0].name, email: byName[0].email, status: 'member', user_id: byName[0].user_id, identity_id: null, needs_invitation: false, rows: 0 };
      } else if (row.person.email) {
        const identity = identities.get(row.person.email);
        if (identity && identity.user_type !== 'human') {
          problems.push(lineProblem(row.line, 'agent_identity', { email: row.person.email }));
          continue;
        }
        person = {
          key: pk,
          name: row.person.name,
          email: row.person.email,
          status: 'invite',
          user_id: null,
          identity_id: identity?.id ?? null,
          needs_invitation: !identity?.has_password,
          rows: 0,
        };
      } else if (byName.length > 1) {
        problems.push(lineProblem(row.line, 'ambiguous_name', { count: byName.length, name: row.person.name! }));
        continue;
      } else {
        problems.push(row.person.name ? lineProblem(row.line, 'unknown_person', { name: row.person.name }) : lineProblem(row.line, 'no_person'));
        continue;
      }
      people.set(pk, person);
    }
    person.rows++;

    const clientName = row.client ?? NO_CLIENT;
    const ck = keyOf(clientName);
    let client = clients.get(ck);
    if (!client) {
      const found = clientsByName.get(ck);
      client = { key: ck, name: found?.name ?? clientName, status: found ? 'existing' : 'new', id: found?.id ?? null, rows: 0, currency: found ? found.currency : row.currency };
      clients.set(ck, client);
    }
    // A new client takes its first row's currency (one per client); rows in another are priced as numbers.
    if (client.status === 'new' && client.currency === null) client.currency = row.currency;
    if (row.currency && client.currency && client.currency !== row.currency && !otherCurrency.has(ck)) {
      otherCurrency.add(ck);
      warnings.push(lineProblem(row.line, 'client_currency', { client: client.name, client_currency: client.currency, currency: row.currency }));
    }
    client.rows++;

    const projectName = row.project ?? NO_PROJECT;
    const prk = projectKey(ck, projectName);
    let project = projects.get(prk);
    if (!project) {
      const found = client.id ? projectsByKey.get(`${client.id}\u0000${keyOf(projectName)}`) : undefined;
      project = {
        key: prk,
        name: found?.name ?? projectName,
        status: found ? 'existing' : 'new',
        id: found?.id ?? null,
        rows: 0,
        client_key: ck,
        client: client.name,
        bill_by: found?.bill_by ?? null,
        is_billable: found?.is_billable ?? false,
      };
      projects.set(prk, project);
    }
    project.rows++;
    if (project.status === 'new' && row.billable) project.is_billable = true;

    const taskName = row.task ?? NO_TASK;
    const tk = keyOf(taskName);
    let task = tasks.get(tk);
    if (!task) {
      const found = tasksByName.get(tk);
      task = { key: tk, name: found?.name ?? taskName, status: found ? 'existing' : 'new', id: found?.id ?? null, rows: 0 };
      tasks.set(tk, task);
    }
    task.rows++;

    const identity = rowRef(tracker, row);
    const occurrence = (occurrences.get(identity) ?? 0) + 1;
    occurrences.set(identity, occurrence);
    planned.push({ row, ref: occurrenceRef(identity, occurrence), person_key: pk, client_key: ck, project_key: prk, task_key: tk });
  }
  if (problems.length) throw linesAtFault(problems);

  const rates = rateTimeline(planned, projects, people, warnings);
  // A new project bills by person when the file has rates for it; otherwise as Sheaf's default.
  for (const r of rates) {
    const project = projects.get(r.project_key)!;
    if (project.status === 'new') project.bill_by = 'people';
  }
  for (const project of projects.values()) if (project.status === 'new' && project.bill_by === null) project.bill_by = 'project';
  const ratedExisting = new Set(rates.filter((r) => projects.get(r.project_key)!.status === 'existing').map((r) => r.project_key));
  const kept: RatePoint[] = [];
  for (const r of rates) {
    const project = projects.get(r.project_key)!;
    if (project.status === 'existing' && project.bill_by !== 'people') {
      if (ratedExisting.delete(r.project_key)) {
        warnings.push(
          project.bill_by === 'none' || project.bill_by === null
            ? lineProblem(r.line, 'project_bills_no_rate', { project: project.name })
            : lineProblem(r.line, 'project_bills_by', { project: project.name, bill_by: project.bill_by }),
        );
      }
      continue;
    }
    kept.push(r);
  }
  return {
    tracker,
    people: [...people.values()],
    clients: [...clients.values()],
    projects: [...projects.values()],
    tasks: [...tasks.values()],
    rates: kept,
    rows: planned,
    warnings,
  };
}

/**
 * The rates the rows imply, per project and person: the first rate from the first date it
 * was used, and each change from the first date the new rate was used. Two different
 * rates on one day: the first (in date, then line order) prices that day, with a warning.
 */
function rateTimeline(rows: PlannedRow[], projects: Map<string, ProjectMap>, people: Map<string, PersonMap>, warnings: LineProblem[]): RatePoint[] {
  const byScope = new Map<string, PlannedRow[]>();
  for (const p of rows) {
    if (!p.row.billable || p.row.rate === null) continue;
    const k = `${p.project_key}\u0001${p.person_key}`;
    const list = byScope.get(k);
    if (list) list.push(p);
    else byScope.set(k, [p]);
  }
  const points: RatePoint[] = [];
  for (const list of byScope.values()) {
    list.sort((a, b) => (a.row.date < b.row.date ? -1 : a.row.date > b.row.date ? 1 : a.row.line - b.row.line));
    let current: RatePoint | null = null;
    for (const { row, project_key, person_key } of list) {
      if (current && reproduces(current.hourly_rate, row)) continue;
      if (current && current.effective_from === row.date) {
        warnings.push(lineProblem(row.line, 'rate_same_day', { rate: row.rate!, current: current.hourly_rate, line: current.line, date: row.date }));
        continue;
      }
      const person = people.get(person_key)!;
      current = {
        project_key,
        project: projects.get(project_key)!.name,
        person_key,
        person: person.name ?? person.email ?? '',
        effective_from: row.date,
        hourly_rate: row.rate!,
        currency: row.currency,
        line: row.line,
      };
      points.push(current);
    }
  }
  return points;
}
