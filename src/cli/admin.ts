import type { Kysely } from 'kysely';
import { MANAGER_PERMISSIONS, type DB, type ManagerPermission, type Role, type UserType } from '../db/types.ts';
import { isId } from '../ids.ts';
import { ApiError } from '../errors.ts';
import { hashKey, isApiKeyToken } from '../auth/keys.ts';
import { listWorkspaces, updateWorkspaceSettings, validateSettings, type WorkspaceSettingsInput } from '../modules/workspace/settings/index.ts';
import { provisionWorkspace } from '../provisioning.ts';
import type { Principal } from '../auth/principal.ts';
import { operatorPrincipal } from '../access/operator.ts';
import { assertPermissionsFitRole, ROLES, validateMemberInput, type MemberInput, createMember, deactivateMember, listMemberships, updateMember } from '../modules/people/users/index.ts';
import { assignTeammate, listTeammates, unassignTeammate } from '../modules/people/teammates/index.ts';
import { createKey, listKeys, revokeKey, rotateKey, ROTATION_OVERLAP_MS } from '../modules/people/credentials/index.ts';
import { str, type AdminContext, type Command, type Options, type Values } from './command.ts';
import { fields, print, table, UsageError, type Output } from './output.ts';
import { bool, required, workspaceOption } from './options.ts';
import { requireWorkspace, resolveUser } from './lookups.ts';
import { signInLink } from '../bootstrap.ts';
import { LINK_LIFETIME_MS } from '../auth/one-time-links.ts';
import { issueOperatorSignInLink } from '../modules/people/sessions/index.ts';

// ---------------------------------------------------------------- option parsing (no database)

/** A user reference: a user id or an e-mail address. */
function userOption(values: Values, name: string, optional: true): string | undefined;
function userOption(values: Values, name: string): string;
function userOption(values: Values, name: string, optional = false): string | undefined {
  const ref = optional ? values[name] : required(values, name);
  if (ref === undefined) return undefined;
  if (!ref.includes('@') && !isId(ref)) throw new UsageError(`--${name} must be a user id or an e-mail address, not '${ref}'.`);
  return ref;
}

/** A key reference: its id (from `key list`), or the key itself (to revoke a leaked key you hold). */
function keyOption(values: Values): string {
  const ref = required(values, 'key');
  if (!isId(ref) && !isApiKeyToken(ref)) {
    throw new UsageError(`--key must be a key id (see "sheaf admin key list") or the key itself, not '${ref}'.`);
  }
  return ref;
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
  'require-two-factor': str,
} satisfies Options;

const SETTINGS_USAGE =
  '[--name N] [--address A] [--timezone ZONE] [--currency CODE] [--week-start monday|sunday|saturday] ' +
  '[--rounding none|up|nearest|down] [--rounding-minutes 1..60] [--approvals-enabled B] ' +
  '[--allow-past-timer-starts B] [--invoice-before-approval B] [--require-two-factor B]';

/** The settings named on the command line, checked by the same rules the service applies. */
function settingsFrom(values: Values): WorkspaceSettingsInput {
  const s: WorkspaceSettingsInput = {};
  if (values.name !== undefined) s.name = values.name;
  if (values.address !== undefined) s.address = values.address === '' ? null : values.address;
  if (values.timezone !== undefined) s.timezone = values.timezone;
  if (values.currency !== undefined) s.currency = values.currency;
  if (values['week-start'] !== undefined) s.week_start = values['week-start'] as WorkspaceSettingsInput['week_start'];
  if (values.rounding !== undefined) s.rounding = values.rounding as WorkspaceSettingsInput['rounding'];
  if (values['rounding-minutes'] !== undefined) {
    const m = values['rounding-minutes'];
    if (!/^\d+$/.test(m)) throw new UsageError(`--rounding-minutes must be a whole number from 1 to 60, not '${m}'.`);
    s.rounding_minutes = Number(m);
  }
  const flags = [
    ['approvals-enabled', 'approvals_enabled'],
    ['allow-past-timer-starts', 'allow_past_timer_starts'],
    ['invoice-before-approval', 'invoice_before_approval'],
    ['require-two-factor', 'require_two_factor'],
  ] as const;
  for (const [option, key] of flags) {
    const b = bool(values, option);
    if (b !== undefined) s[key] = b;
  }
  validateSettings(s);
  return s;
}

const MEMBER_OPTIONS = {
  workspace: str,
  'first-name': str,
  'last-name': str,
  role: str,
  permissions: str,
  contractor: str,
  'expected-weekly-hours': str,
} satisfies Options;

/** Empty, `none` or `-` clears a list or a number. */
const isClear = (v: string) => v === '' || v === 'none' || v === '-';

function memberFrom(values: Values): MemberInput {
  const m: MemberInput = {};
  if (values.email !== undefined) m.email = values.email.trim().toLowerCase();
  if (values['first-name'] !== undefined) m.first_name = values['first-name'];
  if (values['last-name'] !== undefined) m.last_name = values['last-name'];
  if (values.role !== undefined) m.role = values.role as Role;
  if (values.type !== undefined) m.user_type = values.type as UserType;
  if (values.permissions !== undefined) {
    m.permissions = isClear(values.permissions)
      ? []
      : ([...new Set(values.permissions.split(',').map((p) => p.trim()).filter(Boolean))] as ManagerPermission[]);
  }
  if (values['expected-weekly-hours'] !== undefined) {
    const h = values['expected-weekly-hours'];
    m.expected_weekly_hours = isClear(h) ? null : h;
  }
  const contractor = bool(values, 'contractor');
  if (contractor !== undefined) m.is_contractor = contractor;
  const active = bool(values, 'active');
  if (active !== undefined) m.is_active = active;
  validateMemberInput(m);
  return m;
}

// ---------------------------------------------------------------- database look-ups

async function resolveKey(db: Kysely<DB>, companyId: string, ref: string): Promise<string> {
  const row = await db
    .selectFrom('credentials')
    .select('id')
    .where('company_id', '=', companyId)
    .where(isId(ref) ? (eb) => eb('id', '=', ref) : (eb) => eb('secret_hash', '=', hashKey(ref)))
    .executeTakeFirst();
  if (!row) throw new ApiError('not_found', `No key ${isId(ref) ? ref : 'matching that secret'} in this workspace (see "sheaf admin key list").`, { field: 'key' });
  return row.id;
}

// ---------------------------------------------------------------- views

function memberView(m: Record<string, unknown>) {
  return {
    id: m.user_id as string,
    email: m.email as string,
    first_name: m.first_name,
    last_name: m.last_name,
    role: m.role,
    permissions: m.permissions,
    user_type: m.user_type,
    is_contractor: m.is_contractor,
    is_active: m.is_active,
    expected_weekly_hours: m.expected_weekly_hours == null ? null : Number(m.expected_weekly_hours),
  };
}

const WORKSPACE_COLUMNS = ['id', 'name', 'timezone', 'currency', 'created_at'];
const MEMBER_COLUMNS = ['id', 'email', 'first_name', 'last_name', 'role', 'permissions', 'user_type', 'is_contractor', 'is_active'];
const KEY_COLUMNS = ['id', 'kind', 'status', 'user_id', 'prefix', 'name', 'created_at', 'expires_at', 'last_used_at'];

type KeyRow = Awaited<ReturnType<typeof listKeys>>[number];

/** A key's state at `now`: active, rotated (the previous key, valid until expires_at), expired or revoked. */
function keyStatus(k: KeyRow, now: Date) {
  if (k.revoked_at) return 'revoked';
  if (k.expires_at && k.expires_at <= now) return 'expired';
  if (k.replaced_at) return 'rotated';
  return 'active';
}

function issuedView(o: Output, issued: { credential: Record<string, unknown>; secret: string }, companyId: string, note?: string) {
  print(o, { ...issued.credential, key: issued.secret }, () =>
    [
      fields({ ...issued.credential }),
      ...(note ? ['', note] : []),
      '',
      'The key is shown only this once; store it now:',
      `  ${issued.secret}`,
      `  (send it as "Authorization: Bearer <key>" with "Service-Account-Id: ${companyId}")`,
    ].join('\n'),
  );
}

const keyKind = (v: string | undefined) => {
  if (v === undefined || v === 'full' || v === 'integration') return 'integration' as const;
  if (v === 'personal') return 'personal' as const;
  throw new UsageError(`--kind must be full or personal, not '${v}'.`);
};

// ---------------------------------------------------------------- commands

/** An admin command: options are parsed first, then it runs on the opened, migrated database. */
export interface AdminCommand<T> extends Omit<Command<T>, 'run'> {
  run(ctx: AdminContext, input: T): Promise<void>;
}

const admin = <T>(c: AdminCommand<T>) => c;

function assignment(values: Values) {
  const input = { id: workspaceOption(values), manager: userOption(values, 'manager'), teammate: userOption(values, 'teammate') };
  if (input.manager.toLowerCase() === input.teammate.toLowerCase()) throw new UsageError('A manager cannot be their own teammate.');
  return input;
}

/** `admin teammate assign|unassign`: the same options and look-ups, another service call and sentence. */
function teammateCommand(
  verb: 'assign' | 'unassign',
  summary: string,
  change: (db: Kysely<DB>, p: Principal, managerId: string, teammateId: string) => Promise<object>,
  said: (teammate: string, manager: string) => string,
) {
  return admin({
    name: `admin teammate ${verb}`,
    usage: '--workspace ID --manager ID|EMAIL --teammate ID|EMAIL',
    summary,
    options: { workspace: str, manager: str, teammate: str },
    parse: assignment,
    async run({ db, output }, input) {
      await requireWorkspace(db, input.id);
      const manager = await resolveUser(db, input.id, input.manager, 'manager');
      const teammate = await resolveUser(db, input.id, input.teammate, 'teammate');
      const result = await change(db, operatorPrincipal(input.id), manager, teammate);
      print(output, result, () => said(input.teammate, input.manager));
    },
  });
}

export const adminCommands = [
  admin({
    name: 'admin workspace create',
    usage: `--name N ${SETTINGS_USAGE.replace('[--name N] ', '')}`,
    summary: 'create a workspace (no members yet: add an owner with "user create")',
    options: SETTING_OPTIONS,
    parse: (values) => {
      required(values, 'name');
      return settingsFrom(values) as WorkspaceSettingsInput & { name: string };
    },
    async run({ db, output }, settings) {
      const company = await provisionWorkspace(db, settings);
      print(output, company, () => fields(company));
    },
  }),
  admin({
    name: 'admin workspace list',
    usage: '',
    summary: 'list every workspace',
    options: {},
    parse: () => null,
    async run({ db, output }) {
      const rows = await listWorkspaces(db);
      print(output, rows, () => table(rows, WORKSPACE_COLUMNS));
    },
  }),
  admin({
    name: 'admin workspace settings',
    usage: `--workspace ID ${SETTINGS_USAGE}`,
    summary: 'show the settings, or change those named',
    options: { workspace: str, ...SETTING_OPTIONS },
    parse: (values) => ({ id: workspaceOption(values), changes: settingsFrom(values) }),
    async run({ db, output }, { id, changes }) {
      let company = await requireWorkspace(db, id);
      if (Object.keys(changes).length) company = await updateWorkspaceSettings(db, operatorPrincipal(id), changes);
      print(output, company, () => fields(company));
    },
  }),
  admin({
    name: 'admin user create',
    usage:
      '--workspace ID --email E --first-name F [--last-name L] [--role ROLE] [--permissions P,P] ' +
      '[--type human|agent] [--contractor B] [--expected-weekly-hours H]',
    summary: 'add a member (a new or an existing identity) to a workspace',
    options: { ...MEMBER_OPTIONS, email: str, type: str },
    parse: (values) => {
      const id = workspaceOption(values);
      required(values, 'email');
      required(values, 'first-name');
      const member = memberFrom(values);
      assertPermissionsFitRole(member.role ?? 'member', member.permissions);
      return { id, member };
    },
    async run({ db, output }, { id, member: input }) {
      await requireWorkspace(db, id);
      const member = memberView(await createMember(db, operatorPrincipal(id), input));
      print(output, member, () => fields(member));
    },
  }),
  admin({
    name: 'admin user update',
    usage:
      '--workspace ID --user ID|EMAIL [--email E] [--first-name F] [--last-name L] [--role ROLE] [--permissions P,P|none] ' +
      '[--contractor B] [--active B] [--expected-weekly-hours H|none]',
    summary: 'change a member (e-mail and names are the identity\'s, in every workspace)',
    options: { ...MEMBER_OPTIONS, user: str, active: str, email: str },
    parse: (values) => {
      const id = workspaceOption(values);
      const user = userOption(values, 'user');
      const member = memberFrom(values);
      if (Object.keys(member).length === 0) throw new UsageError('Name at least one thing to change.');
      if (member.role) assertPermissionsFitRole(member.role, member.permissions);
      return { id, user, member };
    },
    async run({ db, output }, { id, user, member: input }) {
      await requireWorkspace(db, id);
      const userId = await resolveUser(db, id, user, 'user');
      const member = memberView(await updateMember(db, operatorPrincipal(id), userId, input));
      print(output, member, () => fields(member));
    },
  }),
  admin({
    name: 'admin user deactivate',
    usage: '--workspace ID --user ID|EMAIL',
    summary: 'deactivate a member: their keys stop working at once (reactivate with "user update --active true")',
    options: { workspace: str, user: str },
    parse: (values) => ({ id: workspaceOption(values), user: userOption(values, 'user') }),
    async run({ db, output }, { id, user }) {
      await requireWorkspace(db, id);
      const userId = await resolveUser(db, id, user, 'user');
      const member = memberView(await deactivateMember(db, operatorPrincipal(id), userId));
      print(output, member, () => fields(member));
    },
  }),
  admin({
    name: 'admin user sign-in-link',
    usage: '--workspace ID --user ID|EMAIL',
    summary:
      "print a one-time link that signs a member in to the web app (24 hours; the hour after, they choose a password without the old one): the way back in without e-mail",
    options: { workspace: str, user: str },
    parse: (values) => ({ id: workspaceOption(values), user: userOption(values, 'user') }),
    async run({ db, output, clock, baseUrl }, { id, user }) {
      await requireWorkspace(db, id);
      const userId = await resolveUser(db, id, user, 'user');
      const { token, email } = await issueOperatorSignInLink(db, id, userId, clock());
      const link = signInLink(baseUrl, token);
      print(output, { user_id: userId, email, link, expires_in_hours: LINK_LIFETIME_MS.sign_in / 3_600_000 }, () =>
        [`A sign-in link for ${email}; it works once, within 24 hours, and replaces their earlier one:`, `  ${link}`].join('\n'),
      );
    },
  }),
  admin({
    name: 'admin user list',
    usage: '--workspace ID',
    summary: 'list the members of a workspace',
    options: { workspace: str },
    parse: (values) => workspaceOption(values),
    async run({ db, output }, id) {
      await requireWorkspace(db, id);
      const rows = (await listMemberships(db, operatorPrincipal(id))).map(memberView);
      print(output, rows, () => table(rows, MEMBER_COLUMNS));
    },
  }),
  teammateCommand('assign', 'assign a teammate to a manager (the manager approves their time)', assignTeammate, (t, m) => `Assigned ${t} as a teammate of ${m}.`),
  teammateCommand('unassign', 'remove a teammate from a manager', unassignTeammate, (t, m) => `Removed ${t} from the teammates of ${m}.`),
  admin({
    name: 'admin teammate list',
    usage: '--workspace ID [--manager ID|EMAIL]',
    summary: 'list manager-teammate assignments',
    options: { workspace: str, manager: str },
    parse: (values) => ({ id: workspaceOption(values), manager: userOption(values, 'manager', true) }),
    async run({ db, output }, input) {
      await requireWorkspace(db, input.id);
      const manager = input.manager ? await resolveUser(db, input.id, input.manager, 'manager') : undefined;
      const rows = await listTeammates(db, operatorPrincipal(input.id), manager);
      print(output, rows, () => table(rows, ['manager_email', 'teammate_email', 'manager_id', 'teammate_id', 'created_at']));
    },
  }),
  admin({
    name: 'admin key create',
    usage: '--workspace ID --user ID|EMAIL [--kind full|personal] [--name N]',
    summary: 'issue a full-access key (default) or a personal read-only sync key; the key is shown once',
    options: { workspace: str, user: str, kind: str, name: str },
    parse: (values) => ({ id: workspaceOption(values), user: userOption(values, 'user'), kind: keyKind(values.kind), name: values.name }),
    async run({ db, output }, input) {
      await requireWorkspace(db, input.id);
      const userId = await resolveUser(db, input.id, input.user, 'user');
      issuedView(output, await createKey(db, operatorPrincipal(input.id), { userId, kind: input.kind, name: input.name }), input.id);
    },
  }),
  admin({
    name: 'admin key rotate',
    usage: '--workspace ID --key ID|KEY',
    summary: 'replace a key; the previous one keeps working for 15 minutes',
    options: { workspace: str, key: str },
    parse: (values) => ({ id: workspaceOption(values), key: keyOption(values) }),
    async run({ db, output, clock }, input) {
      await requireWorkspace(db, input.id);
      const keyId = await resolveKey(db, input.id, input.key);
      const now = clock();
      const issued = await rotateKey(db, operatorPrincipal(input.id), keyId, now);
      const until = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
      issuedView(output, issued, input.id, `The previous key ${keyId} stays valid until ${until}.`);
    },
  }),
  admin({
    name: 'admin key revoke',
    usage: '--workspace ID --key ID|KEY',
    summary: 'revoke a key at once, with every earlier key of its rotation family',
    options: { workspace: str, key: str },
    parse: (values) => ({ id: workspaceOption(values), key: keyOption(values) }),
    async run({ db, output, clock }, input) {
      await requireWorkspace(db, input.id);
      const keyId = await resolveKey(db, input.id, input.key);
      const result = await revokeKey(db, operatorPrincipal(input.id), keyId, clock());
      print(output, result, () =>
        result.revoked_ids.length
          ? `Revoked ${result.revoked_ids.length} key(s): ${result.revoked_ids.join(', ')}`
          : `Key ${keyId} and its rotation family were already revoked.`,
      );
    },
  }),
  admin({
    name: 'admin key list',
    usage: '--workspace ID [--user ID|EMAIL]',
    summary: 'list keys (never the secrets)',
    options: { workspace: str, user: str },
    parse: (values) => ({ id: workspaceOption(values), user: userOption(values, 'user', true) }),
    async run({ db, output, clock }, input) {
      await requireWorkspace(db, input.id);
      const userId = input.user ? await resolveUser(db, input.id, input.user, 'user') : undefined;
      const now = clock();
      const rows = (await listKeys(db, operatorPrincipal(input.id), userId)).map((k) => ({ ...k, status: keyStatus(k, now) }));
      print(output, rows, () => table(rows, KEY_COLUMNS));
    },
  }),
];

/** The option each service field comes from, so service messages can name the flag the user typed. */
export const FIELD_OPTIONS: Record<string, string> = {
  user_type: '--type',
  is_contractor: '--contractor',
  is_active: '--active',
  // sheaf admin invoice-settings set
  default_notes: '--notes',
  default_payment_term: '--payment-term',
  default_payment_days: '--payment-days',
};

export const ROLE_NAMES = ROLES.join('|');
export const PERMISSION_NAMES = MANAGER_PERMISSIONS.join(', ');
