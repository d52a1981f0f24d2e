import { describe, expect, it } from 'vitest';
import { groupedIban } from './iban.ts';

describe('groupedIban', () => {
  it('groups an electronic IBAN in fours, the last group shorter', () => {
    expect(groupedIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
    expect(groupedIban('NL91ABNA0417164300')).toBe('NL91 ABNA 0417 1643 00');
    expect(groupedIban('GB82WEST12345698765432')).toBe('GB82 WEST 1234 5698 7654 32');
    expect(groupedIban('BE68 5390 0754 7034')).toBe('BE68 5390 0754 7034');
  });
});
