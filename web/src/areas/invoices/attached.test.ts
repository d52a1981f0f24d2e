import { describe, expect, it } from 'vitest';
import { attachedTo } from './attached.ts';

const message = (fields: Record<string, unknown>) =>
  ({ attach_pdf: true, attach_e_invoice: null, attach_expense_receipts: false, attachments: [], ...fields }) as unknown as Parameters<typeof attachedTo>[0];

describe('attachedTo', () => {
  it('lists the PDF, the e-invoice, the attachments by name and the receipts, in the e-mail’s order', () => {
    expect(attachedTo(message({ attach_e_invoice: 'cii', attach_expense_receipts: true, attachments: [{ id: 'a', file_name: 'timesheet.pdf' }] }))).toEqual([
      { kind: 'pdf' },
      { kind: 'e-invoice', choice: 'cii' },
      { kind: 'file', name: 'timesheet.pdf' },
      { kind: 'receipts' },
    ]);
  });

  it('has a Factur-X in the plain PDF’s place, whatever attach_pdf said', () => {
    expect(attachedTo(message({ attach_e_invoice: 'facturx' }))).toEqual([{ kind: 'e-invoice', choice: 'facturx' }]);
    expect(attachedTo(message({ attach_e_invoice: 'facturx', attach_pdf: false }))).toEqual([{ kind: 'e-invoice', choice: 'facturx' }]);
  });

  it('is empty when nothing was asked for', () => {
    expect(attachedTo(message({ attach_pdf: false }))).toEqual([]);
  });
});
