import type { Tx } from '../../../db/tenant.ts';

/** The payments of an invoice as its client sees them: when and how much (never the internal notes). */
export function paymentsOf(trx: Tx, companyId: string, invoiceId: string) {
  return trx
    .selectFrom('invoice_payments')
    .select(['paid_date', 'amount'])
    .where('company_id', '=', companyId)
    .where('invoice_id', '=', invoiceId)
    .orderBy('paid_date')
    .orderBy('id')
    .execute();
}
