import { describe, expect, it } from 'vitest';
import { IMPORT_PROBLEMS as SERVER_WORDS, said } from '../../../../src/modules/integrations/import/problems.ts';
import { catalogs } from '../../ui/i18n.ts';
import { IMPORT_PROBLEMS } from './texts.ts';

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('the import problems’ texts', () => {
  it('word every problem the server names, in English and German, and nothing it does not', () => {
    expect([...IMPORT_PROBLEMS].sort()).toEqual([...SERVER_WORDS].sort());
    const { de } = catalogs.get('import') as { de: { problems: Record<string, string> } };
    expect(Object.keys(de.problems).sort()).toEqual([...SERVER_WORDS].sort());
  });

  it('name only values the server’s own sentence names (what its call sites give)', () => {
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
