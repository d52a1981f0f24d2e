/**
 * The server's English texts: what Sheaf writes into documents and e-mails (the
 * invoice PDF, invoice messages, and the mails to people: approvals, invitations,
 * password resets, e-mail changes). The source catalog: de.ts must have every key
 * (the type checker and test/unit/i18n-catalogs.test.ts both say so).
 * i18next syntax: {{name}} interpolation, _one/_other plurals on `count`.
 */
export const en = {
  /** A document's file name before its number (invoice-2026-001.pdf): the client's language, as the document's. */
  files: { invoice: 'invoice', estimate: 'estimate' },
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
    vatId: 'VAT ID {{id}}',
    registrationNumber: 'Registration no. {{number}}',
    billTo: 'BILL TO',
    columns: {
      kind: 'Type',
      description: 'Description',
      quantity: 'Quantity',
      unitPrice: 'Unit price',
      amount: 'Amount',
      taxes: 'Tax',
    },
    hours: '{{quantity}} h',
    taxLegend: 'The Tax column shows the taxes each line bears:',
    taxLegendItem: '{{marker}} = {{tax}} on {{base}}',
    kinds: {
      service: 'Service',
      expense: 'Expense',
      product: 'Product',
      retainer: 'Retainer',
    },
    noLines: 'No lines.',
    subtotal: 'Subtotal',
    discount: 'Discount ({{percent}})',
    tax: 'Tax ({{percent}})',
    tax2: 'Tax 2 ({{percent}})',
    retainerCredit: 'Retainer credit',
    total: 'Total ({{currency}})',
    paid: 'Paid',
    amountDue: 'Amount due',
    /** A voided invoice's mark under the heading (it then asks for nothing: amount due 0). */
    voided: 'VOIDED',
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
    reminderSubjectDue: 'Reminder: invoice {{number}} from {{workspace}} is due on {{date}}',
    reminderSubjectOverdue: 'Reminder: invoice {{number}} from {{workspace}} is overdue',
    thankYouSubject: 'Thank you for your payment of invoice {{number}}',
    send: 'Please find invoice {{number}} for {{amount}}, due on {{date}}.',
    sendCovered: 'Please find invoice {{number}}. It is covered by your prepayment: there is nothing to pay.',
    reminderDue: 'This is a reminder that invoice {{number}} is due on {{date}}; {{amount}} remains to be paid.',
    reminderOverdue: 'This is a reminder that invoice {{number}} was due on {{date}}; {{amount}} remains to be paid.',
    thankYou: 'Thank you for your payment of invoice {{number}}. We appreciate your business.',
    attached: 'The invoice is attached as a PDF.',
    about: 'For: {{subject}}',
    closing: 'Kind regards,',
    clientLink: 'View the invoice, download it and see what is paid online: {{url}}',
  },
  estimate: {
    title: 'Estimate {{number}}',
    heading: 'ESTIMATE',
    number: 'Estimate number',
    issueDate: 'Date',
    preparedFor: 'PREPARED FOR',
    validUntil: 'Valid until',
    total: 'Total ({{currency}})',
    footer: '{{workspace}} · Estimate {{number}} · Page {{page}} of {{pages}}',
  },
  estimateMail: {
    subject: 'Estimate {{number}} from {{workspace}}',
    body: 'Please find estimate {{number}} for {{amount}}, dated {{date}}. Let us know whether you accept it.',
    attached: 'The estimate is attached as a PDF.',
    about: 'For: {{subject}}',
    closing: 'Kind regards,',
    clientLink: 'View the estimate, download it, and accept or decline it online: {{url}}',
    validUntil: 'The estimate is valid until {{date}}.',
  },
  /** The e-mail to an estimate's author when the client answers on its page. */
  /** A project's budget alert to its managers (reports/budget-alerts). */
  budgetAlert: {
    subject: 'Budget alert: {{project}} has used {{percent}} % of its budget',
    spent: '{{project}} ({{client}}) has used {{percent}} % of its budget: {{spent}} of {{budget}}.',
    spentMonthly: '{{project}} ({{client}}) has used {{percent}} % of its budget for {{month}}: {{spent}} of {{budget}}.',
    share: '{{project}} ({{client}}) has used {{percent}} % of its budget.',
    shareMonthly: '{{project}} ({{client}}) has used {{percent}} % of its budget for {{month}}.',
    hours: '{{hours}} hours',
    why: 'You get this alert once the project reaches {{threshold}} % of its budget (a monthly budget once a month). The project, and where the alert is set:',
  },
  estimateAnswer: {
    acceptedSubject: '{{client}} accepted estimate {{number}}',
    declinedSubject: '{{client}} declined estimate {{number}}',
    accepted: '{{client}} accepted estimate {{number}} ({{amount}}) through its link.',
    declined: '{{client}} declined estimate {{number}} ({{amount}}) through its link.',
    reason: 'Their reason: {{reason}}',
    where: 'You find it in Sheaf under Estimates.',
  },
  /** Texts every mail to a person shares. */
  mail: {
    greeting: 'Hello {{name}},',
    greetingNoName: 'Hello,',
    /** A business letter to a company, not to a person named (invoices and estimates to several or nameless recipients). */
    greetingCompany: 'Hello,',
  },
  /** Approval mails (src/modules/tracking/approvals/service.ts). */
  approvalMail: {
    timeEntries_one: '{{count}} time entry',
    timeEntries_other: '{{count}} time entries',
    hours_one: '{{hours}} hour',
    hours_other: '{{hours}} hours',
    expenses_one: '{{count}} expense',
    expenses_other: '{{count}} expenses',
    submittedSubject: '{{name}} submitted time for {{from}} to {{to}}',
    submitted: '{{name}} ({{email}}) submitted {{timeEntries}} ({{hours}}) and {{expenses}} dated {{from}} to {{to}} in {{workspace}}.',
    review: 'Review them, then approve or reject them, on the approvals page:\n{{link}}',
    rejectedSubject: 'Your time for {{from}} to {{to}} was returned for correction',
    rejected: '{{approver}} returned {{timeEntries}} and {{expenses}} dated {{from}} to {{to}} in {{workspace}} for correction.',
    noReason: 'No reason was given.',
    reason: 'Reason:\n{{reason}}',
    resubmit: 'Correct them and submit the period again:\n{{link}}',
  },
  /** The invitation (src/modules/people/invitations/service.ts). */
  invitationMail: {
    subject: '{{inviter}} invited you to {{workspace}} on Sheaf',
    invited: '{{inviter}} invited you to join {{workspace}} on Sheaf, to track time and expenses.',
    openWithin_one: 'Open this link within {{count}} day to accept:',
    openWithin_other: 'Open this link within {{count}} days to accept:',
    ignore: 'If you did not expect this invitation, ignore this e-mail.',
  },
  /** A forgotten password (src/modules/people/sessions/service.ts). */
  passwordResetMail: {
    subject: 'Reset your Sheaf password',
    asked: 'Someone (hopefully you) asked to reset the password of your Sheaf account.',
    openWithin: 'Open this link within an hour to choose a new one:',
    ignore: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  },
  /** A change of the sign-in address (src/modules/people/profile/service.ts): the link to the new address, the notice to the old one. */
  emailChangeMail: {
    subject: 'Confirm your new Sheaf e-mail address',
    asked: 'You asked to sign in to Sheaf with {{newEmail}} instead of {{oldEmail}}.',
    openWithin_one: 'Open this link within {{count}} hour to confirm the new address:',
    openWithin_other: 'Open this link within {{count}} hours to confirm the new address:',
    until: 'Until then, your address stays {{oldEmail}}. If you did not ask for this, ignore this e-mail: nothing changes.',
    changedSubject: 'Your Sheaf e-mail address was changed',
    changed: 'The e-mail address of your Sheaf account is now {{newEmail}}; {{oldEmail}} no longer signs in.',
    notYou: 'If you did not make this change, tell an administrator of your workspace at once.',
  },
  /** A change to how a person signs in (src/modules/people/users/security-notice.ts). */
  securityMail: {
    password_changed_subject: 'Your Sheaf password was changed',
    password_changed: 'The password of your Sheaf account was changed, and your other sessions were signed out.',
    two_factor_enabled_subject: 'Two-factor sign-in is now on for your Sheaf account',
    two_factor_enabled: 'Signing in to your Sheaf account now asks for a code from your authenticator app as well as your password.',
    two_factor_disabled_subject: 'Two-factor sign-in was turned off for your Sheaf account',
    two_factor_disabled: 'Signing in to your Sheaf account no longer asks for a code from your authenticator app.',
    recovery_codes_replaced_subject: 'New recovery codes for your Sheaf account',
    recovery_codes_replaced: 'New recovery codes were made for your Sheaf account; the old ones no longer work.',
    passkey_added_subject: 'A passkey was added to your Sheaf account',
    passkey_added: 'A new passkey can now sign in to your Sheaf account.',
    passkey_removed_subject: 'A passkey was removed from your Sheaf account',
    passkey_removed: 'One of your passkeys no longer signs in to your Sheaf account.',
    sso_linked_subject: 'Your Sheaf account now signs in through single sign-on',
    sso_linked: 'Your Sheaf account was signed in to through your organisation’s identity provider for the first time; from now on that provider signs you in to it.',
    notYou: 'If you did not make this change, change your password and tell an administrator of your workspace at once.',
  },
  /** The invoice PDF's payment details (src/modules/billing/bank-accounts/pdf-block.ts). */
  /** A saved report's scheduled e-mail (src/modules/reports/saved-reports/scheduler.ts). */
  savedReportMail: {
    subject: 'Your report "{{name}}"',
    subjectPeriod: 'Your report "{{name}}", {{from}} to {{to}}',
    body: 'Attached: the {{report}} as CSV, as it stands today.',
    bodyPeriod: 'Attached: the {{report}} for {{from}} to {{to}} as CSV.',
    open: 'Open it in Sheaf:\n{{link}}',
    why: 'You receive this because you saved "{{name}}" to be sent {{schedule}}. Change or stop it under Reports, Saved.',
    reports: { time: 'time report', team: 'team report', project_budget: 'project budget report', uninvoiced: 'uninvoiced report', planned_vs_tracked: 'planned vs tracked report' },
    schedules: { weekly: 'every week', monthly: 'every month' },
  },
  webhookMail: {
    subject: 'Webhook turned off: {{url}}',
    body: 'Sheaf turned off the webhook endpoint {{url}} and sends it no more events. {{reason}}\n\nEvents that were not delivered are kept. Once the receiver works again, turn the endpoint on: they go out then, in order.',
    open: 'See its delivery log and turn it on again in Sheaf:\n{{link}}',
    reasons: {
      delivery_failing: 'A delivery to it failed for more than a day.',
      administrator_inactive: 'The administrator whose view its events carry is no longer an active owner or administrator; whoever turns it on again takes their place.',
    },
  },
  paymentDetails: {
    heading: 'PAYMENT DETAILS',
    holder: 'Account holder',
    iban: 'IBAN',
    bic: 'BIC',
    bank: 'Bank',
    account: 'Account',
    scan: 'Scan with your banking app to pay',
    reference: 'Invoice {{number}}',
  },
};

/** A catalog with the English one's shape: every key, every value a string. */
export type Catalog = { [K in keyof typeof en]: Texts<(typeof en)[K]> };
type Texts<T> = { [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
