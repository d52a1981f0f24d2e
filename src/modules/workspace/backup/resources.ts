/**
 * The backup's resources (schema version 1): which tables each one reads, in
 * which order, with which nested arrays, and what is deliberately left out.
 *
 * Completeness is checked, not hoped for: every table of the database is either
 * read by a resource (TABLE_USE) or excluded with a reason (EXCLUDED_TABLES), and
 * every column of a read table is either exported or listed in OMITTED_COLUMNS;
 * test/backup.test.ts fails when a migration adds a table or a column that is in
 * neither. Everything here is a constant: no request input reaches the SQL
 * fragments below (values travel as parameters in queries.ts).
 */

import { Decimal } from 'decimal.js';
import { minorUnitDigits } from '../../../money.ts';

export const BACKUP_SCHEMA_VERSION = 1;
export const BACKUP_DEFAULT_PER_PAGE = 100;
export const BACKUP_MAX_PER_PAGE = 500;

/** A nested array of a parent record (per_page counts parents; children come whole). */
export interface ChildSpec {
  /** The array's name in the parent record. */
  field: string;
  /** `select` list (constants), over the child table aliased `x`. */
  columns: string;
  /** FROM clause; the child table is aliased `x`. */
  from: string;
  /** Column of `x` holding the parent's key (the parent's `id`, or `user_id` for members). */
  parentColumn: string;
  /** Extra constant condition on `x`. */
  where?: string;
  /** Order within one parent (total, so it is stable). */
  orderBy: string;
}

export interface TableResourceSpec {
  kind: 'table';
  name: string;
  description: string;
  /** `select` list (constants). */
  columns: string;
  /** FROM clause with its joins. */
  from: string;
  /** The column that holds the workspace id. */
  companyColumn: string;
  /** The order and keyset columns (all uuids), with the record field each one is. */
  key: Array<{ column: string; field: string }>;
  children?: ChildSpec[];
  /** Shapes a row into a record after the generic conversion (links, nested objects). */
  present?: (row: Record<string, unknown>) => Record<string, unknown>;
}

/** A resource of schema version 1 that the product has no table for yet: always empty. */
export interface EmptyResourceSpec {
  kind: 'empty';
  name: string;
  description: string;
  /** Why it is empty, said in the manifest's notes. */
  note: string;
}

export type ResourceSpec = TableResourceSpec | EmptyResourceSpec;

/**
 * A rate given when its project, assignment or person was created applies from
 * the start (FROM_THE_START, '-infinity' in SQL, src/modules/catalog/rates/rules.ts); the
 * backup shows it as a null effective_from, as the API does, not as a non-ISO date.
 */
const RATE_EFFECTIVE_FROM = `nullif(x.effective_from, '-infinity'::date) as effective_from`;

/** The rows of a workspace table aliased `alias`: the workspace's by their company_id, in the order of (and paged by) their own id. */
const ownRows = (alias: string) => ({ companyColumn: `${alias}.company_id`, key: [{ column: `${alias}.id`, field: 'id' }] });

const receiptOf = (row: Record<string, unknown>) => {
  const { receipt_file_name, receipt_content_type, receipt_byte_size, receipt_sha256, receipt_uploaded_at, ...rest } = row;
  const has = rest.receipt_file_id != null && receipt_file_name != null;
  return {
    ...rest,
    receipt: has
      ? {
          file_name: receipt_file_name,
          content_type: receipt_content_type,
          byte_size: receipt_byte_size,
          sha256: receipt_sha256,
          uploaded_at: receipt_uploaded_at,
        }
      : null,
    receipt_download_url: has ? `/api/v2/expenses/${rest.id}/receipt` : null,
  };
};

/** In the spec's order. The manifest lists exactly these, in this order. */
export const RESOURCES: ResourceSpec[] = [
  {
    kind: 'table',
    name: 'workspace',
    description:
      'The workspace (company) and its settings: time zone, currency, week start, rounding, approval and timer options, break rules, and the sender details invoices print.',
    columns: `c.id, c.name, c.address, c.timezone, c.currency, c.week_start, c.rounding, c.rounding_minutes,
      c.approvals_enabled, c.allow_past_timer_starts, c.invoice_before_approval, c.require_two_factor, c.break_rules, c.sender_email, c.sender_phone, c.tax_id,
      c.created_at, c.updated_at`,
    from: 'companies c',
    companyColumn: 'c.id',
    key: [{ column: 'c.id', field: 'id' }],
  },
  {
    kind: 'table',
    name: 'members',
    description:
      "Every membership of the workspace (active or not, clients included) with the person's identity and e-mail, role, manager permissions, contractor flag and expected weekly hours; `rates` holds the person's own effective-dated billable and cost rates.",
    columns: `u.id, u.email, u.first_name, u.last_name, u.user_type, m.role, m.permissions,
      m.is_contractor, m.is_active, m.expected_weekly_hours, m.created_at, m.updated_at,
      u.created_at as user_created_at, u.updated_at as user_updated_at`,
    from: 'memberships m join users u on u.id = m.user_id',
    companyColumn: 'm.company_id',
    key: [{ column: 'm.user_id', field: 'id' }],
    children: [
      {
        field: 'rates',
        columns: `x.id, x.kind, x.user_id, ${RATE_EFFECTIVE_FROM}, x.hourly_rate, x.created_at`,
        from: 'rates x',
        parentColumn: 'x.user_id',
        where: 'x.project_id is null and x.task_id is null',
        orderBy: 'x.kind, x.effective_from, x.id',
      },
    ],
  },
  {
    kind: 'empty',
    name: 'roles',
    description: 'Custom roles.',
    note: 'roles: the roles are fixed (owner, administrator, manager, member, client; contractor is a flag) and recorded on each member as `role`, `permissions` and `is_contractor`; there are no custom roles yet, so the resource has 0 entries.',
  },
  {
    kind: 'table',
    name: 'teammate_assignments',
    description: 'Which teammates each manager manages (approvals, team reports, writing time for them).',
    columns: 't.manager_id, t.teammate_id, t.created_at',
    from: 'teammate_assignments t',
    companyColumn: 't.company_id',
    key: [
      { column: 't.manager_id', field: 'manager_id' },
      { column: 't.teammate_id', field: 'teammate_id' },
    ],
  },
  {
    kind: 'table',
    name: 'clients',
    description: 'Clients with their invoicing defaults; `contacts` holds their contacts.',
    columns: `c.id, c.name, c.address, c.currency, c.payment_terms, c.payment_days, c.tax, c.tax2, c.discount, c.language,
      c.vat_id, c.invoice_email, c.street, c.postal_code, c.city, c.country_code, c.buyer_reference, c.is_active, c.created_at, c.updated_at`,
    from: 'clients c',
    ...ownRows('c'),
    children: [
      {
        field: 'contacts',
        columns: `x.id, x.client_id, x.first_name, x.last_name, x.title, x.email, x.phone_office, x.phone_mobile, x.fax,
          x.created_at, x.updated_at`,
        from: 'contacts x',
        parentColumn: 'x.client_id',
        orderBy: 'x.id',
      },
    ],
  },
  {
    kind: 'table',
    name: 'projects',
    description:
      'Projects with billing and budget settings; `user_assignments` (people, project managers, person budgets), `task_assignments` (tasks used, billable flag, task budgets) and `rates` (every effective-dated rate scoped to the project: project, task and person rates).',
    columns: `p.id, p.client_id, p.name, p.code, p.notes, p.owner_id, p.is_active, p.is_billable, p.bill_by, p.is_fixed_fee,
      p.fee, p.cost_budget, p.budget_by, p.budget, p.budget_is_monthly, p.show_budget_to_all, p.notify_when_over_budget, p.over_budget_notification_percentage, p.starts_on, p.ends_on,
      p.created_at, p.updated_at`,
    from: 'projects p',
    ...ownRows('p'),
    children: [
      {
        field: 'user_assignments',
        columns: 'x.project_id, x.user_id, x.is_project_manager, x.is_active, x.budget, x.created_at, x.updated_at',
        from: 'project_user_assignments x',
        parentColumn: 'x.project_id',
        orderBy: 'x.user_id',
      },
      {
        field: 'task_assignments',
        columns: 'x.project_id, x.task_id, x.is_active, x.billable, x.budget, x.created_at, x.updated_at',
        from: 'project_task_assignments x',
        parentColumn: 'x.project_id',
        orderBy: 'x.task_id',
      },
      {
        field: 'rates',
        columns: `x.id, x.kind, x.project_id, x.task_id, x.user_id, ${RATE_EFFECTIVE_FROM}, x.hourly_rate, x.created_at`,
        from: 'rates x',
        parentColumn: 'x.project_id',
        orderBy: 'x.task_id nulls first, x.user_id nulls first, x.effective_from, x.id',
      },
    ],
  },
  {
    kind: 'table',
    name: 'tasks',
    description: "The workspace's tasks with their defaults (billable, default hourly rate, assigned to new projects).",
    columns: 't.id, t.name, t.billable_by_default, t.default_hourly_rate, t.is_default, t.is_active, t.created_at, t.updated_at',
    from: 'tasks t',
    ...ownRows('t'),
  },
  {
    kind: 'table',
    name: 'time_entries',
    description:
      'Every time entry and running timer: duration, hours as entered, wall-clock times, notes, billable flag and historical rate, approval state, billed flag and invoice link, metadata and external reference.',
    columns: `t.id, t.user_id, t.project_id, t.task_id, t.spent_date, t.duration_seconds, t.hours_entered, t.is_running,
      t.timer_started_at, t.started_time, t.ended_time, t.notes, t.billable, t.billable_rate, t.source, t.metadata,
      t.external_reference, t.approval_status, t.is_billed, t.invoice_id, t.invoice_line_id, t.created_by,
      t.created_at, t.updated_at`,
    from: 'time_entries t',
    ...ownRows('t'),
  },
  {
    kind: 'table',
    name: 'expense_categories',
    description: 'Expense categories, with unit name and unit price for unit-priced ones.',
    columns: 'e.id, e.name, e.unit_name, e.unit_price, e.is_active, e.created_at, e.updated_at',
    from: 'expense_categories e',
    ...ownRows('e'),
  },
  {
    kind: 'table',
    name: 'expenses',
    description:
      'Every expense, with approval state, billed flag and invoice link; `receipt` describes the receipt file (name, type, size, SHA-256) and `receipt_download_url` serves its bytes.',
    columns: `e.id, e.user_id, e.project_id, e.expense_category_id, e.spent_date, e.units, e.total_cost, e.notes,
      e.billable, e.source, e.metadata, e.receipt_file_id, e.approval_status, e.is_billed, e.invoice_id,
      e.invoice_line_id, e.created_by, e.created_at, e.updated_at,
      f.filename as receipt_file_name, f.content_type as receipt_content_type, f.byte_size as receipt_byte_size,
      f.sha256 as receipt_sha256, f.created_at as receipt_uploaded_at`,
    from: 'expenses e left join files f on f.company_id = e.company_id and f.id = e.receipt_file_id',
    ...ownRows('e'),
    present: receiptOf,
  },
  {
    kind: 'table',
    name: 'invoice_settings',
    description:
      "The workspace's invoice settings once saved (at most one record): legal name, VAT id, registration number, default payment term, notes and footer, the number format and its counter; `logo` describes the logo (type, size, name), never its bytes. The address and tax id are the workspace's.",
    columns: `s.company_id as workspace_id, s.legal_name, s.vat_id, s.registration_number, s.default_payment_term, s.default_payment_days,
      s.default_notes, s.footer, s.number_format, s.next_number, s.yearly_reset, s.number_year,
      s.street, s.postal_code, s.city, s.country_code, s.contact_name, s.vat_exemption_reason, s.updated_at,
      f.content_type as logo_content_type, f.byte_size as logo_byte_size, f.filename as logo_file_name, f.created_at as logo_uploaded_at`,
    from: 'invoice_settings s left join files f on f.company_id = s.company_id and f.id = s.logo_file_id',
    companyColumn: 's.company_id',
    key: [{ column: 's.company_id', field: 'workspace_id' }],
    present: ({ logo_content_type, logo_byte_size, logo_file_name, logo_uploaded_at, ...rest }) => ({
      ...rest,
      logo: logo_content_type == null ? null : { content_type: logo_content_type, byte_size: logo_byte_size, file_name: logo_file_name, uploaded_at: logo_uploaded_at },
    }),
  },
  {
    kind: 'table',
    name: 'bank_accounts',
    description:
      'Bank accounts invoices print as payment details (display details: holder, IBAN, BIC, bank name, local account text), with their currency and whether each is its currency’s default.',
    columns: 'b.id, b.currency, b.holder, b.iban, b.bic, b.bank_name, b.local_account, b.is_default, b.created_at, b.updated_at',
    from: 'bank_accounts b',
    ...ownRows('b'),
  },
  {
    kind: 'table',
    name: 'invoice_item_categories',
    description:
      "Invoice item categories: the names a line item's `kind` may be given (the built-in Service and Product, and the workspace's own), active or archived. Lines keep the kind text they were given, exported with the invoice.",
    columns: 'x.id, x.name, x.is_builtin, x.is_active, x.created_at, x.updated_at',
    from: 'invoice_item_categories x',
    ...ownRows('x'),
  },
  {
    kind: 'table',
    name: 'invoices',
    description:
      'Invoices with their state, dates, taxes and notes (`tax_base_rounded`: each tax is a rate of its lines\' discounted sum rounded to the minor unit; false for invoices made before 2026-12-06, whose taxes are rates of the unrounded sum); nested: `line_items`, `payments`, `messages` (sends, reminders, thank-yous, without the delivery queue), `attachments` (with `download_url`) and `expense_receipts` (the receipts of the expenses it bills, with `download_url`).',
    columns: `i.id, i.client_id, i.number, i.state, i.subject, i.issue_date, i.due_date, i.payment_term, i.currency,
      i.purchase_order, i.tax, i.tax2, i.discount, i.tax_base_rounded, i.notes, i.period_start, i.period_end, i.service_period_start,
      i.service_period_end, i.created_by, i.sent_at, i.paid_at, i.created_at, i.updated_at`,
    from: 'invoices i',
    ...ownRows('i'),
    children: [
      {
        field: 'line_items',
        columns: `x.id, x.invoice_id, x.kind, x.description, x.quantity, x.unit_price, x.effect, x.taxed, x.taxed2,
          x.project_id, x.sort_order, x.import_source, x.retainer_id, x.created_at, x.updated_at`,
        from: 'invoice_line_items x',
        parentColumn: 'x.invoice_id',
        orderBy: 'x.sort_order, x.id',
      },
      {
        field: 'payments',
        columns: 'x.id, x.invoice_id, x.amount, x.paid_date, x.method, x.notes, x.created_at',
        from: 'invoice_payments x',
        parentColumn: 'x.invoice_id',
        orderBy: 'x.paid_date, x.id',
      },
      {
        field: 'messages',
        columns: `x.id, x.invoice_id, x.event_type, x.recipients, x.cc_recipients, x.subject, x.body, x.attach_pdf,
          x.attach_e_invoice, x.attach_expense_receipts, x.send_me_a_copy, x.attachments, x.sent_by, x.created_at`,
        from: 'invoice_messages x',
        parentColumn: 'x.invoice_id',
        orderBy: 'x.created_at, x.id',
      },
      {
        field: 'attachments',
        // The file's metadata, never its id (the storage key): the bytes are behind download_url.
        columns: `x.id, x.invoice_id, f.filename as file_name, f.content_type, f.byte_size, f.sha256, x.uploaded_by, x.created_at`,
        from: 'invoice_attachments x join files f on f.company_id = x.company_id and f.id = x.file_id',
        parentColumn: 'x.invoice_id',
        orderBy: 'x.created_at, x.id',
      },
      {
        field: 'expense_receipts',
        // One entry per receipt file of the invoice's billed expenses (a file shared by two expenses once).
        columns: `distinct on (x.invoice_id, f.id) x.invoice_id, f.id, f.filename as file_name, f.content_type,
          f.byte_size, f.sha256, f.created_at as uploaded_at`,
        from: 'expenses x join files f on f.company_id = x.company_id and f.id = x.receipt_file_id',
        parentColumn: 'x.invoice_id',
        orderBy: 'f.id',
      },
    ],
    present: (row) => {
      const receipts = (row.expense_receipts as Array<Record<string, unknown>>).map((r) => ({
        ...r,
        download_url: `/api/v2/backup/files/invoice_expense_receipts/${r.id}`,
      }));
      const attachments = (row.attachments as Array<Record<string, unknown>>).map((a) => ({
        ...a,
        download_url: `/api/v2/invoices/${a.invoice_id}/attachments/${a.id}/download`,
      }));
      return { ...row, attachments, expense_receipts: receipts };
    },
  },
  {
    kind: 'table',
    name: 'estimates',
    description:
      "Estimates (quotes) with their state, answer (with the client's `decline_reason`), `valid_until`, the invoice an accepted one became (`converted_invoice_id`), taxes and notes; nested: `line_items`.",
    columns: `e.id, e.client_id, e.number, e.state, e.subject, e.issue_date, e.currency, e.tax, e.tax2, e.discount, e.notes,
      e.created_by, e.sent_at, e.accepted_at, e.declined_at, e.answered_by_client, e.converted_invoice_id, e.created_at, e.updated_at,
      e.valid_until, e.decline_reason`,
    from: 'estimates e',
    ...ownRows('e'),
    children: [
      {
        field: 'line_items',
        columns: `x.id, x.estimate_id, x.kind, x.description, x.quantity, x.unit_price, x.taxed, x.taxed2, x.project_id,
          x.sort_order, x.created_at, x.updated_at`,
        from: 'estimate_line_items x',
        parentColumn: 'x.estimate_id',
        orderBy: 'x.sort_order, x.id',
      },
    ],
  },
  {
    kind: 'table',
    name: 'retainers',
    description:
      "Retainers (a client's prepaid funds) with their client, currency, archive time and `balance` (funding lines of paid invoices minus credit lines of invoices that are not voided, in the currency's minor unit, as a string; derived, never stored); nested: `entries`, the invoice lines that fund it (`effect` charge) or draw on it (`effect` credit), each with its invoice. The same lines are in `invoices` (line_items, `retainer_id`).",
    columns: `r.id, r.client_id, r.name, r.description, r.currency, r.created_by, r.archived_at, r.created_at, r.updated_at,
      retainer_balance(r.company_id, r.id) as balance`,
    from: 'retainers r',
    ...ownRows('r'),
    children: [
      {
        field: 'entries',
        columns: 'x.id, x.retainer_id, x.invoice_id, x.effect, x.quantity * x.unit_price as amount, x.created_at',
        from: 'invoice_line_items x',
        parentColumn: 'x.retainer_id',
        orderBy: 'x.created_at, x.id',
      },
    ],
    present: (row) => {
      const digits = minorUnitDigits(String(row.currency));
      const money = (v: unknown) => new Decimal(String(v)).toFixed(digits);
      const entries = (row.entries as Array<Record<string, unknown>>).map((e) => ({ ...e, amount: money(e.amount) }));
      return { ...row, balance: money(row.balance), entries };
    },
  },
  {
    kind: 'table',
    name: 'recurring_invoices',
    description:
      'Recurring invoice schedules: client, frequency and anchor day, start and end, the template (lines, or the projects whose uninvoiced work is invoiced), draft or send (with recipients), taxes, paused, next date; nested: `occurrences` (each date with its period, outcome, note and the invoice it made).',
    columns: `r.id, r.client_id, r.frequency, r.anchor_day, r.start_date, r.end_date, r.source, r.line_items, r.project_ids,
      r.time_summary, r.expense_summary, r.action, r.recipients, r.subject, r.notes, r.tax, r.tax2, r.discount, r.is_paused,
      r.next_run_date, r.created_by, r.created_at, r.updated_at`,
    from: 'recurring_invoice_schedules r',
    ...ownRows('r'),
    children: [
      {
        field: 'occurrences',
        columns: 'x.id, x.schedule_id, x.occurrence_date, x.period_start, x.period_end, x.invoice_id, x.outcome, x.note, x.created_at',
        from: 'recurring_invoice_occurrences x',
        parentColumn: 'x.schedule_id',
        orderBy: 'x.occurrence_date, x.id',
      },
    ],
  },
  {
    kind: 'table',
    name: 'planning_assignments',
    description:
      'Planner assignments, soft-deleted ones included (deleted_at): a person (user_id) or a placeholder (placeholder_id) on a project from starts_on to ends_on, with hours_per_day or a total_hours spread over the working days.',
    columns: 'a.id, a.project_id, a.user_id, a.placeholder_id, a.starts_on, a.ends_on, a.hours_per_day, a.total_hours, a.notes, a.created_by, a.deleted_at, a.created_at, a.updated_at',
    from: 'planning_assignments a',
    ...ownRows('a'),
  },
  {
    kind: 'table',
    name: 'planning_placeholders',
    description: 'Planner placeholders: roles still to staff, with the weekly hours they stand for; archived once staffed (is_active false).',
    columns: 'h.id, h.name, h.weekly_hours, h.is_active, h.created_at, h.updated_at',
    from: 'planning_placeholders h',
    ...ownRows('h'),
  },
  {
    kind: 'table',
    name: 'planning_time_off',
    description:
      "Time off: a person's (user_id) vacation, sick, unpaid or other days, whole or some hours a day (hours), and the workspace's public holidays (user_id null, kind public_holiday), with a note or the holiday's name.",
    columns: 't.id, t.user_id, t.kind, t.starts_on, t.ends_on, t.hours, t.name, t.created_by, t.created_at, t.updated_at',
    from: 'planning_time_off t',
    ...ownRows('t'),
  },
  {
    kind: 'table',
    name: 'planning_working_patterns',
    description:
      "Working patterns: a person's hours per weekday from effective_from until their next pattern; a person without one is expected `members`' expected_weekly_hours over Monday to Friday.",
    columns: 'w.id, w.user_id, w.effective_from, w.monday, w.tuesday, w.wednesday, w.thursday, w.friday, w.saturday, w.sunday, w.created_at, w.updated_at',
    from: 'planning_working_patterns w',
    ...ownRows('w'),
  },
  {
    kind: 'table',
    name: 'saved_reports',
    description:
      'Saved report definitions: owner, name, which report, its period (relative, or custom with from and to), grouping or project filter, private or shared with the workspace, and the e-mail schedule with its next date; not the record of e-mails sent.',
    columns: `s.id, s.owner_id, s.name, s.report, s.period, s.from_date as "from", s.to_date as "to", s.group_by, s.is_active, s.visibility,
      s.schedule, s.next_send_date, s.created_at, s.updated_at`,
    from: 'saved_reports s',
    ...ownRows('s'),
  },
  {
    kind: 'table',
    name: 'invitations',
    description:
      'Invitations to the workspace, pending, accepted, revoked and expired, with the invited e-mail, role, manager permissions, contractor flag, who invited and who accepted; never the invitation tokens.',
    columns: `i.id, i.email, i.role, i.permissions, i.is_contractor, i.invited_by, i.created_at, i.expires_at,
      i.accepted_at, i.accepted_user_id, i.revoked_at`,
    from: 'invitations i',
    ...ownRows('i'),
  },
  {
    kind: 'table',
    name: 'webhook_endpoints',
    description:
      'Webhook endpoints: URL, description, the event kinds sent, active or not (and why Sheaf turned one off), the administrator whose view the payloads carry (null: the operator); never the signing secrets, nor the delivery log.',
    columns: 'e.id, e.url, e.description, e.events, e.is_active, e.disabled_reason, e.disabled_at, e.created_by, e.created_at, e.updated_at',
    from: 'webhook_endpoints e',
    ...ownRows('e'),
  },
  {
    kind: 'table',
    name: 'audit_logs',
    description: 'The audit log: who (user and credential id) did what to which record, when, with details.',
    columns: 'a.id, a.occurred_at, a.actor_user_id, a.credential_id, a.action, a.subject_type, a.subject_id, a.details',
    from: 'audit_logs a',
    ...ownRows('a'),
  },
];

export const RESOURCE_BY_NAME = new Map(RESOURCES.map((r) => [r.name, r]));

/** What the export never contains (the manifest's `excluded`). */
export const EXCLUDED = [
  'credentials: API keys and their hashes, passwords, sessions, access and refresh tokens',
  'invitation tokens',
  'webhook signing secrets and webhook delivery history',
  'encrypted integration credentials',
  'storage keys (file bytes are served by the download links, never embedded)',
  'payment-processor identifiers and platform billing state',
  'queues (the e-mail outbox), caches, background jobs and internal delivery logs',
  'idempotency records',
];

/** Tables read by the export, and by which resource. */
export const TABLE_USE: Record<string, string> = {
  companies: 'workspace',
  users: 'members',
  memberships: 'members',
  teammate_assignments: 'teammate_assignments',
  clients: 'clients',
  contacts: 'clients (contacts)',
  projects: 'projects',
  project_user_assignments: 'projects (user_assignments)',
  project_task_assignments: 'projects (task_assignments)',
  rates: 'projects (rates) and members (rates)',
  tasks: 'tasks',
  time_entries: 'time_entries',
  expense_categories: 'expense_categories',
  expenses: 'expenses',
  bank_accounts: 'bank_accounts',
  files: 'expenses (receipt) and invoices (attachments, expense_receipts): metadata; bytes through the download links; invoice_settings (logo): metadata only',
  invoice_item_categories: 'invoice_item_categories',
  invoice_settings: 'invoice_settings',
  invoices: 'invoices',
  invoice_line_items: 'invoices (line_items)',
  invoice_payments: 'invoices (payments)',
  invoice_messages: 'invoices (messages)',
  recurring_invoice_schedules: 'recurring_invoices',
  recurring_invoice_occurrences: 'recurring_invoices (occurrences)',
  invoice_attachments: 'invoices (attachments)',
  estimates: 'estimates',
  estimate_line_items: 'estimates (line_items)',
  retainers: 'retainers',
  saved_reports: 'saved_reports',
  planning_assignments: 'planning_assignments',
  planning_placeholders: 'planning_placeholders',
  planning_time_off: 'planning_time_off',
  planning_working_patterns: 'planning_working_patterns',
  webhook_endpoints: 'webhook_endpoints',
  invitations: 'invitations',
  audit_logs: 'audit_logs',
};

/** Tables the export leaves out, and why. */
export const EXCLUDED_TABLES: Record<string, string> = {
  credentials: 'API keys (hashes, prefixes, rotation state): credentials are never exported',
  idempotency_keys: 'idempotency records (stored responses, request hashes)',
  outbox: 'the e-mail delivery queue and its delivery log',
  schema_migrations: 'migration bookkeeping of this installation, not workspace data',
  sessions: 'browser sessions (token hashes): credentials are never exported',
  one_time_links: 'sign-in and password-reset links (token hashes): credentials are never exported',
  sign_in_failures: 'the sign-in throttle\u2019s recent failures, per installation, not workspace data',
  client_links: "clients' links to an invoice (token hashes): link tokens are credentials, never exported",
  calendar_feeds: "people's calendar feed links (token hashes): feed tokens are credentials, never exported",
  user_two_factor: 'two-factor (TOTP) secrets: credentials are never exported',
  two_factor_recovery_codes: 'two-factor recovery codes (hashes): credentials are never exported',
  two_factor_challenges: 'sign-ins waiting for their two-factor code (token hashes): credentials are never exported',
  user_passkeys: "people's passkeys (public keys, credential ids): credentials are never exported",
  webauthn_challenges: 'passkey ceremonies in progress (random challenges, 5 minutes)',
  sign_in_devices: 'browsers known to have signed in (cookie hashes), for the sign-in throttle: credentials are never exported',
  single_sign_on_configs: "the workspace's identity provider and its sealed client secret: credentials are never exported",
  single_sign_on_links: "which identity-provider subject is which person (sign-in bookkeeping, made again at each person's next sign-in)",
  single_sign_on_logins: 'sign-ins on their way through the identity provider (state hashes, PKCE verifiers): credentials are never exported',
  saved_report_deliveries: "the record of saved reports' e-mails sent (an internal delivery log)",
  project_budget_alerts: "the record of budget alerts e-mailed (an internal delivery log, like saved reports')",
  webhook_deliveries: 'the webhooks’ delivery queue and log (kept 30 days): a delivery log, like the e-mail outbox',
  changes: 'the change feed’s log of recent changes (a delivery log, kept for CHANGES_RETENTION_DAYS); the records themselves are exported',
  change_horizons: 'where the change feed’s retention last deleted, per workspace (feed bookkeeping, not workspace data)',
  webhook_fan_out: 'how far the webhooks’ worker has turned recorded events into deliveries, per workspace (delivery bookkeeping)',
  time_totals_generations: 'when the reports’ kept totals of time went stale, per workspace (a cache’s bookkeeping)',
  project_time_totals_stale: 'which projects’ kept totals of time went stale since a report summed them (a cache’s bookkeeping)',
  project_time_totals: 'the reports’ kept totals of time per project (a cache, summed again from the time entries)',
  project_month_time_totals: 'the reports’ kept totals of time per project and month (a cache, summed again from the time entries)',
};

/**
 * Columns of read tables that are not exported, and why. `company_id` is left out
 * of every record: the whole export is one workspace (the `workspace` record).
 */
export const OMITTED_COLUMNS: Record<string, Record<string, string>> = {
  files: { data: 'the bytes: served by the download links', company_id: 'implicit' },
  users: {
    password_hash: 'passwords are credentials, never exported',
    language: "the person's own display preference, not workspace data",
    date_format: "the person's own display preference, not workspace data",
    duration_format: "the person's own display preference, not workspace data",
    theme: "the person's own display preference, not workspace data",
  },
  invitations: { token_hash: 'invitation tokens are credentials, never exported', company_id: 'implicit' },
  invoice_attachments: { file_id: 'the storage key of the bytes: served by download_url instead', company_id: 'implicit' },
  invoice_settings: { logo_file_id: 'a storage key: `logo` describes the logo (type, size, name); its bytes are not exported' },
  webhook_endpoints: {
    secret: 'signing secrets are credentials, never exported',
    previous_secret: 'signing secrets are credentials, never exported',
    previous_secret_expires_at: 'the rotation overlap of a secret that is not exported',
    active_periods: 'when it was on in the last 30 days, by the database clock: which events it gets (delivery bookkeeping)',
    company_id: 'implicit',
  },
  invoice_messages: { outbox_id: 'a reference into the delivery queue, which is not exported', company_id: 'implicit' },
  time_entries: {
    external_reference_id: 'generated from external_reference',
    external_reference_service: 'generated from external_reference',
    private_notes: 'private internal notes are never included (the spec): the web app alone reads them',
    company_id: 'implicit',
  },
};
