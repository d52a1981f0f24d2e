import { describe, expect, it } from 'vitest';
import { fold, queryWords, search, searchIndex } from './match.ts';

const labels = ['Acme - Website - Design', 'Café Noir - Programme (CN-1) - Développement', 'Globex - Progress report - Writing', 'Initech - Migration - Testing'];
const index = searchIndex(labels, (l) => l);

describe('search', () => {
  it.each([
    ['', labels],
    ['   ', labels],
    ['Prog', [labels[1], labels[2]]],
    ['prog', [labels[1], labels[2]]],
    ['PROGRESS', [labels[2]]],
    ['cafe', [labels[1]]],
    ['CAFÉ', [labels[1]]],
    ['developpement', [labels[1]]],
    ['design acme', [labels[0]]],
    ['acme   design', [labels[0]]],
    ['cn-1', [labels[1]]],
    ['acme testing', []],
    ['zzz', []],
  ])('%j finds %j', (query, expected) => expect(search(index, query)).toEqual(expected));

  it('keeps the order of the list (recently used first)', () => {
    const recent = searchIndex(['Zeta - Prog', 'Alpha - Prog', 'Beta - Other'], (l) => l);
    expect(search(recent, 'prog')).toEqual(['Zeta - Prog', 'Alpha - Prog']);
  });

  it('returns the same list when nothing is typed (no copy per keystroke)', () => {
    expect(search(index, '')).toBe(labels);
  });
});

describe('fold', () => {
  it('drops accents and case, keeps letters without a decomposition', () => {
    expect(fold('Café Æon Ångström ÑANDÚ')).toBe('cafe æon angstrom nandu');
    expect(queryWords('  Café  noir ')).toEqual(['cafe', 'noir']);
  });
});
