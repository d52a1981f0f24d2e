import { describe, expect, it } from 'vitest';
import { IMPORT_PROBLEMS as SERVER_WORDS, said } from '../../../../src/modules/integrations/import/problems.ts';
import { createFormat } from '../../ui/format.ts';
import { catalogs, i18n, type Translate } from '../../ui/i18n.ts';
import { saying } from './said.ts';
import { IMPORT_PROBLEMS, type ImportTexts } from './texts.ts';

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('the import problems’ texts', () => {
  it('word every problem the server names, in English and German, and nothing it does not', () => {
    expect([...IMPORT_PROBLEMS].sort()).toEqual([...SERVER_WORDS].sort());
    const { de } = catalogs.get('import') as { de: { problems: Record<string, string> } };
    expect(Object.keys(de.problems).sort()).toEqual([...SERVER_WORDS].sort());
  });

  it('name only values the server’s own English sentence reads', () => {
    const { en, de } = catalogs.get('import') as { en: { problems: Record<string, string> }; de: { problems: Record<string, string> } };
    for (const word of SERVER_WORDS) {
      // The values the server's English reads for this word, recorded as it reads them.
      const read = new Set<string>();
      const values = new Proxy({}, { get: (_target, name) => (typeof name === 'string' && read.add(name), name === 'more' ? 0 : 'x') });
      said(word, values);
      for (const text of [en.problems[word], de.problems[word]]) {
        for (const name of placeholders(text)) expect([...read], `${word}: {{${name}}} in "${text}"`).toContain(name);
      }
    }
  });
});

describe('saying', () => {
  const format = (locale: string) => createFormat({ locale, timeZone: 'Europe/Berlin', durationStyle: 'clock', dateFormat: 'DD.MM.YYYY' });
  const german = saying(i18n.getFixedT('de', 'import') as unknown as Translate<ImportTexts>, format('de-DE'));

  it('words a problem in the reader’s language, counts, rates, hours and days in their format', () => {
    expect(german({ message: 'x', problem: 'rate_same_day', values: { rate: '150.5', current: '120', line: 1234, date: '2026-03-04' } })).toBe(
      'Der Stundensatz 150,50 weicht von 120,00 (Zeile 1.234) für dieselbe Person und dasselbe Projekt am 04.03.2026 ab; dieser Tag wird mit 120,00 berechnet.',
    );
    expect(german({ message: 'x', problem: 'duration_out_of_range', values: { column: 'Duration', hours: '25.00' } })).toBe(
      'Duration: Ein Eintrag dauert zwischen 0 und 24 Stunden, nicht 25,00 Stunden.',
    );
    expect(german({ message: 'x', problem: 'project_bills_by', values: { project: 'Web', bill_by: 'tasks' } })).toContain('rechnet nach Aufgabensatz ab');
    // The cell's text is the file's, as it is.
    expect(german({ message: 'x', problem: 'not_a_number', values: { column: 'Rate', value: '1.5.0' } })).toBe('Rate „1.5.0“ ist keine Zahl.');
  });

  it('says the server’s English for a word it does not know, or none', () => {
    expect(german({ message: 'Something new.', problem: 'a_newer_word', values: {} })).toBe('Something new.');
    expect(german({ message: 'No word.' })).toBe('No word.');
  });
});
