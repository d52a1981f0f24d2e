import type { ParseArgsConfig } from 'node:util';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { DB, ManagerPermission, Role, UserType } from '../db/types.ts';
import { isId } from '../ids.ts';
import { notFound } from '../http/errors.ts';
import { createWorkspace, getWorkspace, listWorkspaces, updateWorkspaceSettings } from '../modules/workspaces/service.ts';
import type { WorkspaceSettingsInput } from '../modules/workspaces/settings.ts';
import { createMember, deactivateMember, listMembersForAdmin, updateMember, type MemberInput } from '../modules/users/admin-service.ts';
import { assignTeammate, listTeammates, unassignTeammate } from '../modules/teammates/service.ts';
import { createKey, listKeys, revokeKey, rotateKey } from '../modules/credentials/service.ts';
import { fields, print, table, UsageError, type Output } from './output.ts';

type Values = Record<string, string | undefined>;

export interface AdminCommand {
  options: NonNullable<ParseArgsConfig['options']>;
  run(ctx: { db: Kysely<DB>; values: Values; output: Output; clock: Clock }): Promise<void>;
}


const str = { type: 'string' } as const;

function required(values: Values, name: string): string {
  const v = values[name];
  if (v === undefined || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

function bool(values: Values, name: string): boolean | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') throw new UsageError(`--${name} must be true or false`);
  return v === 'true';
}

function workspaceId(values: Values): string {
  const id = required(values, 'workspace');
  if (!isId(id)) throw new UsageError('--workspace must be a workspace id');
  return id;
}

/** Accepts a user id or an e-mail address and returns the member's user id. */
async function resolveUser(db: Kysely<DB>, companyId: string, ref: string): Promise<string> {
  const row = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.id')
    .where('m.company_id', '=', companyId)
    .where(isId(ref) ? 'u.id' : 'u.email', '=', ref.toLowerCase())
    .executeTakeFirst();
  if (!row) throw notFound('user');
  return row.id;
}

const SETTING_OPTIONS = {
  name: str,
  address: str,
  timezone: str,
  currency: str,
  'week-start': str,
  rounding: str,
  'rounding-minutes': str,
  'approvals-enabled': str,
  'allow-past-timer-starts': str,
  'invoice-before-approval': str,
};

function settingsFrom(values: Values): WorkspaceSettingsInput {
  const s: WorkspaceSettingsInput = {};
  if (values.name !== undefined) s.name = values.name;
  if (values.address !== undefined) s.address = values.address;
  if (values.timezone !== undefined) s.timezone = values.timezone;
  if (values.currency !== undefined) s.currency = values.currency;
  if (values['week-start'] !== undefined) s.week_start = values['week-start'] as WorkspaceSettingsInput['week_start'];
  if (values.rounding !== undefined) s.rounding = values.rounding as WorkspaceSettingsInput['rounding'];
  if (values['rounding-minutes'] !== undefined) {
    const m = values['rounding-minutes'];
    if (!/^\d+$/.test(m)) throw new UsageError('--rounding-minutes must be a whole number');
    s.rounding_minutes = Number(m);
  }
  s.approvals_enabled = bool(values, 'approvals-enabled');
  s.allow_past_timer_starts = bool(values, 'allow-past-timer-starts');
  s.invoice_before_approval = bool(values, 'invoice-before-approval');
  for (const k of Object.keys(s) as Array<keyof WorkspaceSettingsInput>) if (s[k] === undefined) delete s[k];
  return s;
}

const WORKSPACE_COLUMNS = ['id', 'name', 'timezone', 'currency', 'created_at'];

const MEMBER_OPTIONS = {
  workspace: str,
  'first-name': str,
  'last-name': str,
  role: str,
  permissions: str,
  contractor: str,
  'expected-weekly-hours': str,
};

function memberFrom(values: Values): MemberInput {
  const m: MemberInput = {};
  if (values.email !== undefined) m.email = values.email;
  if (values['first-name'] !== undefined) m.first_name = values['first-name'];
  if (values['last-name'] !== undefined) m.last_name = values['last-name'];
  if (values.role !== undefined) m.role = values.role as Role;
  if (values.type !== undefined) m.user_type = values.type as UserType;
  if (values.permissions !== undefined) {
    m.permissions = values.permissions.split(',').map((p) => p.trim()).filter(Boolean) as ManagerPermission[];
  }
  if (values['expected-weekly-hours'] !== undefined) m.expected_weekly_hours = values['expected-weekly-hours'];
  const contractor = bool(values, 'contractor');
  if (contractor !== undefined) m.is_contractor = contractor;
  const active = bool(values, 'active');
  if (active !== undefined) m.is_active = active;
  return m;
}

function memberView(m: Record<string, unknown>) {
  return {
    id: m.user_id,
    email: m.email,
    first_name: m.first_name,
    last_name: m.last_name,
    role: m.role,
    permissions: m.permissions,
    user_type: m.user_type,
    is_contractor: m.is_contractor,
    is_active: m.is_active,
    expected_weekly_hours: m.expected_weekly_hours,
  };
}

const MEMBER_COLUMNS = ['id', 'email', 'first_name', 'last_name', 'role', 'user_type', 'is_contractor', 'is_active', 'permissions'];
const KEY_COLUMNS = ['id', 'kind', 'user_id', 'prefix', 'name', 'created_at', 'expires_at', 'revoked_at'];

const keyKind = (v: string | undefined) => {
  if (v === undefined || v === 'full' || v === 'integration') return 'integration' as const;
  if (v === 'personal') return 'personal' as const;
  throw new UsageError('--kind must be full or personal');
};

function issuedView(o: Output, issued: { credential: Record<string, unknown>; secret: string }, companyId: string) {
  print(o, { ...issued.credential, key: issued.secret }, () =>
    [
      fields({ ...issued.credential }),
      '',
      'The key is shown only this once; store it now:',
      `  ${issued.secret}`,
      `  (send it as "Authorization: Bearer <key>" with "Service-Account-Id: ${companyId}")`,
    ].join('\n'),
  );
}

export const adminCommands: Record<string, AdminCommand> = {
  'workspace create': {
    options: SETTING_OPTIONS,
    async run({ db, values, output }) {
      required(values, 'name');
      const company = await createWorkspace(db, settingsFrom(values) as WorkspaceSettingsInput & { name: string });
      print(output, company, () => fields(company));
    },
  },
  'workspace list': {
    options: {},
    async run({ db, output }) {
      const rows = await listWorkspaces(db);
      print(output, rows, () => table(rows, WORKSPACE_COLUMNS));
    },
  },
  'workspace settings': {
    options: { workspace: str, ...SETTING_OPTIONS },
    async run({ db, values, output }) {
      const id = workspaceId(values);
      const changes = settingsFrom(values);
      const company = Object.keys(changes).length ? await updateWorkspaceSettings(db, id, changes) : await getWorkspace(db, id);
      print(output, company, () => fields(company));
    },
  },
  'user create': {
    options: { ...MEMBER_OPTIONS, email: str, type: str },
    async run({ db, values, output }) {
      const id = workspaceId(values);
      required(values, 'email');
      required(values, 'first-name');
      const member = memberView(await createMember(db, id, memberFrom(values)));
      print(output, member, () => fields(member));
    },
  },
  'user update': {
    options: { ...MEMBER_OPTIONS, user: str, active: str },
    async run({ db, values, output }) {
      const id = workspaceId(values);
      const userId = await resolveUser(db, id, required(values, 'user'));
      const member = memberView(await updateMember(db, id, userId, memberFrom(values)));
      print(output, member, () => fields(member));
    },
  },
  'user deactivate': {
    options: { workspace: str, user: str },
    async run({ db, values, output }) {
      const id = workspaceId(values);
      const userId = await resolveUser(db, id, required(values, 'user'));
      const member = memberView(await deactivateMember(db, id, userId));
      print(output, member, () => fields(member));
    },
  },
  'user list': {
    options: { workspace: str },
    async run({ db, values, output }) {
      const rows = (await listMembersForAdmin(db, workspaceId(values))).map(memberView);
      print(output, rows, () => table(rows, MEMBER_COLUMNS));
    },
  },
  'teammate assign': {
    options: { workspace: str, manager: str, teammate: str },
    async run({ db, values, output }) {
      const id = workspaceId(values);
      const manager = await resolveUser(db, id, required(values, 'manager'));
      const teammate = await resolveUser(db, id, required(values, 'teammate'));
      const result = await assignTeammate(db, id, manager, teammate);
      print(output, result, () => `Assigned teammate ${teammate} to manager ${manager}.`);
    },
  },
  'teammate unassign': {
    options: { workspace: str, manager: str, teammate: str },
    async run({ db, values, output }) {
      const id = workspaceId(values);
      const manager = await resolveUser(db, id, required(values, 'manager'));
      const teammate = await resolveUser(db, id, required(values, 'teammate'));
      const result = await unassignTeammate(db, id, manager, teammate);
      print(output, result, () => `Removed teammate ${teammate} from manager ${manager}.`);
    },
  },
  'teammate list': {
    options: { workspace: str, manager: str },
    async run({ db, values, output }) {
      const id = workspaceId(values);
      const manager = values.manager ? await resolveUser(db, id, values.manager) : undefined;
      const rows = await listTeammates(db, id, manager);
      print(output, rows, () => table(rows, ['manager_id', 'teammate_id', 'created_at']));
    },
  },
  'key create': {
    options: { workspace: str, user: str, kind: str, name: str },
    async run({ db, values, output }) {
      const id = workspaceId(values);
      const kind = keyKind(values.kind);
      const userId = await resolveUser(db, id, required(values, 'user'));
      issuedView(output, await createKey(db, id, { userId, kind, name: values.name }), id);
    },
  },
  'key rotate': {
    options: { workspace: str, key: str },
    async run({ db, values, output, clock }) {
      const id = workspaceId(values);
      const key = required(values, 'key');
      if (!isId(key)) throw notFound('key');
      issuedView(output, await rotateKey(db, id, key, clock()), id);
    },
  },
  'key revoke': {
    options: { workspace: str, key: str },
    async run({ db, values, output, clock }) {
      const id = workspaceId(values);
      const key = required(values, 'key');
      if (!isId(key)) throw notFound('key');
      const result = await revokeKey(db, id, key, clock());
      print(output, result, () => `Revoked ${result.revoked_ids.length} key(s): ${result.revoked_ids.join(', ')}`);
    },
  },
  'key list': {
    options: { workspace: str, user: str },
    async run({ db, values, output }) {
      const id = workspaceId(values);
      const userId = values.user ? await resolveUser(db, id, values.user) : undefined;
      const rows = await listKeys(db, id, userId);
      print(output, rows, () => table(rows, KEY_COLUMNS));
    },
  },
};
