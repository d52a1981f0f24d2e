import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Kysely table types, one per table of the migrations. Keep in step with src/db/migrations. */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** numeric columns: strings in and out, never binary floats. */
type Decimal = ColumnType<string, string | number, string | number>;

export type Role = 'owner' | 'administrator' | 'manager' | 'member' | 'client';
export type UserType = 'human' | 'agent';
export type CredentialKind = 'integration' | 'personal';
export type Rounding = 'none' | 'up' | 'nearest' | 'down';
export type WeekStart = 'monday' | 'sunday' | 'saturday';
export const MANAGER_PERMISSIONS = [
  'edit_projects',
  'edit_clients_and_tasks',
  'view_billable_rates',
  'view_invoices',
  'approve_managed_projects',
  'view_internal_costs',
] as const;
export type ManagerPermission = (typeof MANAGER_PERMISSIONS)[number];

export interface CompaniesTable {
  id: string;
  name: string;
  address: string | null;
  timezone: Generated<string>;
  currency: Generated<string>;
  week_start: Generated<WeekStart>;
  rounding: Generated<Rounding>;
  rounding_minutes: Generated<number>;
  approvals_enabled: Generated<boolean>;
  allow_past_timer_starts: Generated<boolean>;
  invoice_before_approval: Generated<boolean>;
  /** Sender details invoices print (0052). */
  sender_email: ColumnType<string | null, string | null | undefined, string | null>;
  sender_phone: ColumnType<string | null, string | null | undefined, string | null>;
  tax_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type Language = 'en' | 'de';
export type DateFormat = 'YYYY-MM-DD' | 'DD.MM.YYYY' | 'DD/MM/YYYY' | 'MM/DD/YYYY';
export type DurationFormat = 'h:mm' | 'decimal';
export type Theme = 'system' | 'light' | 'dark';

export interface UsersTable {
  id: string;
  email: string;
  first_name: string;
  last_name: Generated<string>;
  user_type: Generated<UserType>;
  /** scrypt (src/auth/passwords.ts); null until the person sets a password. */
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** The person's own display preferences (0070). */
  language: Generated<Language>;
  date_format: Generated<DateFormat>;
  duration_format: Generated<DurationFormat>;
  theme: Generated<Theme>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface MembershipsTable {
  company_id: string;
  user_id: string;
  role: Role;
  permissions: ColumnType<ManagerPermission[], ManagerPermission[] | undefined, ManagerPermission[]>;
  is_contractor: Generated<boolean>;
  is_active: Generated<boolean>;
  expected_weekly_hours: Decimal | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface TeammateAssignmentsTable {
  company_id: string;
  manager_id: string;
  teammate_id: string;
  created_at: CreatedAt;
}

export interface CredentialsTable {
  company_id: string;
  id: string;
  user_id: string;
  kind: CredentialKind;
  name: Generated<string>;
  prefix: string;
  secret_hash: Buffer;
  family_id: string;
  created_at: CreatedAt;
  expires_at: Date | null;
  replaced_at: Date | null;
  revoked_at: Date | null;
  /** Written at most once a minute by authentication (0051). */
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Insertion order, for the API processes' lists of working keys (0071; int8, read as a string). */
  serial: ColumnType<string, never, never>;
}

export interface IdempotencyKeysTable {
  company_id: string;
  credential_key: string;
  key: string;
  request_hash: string;
  permission_hash: string;
  state: 'in_flight' | 'completed';
  status_code: number | null;
  response_headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  response_body: string | null;
  created_at: CreatedAt;
}

export interface FilesTable {
  company_id: string;
  id: string;
  filename: string;
  content_type: string;
  byte_size: number;
  sha256: string;
  data: Buffer;
  created_at: CreatedAt;
}

export interface OutboxTable {
  company_id: string;
  id: string;
  kind: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  available_at: Timestamp;
  last_error: string | null;
  created_at: CreatedAt;
  sent_at: Date | null;
  /** When the current delivery schedule began (0060_outbox_retry_window.sql); null before the first attempt. */
  first_attempt_at: Date | null;
}

export interface AuditLogsTable {
  company_id: string;
  id: string;
  occurred_at: CreatedAt;
  actor_user_id: string | null;
  credential_id: string | null;
  action: string;
  subject_type: string;
  subject_id: string | null;
  details: ColumnType<Record<string, unknown>, string | undefined, never>;
}

export interface SessionsTable {
  id: string;
  token_hash: Buffer;
  user_id: string;
  company_id: string | null;
  csrf_token: string;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  via_link_at: Date | null;
  ip: string | null;
  user_agent: string | null;
}

export type OneTimeLinkPurpose = 'sign_in' | 'password_reset' | 'email_change';

export interface OneTimeLinksTable {
  token_hash: Buffer;
  purpose: OneTimeLinkPurpose;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  used_at: Date | null;
  /** The address an email_change link sets when opened (0070); null for other purposes. */
  new_email: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SignInFailuresTable {
  id: string;
  scope: 'account' | 'address' | 'account_address' | 'device';
  subject: string;
  failed_at: CreatedAt;
}

/** A browser that signed in to an account (0072): only the SHA-256 of its `sheaf_device` cookie. */
export interface SignInDevicesTable {
  token_hash: Buffer;
  user_id: string;
  created_at: CreatedAt;
  last_used_at: Timestamp;
}

/** An invitation to a workspace (0051); the e-mailed token is stored only as its SHA-256. */
export interface InvitationsTable {
  company_id: string;
  id: string;
  token_hash: Buffer;
  email: string;
  role: Role;
  permissions: ColumnType<ManagerPermission[], ManagerPermission[] | undefined, ManagerPermission[]>;
  is_contractor: Generated<boolean>;
  invited_by: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  accepted_at: Date | null;
  accepted_user_id: string | null;
  revoked_at: Date | null;
}

export interface DB extends CatalogTables, TimeTables, InvoiceTables {
  companies: CompaniesTable;
  users: UsersTable;
  memberships: MembershipsTable;
  teammate_assignments: TeammateAssignmentsTable;
  credentials: CredentialsTable;
  idempotency_keys: IdempotencyKeysTable;
  files: FilesTable;
  outbox: OutboxTable;
  audit_logs: AuditLogsTable;
  sessions: SessionsTable;
  one_time_links: OneTimeLinksTable;
  sign_in_failures: SignInFailuresTable;
  sign_in_devices: SignInDevicesTable;
  invitations: InvitationsTable;
}

export type Company = Selectable<CompaniesTable>;
export type User = Selectable<UsersTable>;
export type Membership = Selectable<MembershipsTable>;
export type Credential = Selectable<CredentialsTable>;
export type NewCompany = Insertable<CompaniesTable>;
export type CompanyUpdate = Updateable<CompaniesTable>;

// ---- catalog (0002_catalog.sql) ----

export type PaymentTerms = 'upon_receipt' | 'net_15' | 'net_30' | 'net_45' | 'net_60' | 'custom';
export type BillBy = 'project' | 'tasks' | 'people' | 'none';
export type BudgetBy = 'project' | 'project_cost' | 'task' | 'task_fees' | 'person' | 'none';
type DateCol = ColumnType<string, string | undefined | null, string | null>;

export interface ClientsTable {
  company_id: string;
  id: string;
  name: string;
  address: string | null;
  currency: string | null;
  payment_terms: PaymentTerms | null;
  payment_days: number | null;
  tax: Decimal | null;
  tax2: Decimal | null;
  discount: Decimal | null;
  /** The language of the client's invoices and invoice e-mails (src/i18n). */
  language: Generated<Language>;
  is_active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ContactsTable {
  company_id: string;
  id: string;
  client_id: string;
  first_name: string;
  last_name: Generated<string>;
  title: string | null;
  email: string | null;
  phone_office: string | null;
  phone_mobile: string | null;
  fax: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface TasksTable {
  company_id: string;
  id: string;
  name: string;
  billable_by_default: Generated<boolean>;
  default_hourly_rate: Decimal | null;
  is_default: Generated<boolean>;
  is_active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ProjectsTable {
  company_id: string;
  id: string;
  client_id: string;
  name: string;
  code: string | null;
  notes: string | null;
  owner_id: string | null;
  is_active: Generated<boolean>;
  is_billable: Generated<boolean>;
  bill_by: Generated<BillBy>;
  is_fixed_fee: Generated<boolean>;
  fee: Decimal | null;
  cost_budget: Decimal | null;
  budget_by: Generated<BudgetBy>;
  budget: Decimal | null;
  budget_is_monthly: Generated<boolean>;
  show_budget_to_all: Generated<boolean>;
  starts_on: DateCol | null;
  ends_on: DateCol | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ProjectUserAssignmentsTable {
  company_id: string;
  project_id: string;
  user_id: string;
  is_project_manager: Generated<boolean>;
  is_active: Generated<boolean>;
  /** The person's budget when the project is budgeted by person (0004). */
  budget: Decimal | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ProjectTaskAssignmentsTable {
  company_id: string;
  project_id: string;
  task_id: string;
  is_active: Generated<boolean>;
  billable: Generated<boolean>;
  budget: Decimal | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface RatesTable {
  company_id: string;
  id: string;
  kind: 'billable' | 'cost';
  project_id: string | null;
  task_id: string | null;
  user_id: string | null;
  effective_from: string;
  hourly_rate: Decimal;
  created_at: CreatedAt;
}

export interface CatalogTables {
  clients: ClientsTable;
  contacts: ContactsTable;
  tasks: TasksTable;
  projects: ProjectsTable;
  project_user_assignments: ProjectUserAssignmentsTable;
  project_task_assignments: ProjectTaskAssignmentsTable;
  rates: RatesTable;
}

// ---- time and expenses (0010_time_and_expenses.sql) ----

export type TimeSource = 'web' | 'cli' | 'api' | 'agent' | 'calendar' | 'desktop';
export type ExpenseSource = 'web' | 'cli' | 'api' | 'agent';
export type ApprovalStatus = 'unsubmitted' | 'submitted' | 'approved' | 'rejected';
type Json = ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;

export interface TimeEntriesTable {
  company_id: string;
  id: string;
  user_id: string;
  project_id: string;
  task_id: string;
  spent_date: string;
  duration_seconds: Generated<number>;
  hours_entered: Decimal | null;
  is_running: Generated<boolean>;
  timer_started_at: Date | null;
  started_time: string | null;
  ended_time: string | null;
  notes: string | null;
  /** Web app only (time-web): never presented by the API, reports, backup or e-mail. */
  private_notes: string | null;
  billable: boolean;
  billable_rate: Decimal | null;
  source: TimeSource;
  metadata: Json;
  external_reference: Json;
  external_reference_id: ColumnType<string | null, never, never>;
  external_reference_service: ColumnType<string | null, never, never>;
  approval_status: Generated<ApprovalStatus>;
  is_billed: Generated<boolean>;
  invoice_id: string | null;
  invoice_line_id: string | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ExpenseCategoriesTable {
  company_id: string;
  id: string;
  name: string;
  unit_name: string | null;
  unit_price: Decimal | null;
  is_active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ExpensesTable {
  company_id: string;
  id: string;
  user_id: string;
  project_id: string;
  expense_category_id: string;
  spent_date: string;
  units: Decimal | null;
  total_cost: Decimal;
  notes: string | null;
  billable: Generated<boolean>;
  source: ExpenseSource;
  metadata: Json;
  receipt_file_id: string | null;
  approval_status: Generated<ApprovalStatus>;
  is_billed: Generated<boolean>;
  invoice_id: string | null;
  invoice_line_id: string | null;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface TimeTables {
  time_entries: TimeEntriesTable;
  expense_categories: ExpenseCategoriesTable;
  expenses: ExpensesTable;
}

// ---- invoices (0020_invoices.sql) ----

export type InvoiceState = 'draft' | 'open' | 'paid' | 'closed' | 'voided';

export interface InvoicesTable {
  company_id: string;
  id: string;
  client_id: string;
  number: string;
  state: Generated<InvoiceState>;
  subject: string | null;
  issue_date: string;
  due_date: string;
  payment_term: PaymentTerms | null;
  currency: string;
  purchase_order: string | null;
  tax: Decimal | null;
  tax2: Decimal | null;
  discount: Decimal | null;
  notes: string | null;
  period_start: string | null;
  period_end: string | null;
  service_period_start: string | null;
  service_period_end: string | null;
  created_by: string | null;
  sent_at: Date | null;
  paid_at: Date | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface InvoiceLineItemsTable {
  company_id: string;
  id: string;
  invoice_id: string;
  kind: Generated<string>;
  description: string | null;
  quantity: ColumnType<string, string | number | undefined, string | number>;
  unit_price: ColumnType<string, string | number | undefined, string | number>;
  effect: Generated<'charge' | 'credit'>;
  taxed: Generated<boolean>;
  taxed2: Generated<boolean>;
  project_id: string | null;
  sort_order: Generated<number>;
  import_source: 'time' | 'expense' | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface InvoiceMessagesTable {
  company_id: string;
  id: string;
  invoice_id: string;
  event_type: 'send' | 'reminder' | 'thank_you';
  recipients: ColumnType<Array<{ email: string; name?: string | null }>, string, string>;
  cc_recipients: ColumnType<Array<{ email: string; name?: string | null }>, string | undefined, string>;
  subject: string | null;
  body: string | null;
  attach_pdf: Generated<boolean>;
  attach_expense_receipts: Generated<boolean>;
  send_me_a_copy: Generated<boolean>;
  sent_by: string | null;
  outbox_id: string | null;
  created_at: CreatedAt;
}

export interface InvoicePaymentsTable {
  company_id: string;
  id: string;
  invoice_id: string;
  amount: Decimal;
  paid_date: string;
  notes: string | null;
  created_at: CreatedAt;
}

export interface InvoiceTables {
  invoices: InvoicesTable;
  invoice_line_items: InvoiceLineItemsTable;
  invoice_messages: InvoiceMessagesTable;
  invoice_payments: InvoicePaymentsTable;
}
