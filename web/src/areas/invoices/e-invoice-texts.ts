import { defineTexts } from '../../ui/i18n.ts';

/** The texts of e-invoices on the invoice page and in the send dialog (web/src/ui/i18n.ts): English, and German typed from it. */
const en = {
  menu: 'E-invoice',
  choices: {
    facturx: 'Factur-X (PDF)',
    'xrechnung-cii': 'XRechnung (CII)',
    'xrechnung-ubl': 'XRechnung (UBL)',
    cii: 'CII XML',
    ubl: 'UBL XML',
  },
  downloading: 'Preparing the e-invoice…',
  downloaded: '{{format}} downloaded.',
  attach: 'Attach e-invoice',
  attachNone: 'None',
  attachHint: 'An EN 16931 e-invoice. Factur-X is the invoice’s PDF with the XML inside, sent instead of the plain PDF; the XML formats come as a second file. XRechnung is for German public buyers.',
  incomplete: '{{format}} cannot be made from this invoice yet. Missing, or to change:',
  incompleteHint: 'Fix these, then try again.',
  missing: {
    invoice_settings: {
      country_code: 'Your country (invoice settings)',
      vat_id: 'Your VAT ID or tax ID (invoice settings)',
      vat_exemption_reason: 'Why lines without tax are exempt (invoice settings)',
      street: 'Your street (invoice settings)',
      city: 'Your city (invoice settings)',
      postal_code: 'Your post code (invoice settings)',
      contact_name: 'Your contact person (invoice settings)',
    },
    client: {
      country_code: 'The country of {{client}}',
      invoice_email: 'The invoice e-mail of {{client}}',
      buyer_reference: 'The buyer reference (e.g. Leitweg-ID) of {{client}}',
      street: 'The street of {{client}}',
      city: 'The city of {{client}}',
      postal_code: 'The post code of {{client}}',
    },
    workspace: {
      sender_email: 'The sender e-mail (workspace settings)',
      sender_phone: 'The sender phone (workspace settings)',
    },
    bank_account: 'A bank account in {{currency}} (bank accounts)',
    both_taxes: 'Line {{n}} bears both taxes; an e-invoice line can bear only one',
    no_lines: 'Any line',
    other: 'The field {{field}}',
  },
};

export const { useTexts: useEInvoiceTexts, t: eInvoiceTexts } = defineTexts('invoice-e-invoice', en, {
  menu: 'E-Rechnung',
  choices: {
    facturx: 'Factur-X (PDF)',
    'xrechnung-cii': 'XRechnung (CII)',
    'xrechnung-ubl': 'XRechnung (UBL)',
    cii: 'CII-XML',
    ubl: 'UBL-XML',
  },
  downloading: 'Die E-Rechnung wird erstellt…',
  downloaded: '{{format}} heruntergeladen.',
  attach: 'E-Rechnung anhängen',
  attachNone: 'Keine',
  attachHint: 'Eine E-Rechnung nach EN 16931. Factur-X ist das PDF der Rechnung mit dem XML darin und ersetzt das einfache PDF; die XML-Formate kommen als zweite Datei. XRechnung ist für öffentliche Auftraggeber in Deutschland.',
  incomplete: '{{format}} lässt sich aus dieser Rechnung noch nicht erstellen. Es fehlt oder ist zu ändern:',
  incompleteHint: 'Beheben Sie das und versuchen Sie es erneut.',
  missing: {
    invoice_settings: {
      country_code: 'Ihr Land (Rechnungseinstellungen)',
      vat_id: 'Ihre USt-IdNr. oder Steuernummer (Rechnungseinstellungen)',
      vat_exemption_reason: 'Der Grund der Steuerbefreiung von Positionen ohne Steuer (Rechnungseinstellungen)',
      street: 'Ihre Straße (Rechnungseinstellungen)',
      city: 'Ihr Ort (Rechnungseinstellungen)',
      postal_code: 'Ihre Postleitzahl (Rechnungseinstellungen)',
      contact_name: 'Ihre Kontaktperson (Rechnungseinstellungen)',
    },
    client: {
      country_code: 'Das Land von {{client}}',
      invoice_email: 'Die Rechnungs-E-Mail von {{client}}',
      buyer_reference: 'Die Käuferreferenz (z. B. Leitweg-ID) von {{client}}',
      street: 'Die Straße von {{client}}',
      city: 'Der Ort von {{client}}',
      postal_code: 'Die Postleitzahl von {{client}}',
    },
    workspace: {
      sender_email: 'Die Absender-E-Mail (Einstellungen des Arbeitsbereichs)',
      sender_phone: 'Das Absender-Telefon (Einstellungen des Arbeitsbereichs)',
    },
    bank_account: 'Ein Bankkonto in {{currency}} (Bankkonten)',
    both_taxes: 'Position {{n}} trägt beide Steuern; eine Position einer E-Rechnung kann nur eine tragen',
    no_lines: 'Mindestens eine Position',
    other: 'Das Feld {{field}}',
  },
});
