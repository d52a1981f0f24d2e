import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../src/db/types.ts';
import { newId } from '../src/ids.ts';

/**
 * A workspace with a record in every table the backup reads, and sentinels in
 * every table it must not (outbox, idempotency records, file bytes), inserted
 * straight into the database. Shared by the backup API and CLI tests.
 */

/** Strings that must never appear in an export. */
export const SENTINELS = {
  outbox: 'OUTBOX-PAYLOAD-SENTINEL',
  idempotency: 'IDEMPOTENCY-BODY-SENTINEL',
  fileBytes: 'FILE-BYTES-SENTINEL',
  invitationToken: 'INVITATION-TOKEN-SENTINEL',
};

export interface Seeded {
  clientIds: string[];
  projectIds: string[];
  taskIds: string[];
  invoiceIds: string[];
  expenseIds: string[];
  /** The receipt file ids carried by invoices (billed expenses). */
  invoiceReceiptFileIds: string[];
  /** A receipt file id of an unbilled expense (not an invoice copy). */
  unbilledReceiptFileId: string;
  /** file id → bytes */
  fileBytes: Map<string, Buffer>;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export async function seedBackupWorkspace(
  db: Kysely<DB>,
  companyId: string,
  people: { ownerId: string; managerId: string; memberId: string },
  sizes: { timeEntries?: number; clients?: number } = {},
): Promise<Seeded> {
  const timeEntries = sizes.timeEntries ?? 23;
  const clients = sizes.clients ?? 3;
  const seeded: Seeded = {
    clientIds: [],
    projectIds: [],
    taskIds: [],
    invoiceIds: [],
    expenseIds: [],
    invoiceReceiptFileIds: [],
    unbilledReceiptFileId: '',
    fileBytes: new Map(),
  };
  const c = companyId;
  await db.insertInto('teammate_assignments').values({ company_id: c, manager_id: people.managerId, teammate_id: people.memberId }).execute();
  await db
    .insertInto('rates')
    .values([
      { company_id: c, id: newId(), kind: 'cost', user_id: people.memberId, effective_from: '2026-01-01', hourly_rate: '40.50' },
      { company_id: c, id: newId(), kind: 'billable', user_id: people.memberId, effective_from: '2026-01-01', hourly_rate: '95.00' },
    ])
    .execute();
  for (let i = 0; i < 2; i++) {
    const id = newId();
    await db.insertInto('tasks').values({ company_id: c, id, name: `Task ${i} ${id.slice(-6)}`, default_hourly_rate: '80.00' }).execute();
    seeded.taskIds.push(id);
  }
  for (let i = 0; i < clients; i++) {
    const clientId = newId();
    await db.insertInto('clients').values({ company_id: c, id: clientId, name: `Client ${i} ${clientId.slice(-6)}`, tax: '19.0000' }).execute();
    seeded.clientIds.push(clientId);
    await db
      .insertInto('contacts')
      .values([
        { company_id: c, id: newId(), client_id: clientId, first_name: 'Carla', email: 'carla@example.com' },
        { company_id: c, id: newId(), client_id: clientId, first_name: 'Chen' },
      ])
      .execute();
    const projectId = newId();
    await db
      .insertInto('projects')
      .values({ company_id: c, id: projectId, client_id: clientId, name: `Project ${i}`, fee: '1000.00', is_fixed_fee: true, starts_on: '2026-01-01' })
      .execute();
    seeded.projectIds.push(projectId);
    await db
      .insertInto('project_user_assignments')
      .values([
        { company_id: c, project_id: projectId, user_id: people.memberId },
        { company_id: c, project_id: projectId, user_id: people.managerId, is_project_manager: true },
      ])
      .execute();
    await db
      .insertInto('project_task_assignments')
      .values(seeded.taskIds.map((task_id) => ({ company_id: c, project_id: projectId, task_id, budget: '12.50' })))
      .execute();
    await db
      .insertInto('rates')
      .values([
        { company_id: c, id: newId(), kind: 'billable', project_id: projectId, effective_from: '2026-01-01', hourly_rate: '100.00' },
        { company_id: c, id: newId(), kind: 'billable', project_id: projectId, task_id: seeded.taskIds[0], effective_from: '2026-01-01', hourly_rate: '110.00' },
        { company_id: c, id: newId(), kind: 'billable', project_id: projectId, user_id: people.memberId, effective_from: '2026-02-01', hourly_rate: '120.00' },
      ])
      .execute();
  }
  const projectId = seeded.projectIds[0];
  for (let i = 0; i < timeEntries; i++) {
    await db
      .insertInto('time_entries')
      .values({
        company_id: c,
        id: newId(),
        user_id: i % 2 ? people.memberId : people.managerId,
        project_id: seeded.projectIds[i % seeded.projectIds.length],
        task_id: seeded.taskIds[i % 2],
        spent_date: `2026-03-${String((i % 28) + 1).padStart(2, '0')}`,
        duration_seconds: 1800 + i,
        hours_entered: i % 3 === 0 ? '0.500000' : null,
        notes: `Work ${i}`,
        billable: true,
        billable_rate: '100.00',
        source: 'api',
        metadata: i === 0 ? JSON.stringify({ ticket: 'T-1' }) : null,
        external_reference: i === 1 ? JSON.stringify({ id: 'EXT-1', service: 'example.com' }) : null,
      })
      .execute();
  }
  const category = await db.selectFrom('expense_categories').select('id').where('company_id', '=', c).executeTakeFirstOrThrow();
  const invoiceId = newId();
  await db
    .insertInto('invoices')
    .values({ company_id: c, id: invoiceId, client_id: seeded.clientIds[0], number: '1001', issue_date: '2026-03-31', due_date: '2026-04-30', currency: 'EUR', tax: '19.0000', sent_at: new Date('2026-03-31T10:00:00Z'), state: 'open' })
    .execute();
  seeded.invoiceIds.push(invoiceId);
  const lineId = newId();
  await db
    .insertInto('invoice_line_items')
    .values([
      { company_id: c, id: lineId, invoice_id: invoiceId, description: 'Design', quantity: '10.0000', unit_price: '100.0000', project_id: projectId, sort_order: 0, taxed: true },
      { company_id: c, id: newId(), invoice_id: invoiceId, kind: 'Product', description: 'Licence', quantity: '1.0000', unit_price: '50.0000', sort_order: 1 },
    ])
    .execute();
  await db.insertInto('invoice_payments').values({ company_id: c, id: newId(), invoice_id: invoiceId, amount: '500.00', paid_date: '2026-04-02' }).execute();
  const outboxId = newId();
  await db
    .insertInto('outbox')
    .values({ company_id: c, id: outboxId, kind: 'invoice_message', payload: JSON.stringify({ secret: SENTINELS.outbox }), last_error: SENTINELS.outbox })
    .execute();
  await db
    .insertInto('invoice_messages')
    .values({ company_id: c, id: newId(), invoice_id: invoiceId, event_type: 'send', recipients: JSON.stringify([{ email: 'carla@example.com' }]), subject: 'Invoice 1001', body: 'Hello', outbox_id: outboxId })
    .execute();
  await db
    .insertInto('idempotency_keys')
    .values({ company_id: c, credential_key: 'ck', key: 'key-12345', request_hash: 'rh', permission_hash: 'ph', state: 'completed', status_code: 201, response_body: SENTINELS.idempotency })
    .execute();
  // A second, empty invoice (no lines, payments or messages).
  const emptyInvoiceId = newId();
  await db
    .insertInto('invoices')
    .values({ company_id: c, id: emptyInvoiceId, client_id: seeded.clientIds[1 % clients], number: '1002', issue_date: '2026-04-01', due_date: '2026-04-01', currency: 'EUR' })
    .execute();
  seeded.invoiceIds.push(emptyInvoiceId);
  // Expenses: two billed on the invoice (one receipt shared by both), one with its own unbilled receipt, one without.
  const file = async (name: string) => {
    const id = newId();
    const data = Buffer.concat([PNG, Buffer.from(`${SENTINELS.fileBytes} ${id}`)]);
    await db
      .insertInto('files')
      .values({ company_id: c, id, filename: name, content_type: 'image/png', byte_size: data.length, sha256: createHash('sha256').update(data).digest('hex'), data })
      .execute();
    seeded.fileBytes.set(id, data);
    return id;
  };
  const billedFile = await file('taxi ü.png');
  const unbilledFile = await file('hotel.png');
  seeded.invoiceReceiptFileIds.push(billedFile);
  seeded.unbilledReceiptFileId = unbilledFile;
  const expense = (extra: Partial<{ receipt_file_id: string; invoice_id: string; is_billed: boolean; invoice_line_id: string }>) => {
    const id = newId();
    seeded.expenseIds.push(id);
    return { company_id: c, id, user_id: people.memberId, project_id: projectId, expense_category_id: category.id, spent_date: '2026-03-15', total_cost: '42.10', units: null, source: 'api' as const, ...extra };
  };
  await db
    .insertInto('expenses')
    .values([
      expense({ receipt_file_id: billedFile, invoice_id: invoiceId, is_billed: true, invoice_line_id: lineId }),
      expense({ receipt_file_id: billedFile, invoice_id: invoiceId, is_billed: true, invoice_line_id: lineId }),
      expense({ receipt_file_id: unbilledFile }),
      expense({}),
    ])
    .execute();
  await db
    .insertInto('audit_logs')
    .values({ company_id: c, id: newId(), actor_user_id: people.ownerId, action: 'client.created', subject_type: 'client', subject_id: seeded.clientIds[0], details: JSON.stringify({ name: 'x' }) })
    .execute();
  // Invitations: one pending, one accepted (by the member); their token hashes must never be exported.
  const week = new Date(Date.now() + 7 * 86_400_000);
  await db
    .insertInto('invitations')
    .values([
      { company_id: c, id: newId(), token_hash: Buffer.concat([Buffer.from(SENTINELS.invitationToken), randomBytes(8)]), email: 'invited@example.com', role: 'manager', permissions: ['view_invoices'], invited_by: people.ownerId, expires_at: week },
      { company_id: c, id: newId(), token_hash: Buffer.concat([Buffer.from(SENTINELS.invitationToken), randomBytes(8)]), email: 'joined@example.com', role: 'member', invited_by: people.ownerId, expires_at: week, accepted_at: new Date(), accepted_user_id: people.memberId },
    ])
    .execute();
  return seeded;
}
