import { defineTexts } from '../ui/i18n.ts';

/** Texts of what every area shares through api/: error sentences, roles and permissions, the person picker's choices. */
const en = {
  errors: {
    rateLimited: 'Too many attempts. Try again in {{wait}}.',
    rateLimitedSoon: 'Too many attempts. Try again in a moment.',
    linkInvalid: 'This link is invalid, has expired or was already used.',
    csrfFailed: 'This page is out of date with your session. Reload it and try again.',
    sessionRequired: 'This is only available in the web app, signed in.',
    unauthorized: 'Your session has ended. Sign in again.',
    forbidden: 'You do not have permission to do this.',
    notFound: 'This was not found. It may have been deleted.',
    preconditionFailed: 'Someone else changed this. Load their version and try again.',
    idempotencyKeyInUse: 'This is already being saved. Wait a moment.',
    runningTimer: 'Stop your running timer before submitting this week.',
    periodChanged: 'This period changed since you reviewed it.',
    approvalConflict: 'Time changed while approving. Try again.',
    weekLocked: 'This week is approved and locked.',
    internal: 'The server could not complete the request. Try again in a moment.',
    unavailable: 'Sheaf is unavailable right now. Try again in {{wait}}.',
    unavailableSoon: 'Sheaf is unavailable right now. Try again in a moment.',
    network: 'Sheaf cannot be reached. Check your connection and try again.',
    unknown: 'Something went wrong. Try again.',
    seconds: '{{count}} s',
    minutes: '{{count}} min',
  },
  roles: { owner: 'Owner', administrator: 'Administrator', manager: 'Manager', member: 'Member', client: 'Client' },
  permissions: {
    edit_projects: 'Edit projects',
    edit_clients_and_tasks: 'Edit clients and tasks',
    view_billable_rates: 'See billable rates',
    view_invoices: 'See invoices',
    approve_managed_projects: 'Approve time on the projects they manage',
    view_internal_costs: 'See internal costs',
  },
  people: {
    me: 'Me ({{name}})',
    loading: 'Loading people…',
    noMatch: 'No one matches',
  },
};

const de = {
  errors: {
    rateLimited: 'Zu viele Versuche. Versuchen Sie es in {{wait}} erneut.',
    rateLimitedSoon: 'Zu viele Versuche. Versuchen Sie es gleich noch einmal.',
    linkInvalid: 'Dieser Link ist ungültig, abgelaufen oder wurde bereits verwendet.',
    csrfFailed: 'Diese Seite passt nicht mehr zu Ihrer Sitzung. Laden Sie sie neu und versuchen Sie es noch einmal.',
    sessionRequired: 'Das ist nur angemeldet in der Web-App verfügbar.',
    unauthorized: 'Ihre Sitzung ist abgelaufen. Melden Sie sich erneut an.',
    forbidden: 'Dazu fehlt Ihnen die Berechtigung.',
    notFound: 'Das wurde nicht gefunden. Vielleicht wurde es gelöscht.',
    preconditionFailed: 'Jemand anderes hat das geändert. Laden Sie die neue Fassung und versuchen Sie es noch einmal.',
    idempotencyKeyInUse: 'Das wird bereits gespeichert. Bitte warten Sie einen Moment.',
    runningTimer: 'Stoppen Sie Ihren laufenden Timer, bevor Sie diese Woche einreichen.',
    periodChanged: 'Dieser Zeitraum hat sich seit Ihrer Prüfung geändert.',
    approvalConflict: 'Während der Freigabe haben sich Zeiten geändert. Versuchen Sie es noch einmal.',
    weekLocked: 'Diese Woche ist freigegeben und gesperrt.',
    internal: 'Der Server konnte die Anfrage nicht abschließen. Versuchen Sie es gleich noch einmal.',
    unavailable: 'Sheaf ist gerade nicht erreichbar. Versuchen Sie es in {{wait}} erneut.',
    unavailableSoon: 'Sheaf ist gerade nicht erreichbar. Versuchen Sie es gleich noch einmal.',
    network: 'Sheaf ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es noch einmal.',
    unknown: 'Etwas ist schiefgegangen. Versuchen Sie es noch einmal.',
    seconds: '{{count}} s',
    minutes: '{{count}} min',
  },
  roles: { owner: 'Inhaber', administrator: 'Administrator', manager: 'Manager', member: 'Mitglied', client: 'Kunde' },
  permissions: {
    edit_projects: 'Projekte bearbeiten',
    edit_clients_and_tasks: 'Kunden und Aufgaben bearbeiten',
    view_billable_rates: 'Abrechenbare Sätze sehen',
    view_invoices: 'Rechnungen sehen',
    approve_managed_projects: 'Zeiten der eigenen Projekte freigeben',
    view_internal_costs: 'Interne Kosten sehen',
  },
  people: {
    me: 'Ich ({{name}})',
    loading: 'Personen werden geladen…',
    noMatch: 'Niemand passt',
  },
};

export const { useTexts, t } = defineTexts('api', en, de);
