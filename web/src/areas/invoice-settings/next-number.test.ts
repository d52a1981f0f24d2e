import { expect, it } from 'vitest';
import { nextNumberExample } from './next-number.ts';

it('shows the next number the format gives, or nothing while the format is not one', () => {
  expect(nextNumberExample('{YYYY}-{NNNN}', 42, 2026)).toBe('2026-0042');
  expect(nextNumberExample(' INV-{NNN} ', 7, 2026)).toBe('INV-007');
  expect(nextNumberExample('', 1, 2026)).toBeNull();
  expect(nextNumberExample('2026-', 1, 2026)).toBeNull();
  expect(nextNumberExample('{NNNN}', 0, 2026)).toBeNull();
});
