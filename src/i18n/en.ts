/**
 * The server's English texts: what Sheaf writes into documents and e-mails (the
 * invoice PDF, invoice messages). The source catalog: de.ts must have every key
 * (the type checker and test/unit/i18n-catalogs.test.ts both say so).
 * i18next syntax: {{name}} interpolation, _one/_other plurals on `count`.
 */
export const en = {
  invoice: {
    title: 'Invoice {{number}}',
    heading: 'INVOICE',
    number: 'Invoice number',
    issueDate: 'Issue date',
    dueDate: 'Due date',
    paymentTerms: 'Payment terms',
    purchaseOrder: 'Purchase order',
    servicePeriod: 'Service period',
    period: 'Period',
    taxId: 'Tax ID {{id}}',
    billTo: 'BILL TO',
    columns: {
      kind: 'Type',
      description: 'Description',
      quantity: 'Quantity',
      unitPrice: 'Unit price',
      amount: 'Amount',
    },
    kinds: {
      service: 'Service',
      expense: 'Expense',
    },
    noLines: 'No lines.',
    subtotal: 'Subtotal',
    discount: 'Discount ({{percent}})',
    tax: 'Tax ({{percent}})',
    tax2: 'Tax 2 ({{percent}})',
    total: 'Total ({{currency}})',
    paid: 'Paid',
    amountDue: 'Amount due',
    notes: 'NOTES',
    footer: '{{workspace}} · Invoice {{number}} · Page {{page}} of {{pages}}',
    terms: {
      uponReceipt: 'Due upon receipt',
      net: 'Net {{days}}',
      dueIn_one: 'Due in {{count}} day',
      dueIn_other: 'Due in {{count}} days',
    },
  },
  invoiceMail: {
    sendSubject: 'Invoice {{number}} from {{workspace}}',
    reminderSubjectDue: 'Reminder: invoice {{number}} from {{workspace}} is due',
    reminderSubjectOverdue: 'Reminder: invoice {{number}} from {{workspace}} is overdue',
    thankYouSubject: 'Thank you for your payment of invoice {{number}}',
    greeting: 'Hello {{client}},',
    send: 'Please find invoice {{number}} for {{amount}}, due on {{date}}.',
    reminderDue: 'This is a reminder that invoice {{number}} is due on {{date}}; {{amount}} remains to be paid.',
    reminderOverdue: 'This is a reminder that invoice {{number}} was due on {{date}}; {{amount}} remains to be paid.',
    thankYou: 'Thank you for your payment of invoice {{number}}. We appreciate your business.',
    attached: 'The invoice is attached as a PDF.',
    about: 'For: {{subject}}',
    closing: 'Kind regards,',
  },
};

/** A catalog with the English one's shape: every key, every value a string. */
export type Catalog = { [K in keyof typeof en]: Texts<(typeof en)[K]> };
type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
