/**
 * The shape of every e-mail address Sheaf stores: one @, no spaces, and a dot in the domain, so
 * `ben@example` (which no mail reaches) is refused. One rule for people (users/email.ts), contacts,
 * a client's invoice address, the workspace's sender and the import; the web app's e-mail fields
 * copy it as their `pattern` (web/src/ui/TextField.tsx) so the browser refuses what the server
 * would. The recipients of an invoice's or estimate's e-mail are checked more strictly still
 * (billing/invoices/rules.ts `isEmail`: no character a mail header would have to quote).
 */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmailAddress = (text: string) => EMAIL_SHAPE.test(text);
