import { defineTexts } from '../../ui/i18n.ts';

/** The texts of the invoice page's attachments and client links (web/src/ui/i18n.ts): English, and German typed from it. */
const en = {
  attachments: {
    heading: 'Attachments',
    none: 'No files attached.',
    loading: 'Loading attachments…',
    add: 'Attach a file',
    hint: 'PDF, PNG, JPEG, GIF or HEIC, at most 10 MB. Files can go with the invoice’s e-mails.',
    uploading: 'Uploading {{name}}…',
    download: 'Download {{name}}',
    remove: 'Remove {{name}}',
    removeTitle: 'Remove {{name}}?',
    removeText: 'The file is deleted. E-mails that already went keep their copy.',
    removeConfirm: 'Remove it',
    removeButton: 'Remove',
    size: '{{size}} KB',
  },
  clientLink: {
    heading: 'Client link',
    intro: 'Each e-mail about this invoice carries a secret link where the client sees the invoice, downloads the PDF and sees what is paid, without signing in.',
    active_one: '{{count}} link works.',
    active_other: '{{count}} links work.',
    none: 'No link works now.',
    draft: 'The client gets a link when the invoice is sent.',
    lastViewed: 'The client last opened the invoice {{date}}.',
    neverViewed: 'The client has not opened the invoice yet.',
    create: 'Create new link',
    newLink: 'New link (shown this once)',
    copy: 'Copy link',
    revoke: 'Revoke links',
    revokeTitle: 'Revoke every link to invoice {{number}}?',
    revokeText: 'Every link sent or made so far stops working at once, also in e-mails the client already has. You can create a new one afterwards.',
    revokeConfirm: 'Revoke them',
    revoked: 'The links no longer work.',
  },
  message: {
    attachments: 'Attachments',
    attachmentsHint: 'The files that go with this e-mail.',
  },
};

const de = {
  attachments: {
    heading: 'Anhänge',
    none: 'Keine Dateien angehängt.',
    loading: 'Anhänge werden geladen…',
    add: 'Datei anhängen',
    hint: 'PDF, PNG, JPEG, GIF oder HEIC, höchstens 10 MB. Dateien können mit den E-Mails zur Rechnung verschickt werden.',
    uploading: '{{name}} wird hochgeladen…',
    download: '{{name}} herunterladen',
    remove: '{{name}} entfernen',
    removeTitle: '{{name}} entfernen?',
    removeText: 'Die Datei wird gelöscht. Bereits verschickte E-Mails behalten ihre Kopie.',
    removeConfirm: 'Entfernen',
    removeButton: 'Entfernen',
    size: '{{size}} KB',
  },
  clientLink: {
    heading: 'Link für den Kunden',
    intro: 'Jede E-Mail zu dieser Rechnung enthält einen geheimen Link, unter dem der Kunde die Rechnung ohne Anmeldung ansieht, das PDF herunterlädt und den Zahlungsstand sieht.',
    active_one: '{{count}} Link ist gültig.',
    active_other: '{{count}} Links sind gültig.',
    none: 'Derzeit ist kein Link gültig.',
    draft: 'Der Kunde erhält einen Link, sobald die Rechnung verschickt ist.',
    lastViewed: 'Zuletzt vom Kunden geöffnet: {{date}}.',
    neverViewed: 'Der Kunde hat die Rechnung noch nicht geöffnet.',
    create: 'Neuen Link erstellen',
    newLink: 'Neuer Link (nur jetzt sichtbar)',
    copy: 'Link kopieren',
    revoke: 'Links widerrufen',
    revokeTitle: 'Alle Links zu Rechnung {{number}} widerrufen?',
    revokeText: 'Alle bisher verschickten oder erstellten Links funktionieren sofort nicht mehr, auch in E-Mails, die der Kunde schon hat. Danach können Sie einen neuen erstellen.',
    revokeConfirm: 'Widerrufen',
    revoked: 'Die Links funktionieren nicht mehr.',
  },
  message: {
    attachments: 'Anhänge',
    attachmentsHint: 'Die Dateien, die mit dieser E-Mail verschickt werden.',
  },
};

export const { useTexts: useSharingTexts } = defineTexts('invoice-sharing', en, de);
