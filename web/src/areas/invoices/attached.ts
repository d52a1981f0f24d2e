import type { InvoiceMessage as Message } from './api.ts';

/** One thing that went with an invoice's e-mail. */
export type Attached = { kind: 'pdf' } | { kind: 'e-invoice'; choice: NonNullable<Message['attach_e_invoice']> } | { kind: 'file'; name: string } | { kind: 'receipts' };

/**
 * What went with an invoice's e-mail, as it was asked for, in the order the e-mail carries it: a
 * Factur-X takes the plain PDF's place (it is the same page with the XML inside), the invoice's
 * chosen attachments by the names they had then, and the expenses' receipts when asked for (the
 * message does not record whether there were any).
 */
export function attachedTo(m: Message): Attached[] {
  return [
    ...(m.attach_pdf && m.attach_e_invoice !== 'facturx' ? [{ kind: 'pdf' } as const] : []),
    ...(m.attach_e_invoice ? [{ kind: 'e-invoice', choice: m.attach_e_invoice } as const] : []),
    ...m.attachments.map((a) => ({ kind: 'file', name: a.file_name }) as const),
    ...(m.attach_expense_receipts ? [{ kind: 'receipts' } as const] : []),
  ];
}
