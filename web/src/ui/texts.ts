import { defineTexts } from './i18n.ts';

/** The shared components' texts (web/src/ui/i18n.ts): English, and German typed from it. */
const en = {
  nothingMatches: 'Nothing matches',
  copy: 'Copy',
  copied: 'Copied.',
  copyByHand: 'Select the text and copy it.',
  calendar: 'Calendar',
  previousMonth: 'Previous month',
  nextMonth: 'Next month',
  close: 'Close',
  pages: 'Pages',
  pageOf: 'Page {{page}} of {{pages}} ({{count}} {{noun}})',
  pageOfNoted: 'Page {{page}} of {{pages}} ({{count}} {{noun}}; {{note}})',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  person: 'Person',
  timeHint: 'Such as 9:30, 930 or 9:30pm',
  duration: {
    negative: 'Enter a duration of zero or more.',
    format: 'Enter a duration such as 1:30, 1.5 or 1h 30m.',
    tooLong: 'A day holds at most 24 hours.',
  },
  timeOfDay: {
    format: 'Enter a time such as 9:30, 930 or 9:30pm.',
    range: 'A time of day runs from 0:00 to 23:59.',
  },
  northernIreland: 'Northern Ireland',
  countryHint: 'Type to find a country; empty the field for none.',
};

const de = {
  nothingMatches: 'Keine Treffer',
  copy: 'Kopieren',
  copied: 'Kopiert.',
  copyByHand: 'Markieren Sie den Text und kopieren Sie ihn.',
  calendar: 'Kalender',
  previousMonth: 'Vorheriger Monat',
  nextMonth: 'Nächster Monat',
  close: 'Schließen',
  pages: 'Seiten',
  pageOf: 'Seite {{page}} von {{pages}} ({{count}} {{noun}})',
  pageOfNoted: 'Seite {{page}} von {{pages}} ({{count}} {{noun}}; {{note}})',
  previousPage: 'Vorherige Seite',
  nextPage: 'Nächste Seite',
  person: 'Person',
  timeHint: 'Zum Beispiel 9:30, 930 oder 9:30pm',
  duration: {
    negative: 'Geben Sie eine Dauer von null oder mehr ein.',
    format: 'Geben Sie eine Dauer wie 1:30, 1,5 oder 1h 30m ein.',
    tooLong: 'Ein Tag hat höchstens 24 Stunden.',
  },
  timeOfDay: {
    format: 'Geben Sie eine Uhrzeit wie 9:30, 930 oder 9:30pm ein.',
    range: 'Eine Uhrzeit liegt zwischen 0:00 und 23:59.',
  },
  northernIreland: 'Nordirland',
  countryHint: 'Tippen Sie, um ein Land zu finden; leeren Sie das Feld für keines.',
};

export const { useTexts, t } = defineTexts('ui', en, de);
