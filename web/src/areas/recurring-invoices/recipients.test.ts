import { describe, expect, it } from 'vitest';
import { formatRecipients, parseRecipients } from './recipients.ts';

describe('recurring invoice recipients as one line of text', () => {
  it.each([
    ['ap@acme.example', [{ email: 'ap@acme.example' }]],
    ['ap@acme.example, bo@acme.example', [{ email: 'ap@acme.example' }, { email: 'bo@acme.example' }]],
    ['ap@acme.example; bo@acme.example cy@acme.example', [{ email: 'ap@acme.example' }, { email: 'bo@acme.example' }, { email: 'cy@acme.example' }]],
    ['Ann Smith <ann@acme.example>', [{ email: 'ann@acme.example', name: 'Ann Smith' }]],
    ['"Smith, Ann" <ann@acme.example>, bo@acme.example', [{ email: 'ann@acme.example', name: 'Smith, Ann' }, { email: 'bo@acme.example' }]],
    ['<ann@acme.example>', [{ email: 'ann@acme.example' }]],
    ['Accounts Payable <ap@acme.example>;Ben <ben@acme.example>', [{ email: 'ap@acme.example', name: 'Accounts Payable' }, { email: 'ben@acme.example', name: 'Ben' }]],
    [' , ;', []],
  ])('%s', (text, expected) => {
    expect(parseRecipients(text)).toEqual(expected);
  });

  it('shows names as Name <address>, and reads back what it shows', () => {
    const list = [{ email: 'ann@acme.example', name: 'Smith, Ann' }, { email: 'ap@acme.example', name: 'Accounts' }, { email: 'bo@acme.example', name: null }];
    const text = formatRecipients(list);
    expect(text).toBe('"Smith, Ann" <ann@acme.example>, Accounts <ap@acme.example>, bo@acme.example');
    expect(parseRecipients(text)).toEqual([list[0], list[1], { email: 'bo@acme.example' }]);
  });
});
