import { describe, expect, it } from 'vitest';
import { holds } from '../../api/access.ts';
import { clientAccess } from './access.ts';
import type { Client } from './api.ts';
import { changesOf, createOf, valuesOf } from './client-values.ts';
import { apiQuery, filterOf, matchesName, searchOf } from './filters.ts';
import { i18n } from '../../ui/i18n.ts';
import { termsLabel } from './terms.ts';
import { clientTexts } from './texts.ts';

const admin = clientAccess({ role: 'administrator', permissions: [] });
const editor = clientAccess({ role: 'manager', permissions: ['edit_clients_and_tasks'] });

const client: Client = {
  id: 'c1',
  name: 'Globex',
  is_active: true,
  address: null,
  currency: 'EUR',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  payment_terms: 'custom',
  payment_days: 20,
  tax: 7.5,
  tax2: null,
  discount: null,
};

describe('who may do what with clients', () => {
  it.each([
    ['owner', [], { reads: true, writes: true, archives: true }],
    ['administrator', [], { reads: true, writes: true, archives: true }],
    ['manager', ['edit_clients_and_tasks'], { reads: true, writes: true, archives: false }],
    ['manager', ['edit_projects'], { reads: true, writes: false, archives: false }],
    ['member', ['edit_clients_and_tasks'], { reads: true, writes: false, archives: false }],
    ['client', [], { reads: false, writes: false, archives: false }],
  ] as const)('%s with %j', (role, permissions, access) => {
    expect(clientAccess({ role, permissions })).toEqual(access);
  });

  it('holds: a permission flag counts for managers only', () => {
    expect(holds({ role: 'member', permissions: ['view_billable_rates'] }, 'view_billable_rates')).toBe(false);
    expect(holds({ role: 'manager', permissions: ['view_billable_rates'] }, 'view_billable_rates')).toBe(true);
    expect(holds({ role: 'owner' }, 'view_billable_rates')).toBe(true);
  });
});

describe('the client form bodies', () => {
  it('an untouched form changes nothing', () => {
    expect(changesOf(client, valuesOf(client), admin)).toEqual({});
  });

  it('sends only the changed fields; emptied text and numbers are null', () => {
    const v = { ...valuesOf(client), tax: NaN, discount: 5, address: '  ', currency: 'usd' };
    expect(changesOf(client, v, admin)).toEqual({ tax: null, discount: 5, currency: 'USD' });
    expect(changesOf(client, { ...valuesOf(client), currency: '' }, admin)).toEqual({ currency: null });
  });

  it('days travel with custom terms, and leaving custom sends only the terms', () => {
    const none = { ...client, payment_terms: null, payment_days: null };
    expect(changesOf(none, { ...valuesOf(none), payment_terms: 'custom', payment_days: 10 }, admin)).toEqual({ payment_terms: 'custom', payment_days: 10 });
    expect(changesOf(none, { ...valuesOf(none), payment_terms: 'custom' }, admin)).toEqual({ payment_terms: 'custom', payment_days: null });
    expect(changesOf(client, { ...valuesOf(client), payment_terms: 'net_30' }, admin)).toEqual({ payment_terms: 'net_30' });
    expect(changesOf(client, { ...valuesOf(client), payment_days: 45 }, admin)).toEqual({ payment_days: 45 });
  });

  it('is_active is sent only by those who may archive', () => {
    const v = { ...valuesOf(client), is_active: false };
    expect(changesOf(client, v, admin)).toEqual({ is_active: false });
    expect(changesOf(client, v, editor)).toEqual({});
  });

  it('a create sends what was filled in', () => {
    expect(createOf({ ...valuesOf(), name: 'Initech' }, admin)).toEqual({ name: 'Initech' });
    expect(createOf({ ...valuesOf(), name: 'Initech', payment_terms: 'custom', tax: 0, is_active: false }, admin)).toEqual({
      name: 'Initech',
      payment_terms: 'custom',
      tax: 0,
      is_active: false,
    });
    expect(createOf({ ...valuesOf(), name: 'Initech', is_active: false }, editor)).toEqual({ name: 'Initech' });
    expect(createOf({ ...valuesOf(), name: 'Müller', language: 'de' }, editor)).toEqual({ name: 'Müller', language: 'de' });
  });
});

describe('the client’s e-invoice details', () => {
  it('are sent trimmed, empty as null, the country as its code', () => {
    const v = { ...valuesOf(client), street: ' Ring 2 ', postal_code: '80331', city: 'München', country_code: 'DE', buyer_reference: '04011000-12345-03' };
    expect(changesOf(client, v, admin)).toEqual({ street: 'Ring 2', postal_code: '80331', city: 'München', country_code: 'DE', buyer_reference: '04011000-12345-03' });
    const filled = { ...client, street: 'Ring 2', city: 'München', country_code: 'DE' };
    expect(changesOf(filled, { ...valuesOf(filled), street: '  ', country_code: null }, admin)).toEqual({ street: null, country_code: null });
    expect(createOf({ ...valuesOf(), name: 'Initech', country_code: 'FR', city: 'Paris' }, editor)).toEqual({ name: 'Initech', country_code: 'FR', city: 'Paris' });
  });
});

describe('the list filter', () => {
  it('reads and writes the URL', () => {
    expect(filterOf(new URLSearchParams('status=archived&q=ac&page=3'))).toEqual({ status: 'archived', q: 'ac', page: 3 });
    expect(filterOf(new URLSearchParams('status=nope&page=-1'))).toEqual({ status: 'active', q: '', page: 1 });
    expect(searchOf({ status: 'active', q: '', page: 1 })).toBe('');
    expect(searchOf({ status: 'all', q: 'a b', page: 2 })).toBe('?status=all&q=a+b&page=2');
  });

  it('asks the API by status and page only', () => {
    expect(apiQuery({ status: 'active', q: 'x', page: 1 })).toEqual({ is_active: 'true' });
    expect(apiQuery({ status: 'archived', q: '', page: 2 })).toEqual({ is_active: 'false', page: 2 });
    expect(apiQuery({ status: 'all', q: '', page: 1 })).toEqual({});
  });

  it.each([
    ['Dunder Mifflin', 'dunder', true],
    ['Dunder Mifflin', 'mifflin dun', true],
    ['Café Müller', 'cafe muller', true],
    ['Dunder Mifflin', 'acme', false],
  ])('%s matches %s: %s', (name, q, yes) => {
    expect(matchesName(name, q)).toBe(yes);
  });
});

it('payment terms read as words, in the person’s language', async () => {
  const t = clientTexts;
  expect(termsLabel(t, null, null)).toBe('Not set');
  expect(termsLabel(t, 'net_30', null)).toBe('Net 30 days');
  expect(termsLabel(t, 'custom', 20)).toBe('Custom: 20 days');
  expect(termsLabel(t, 'custom', 1)).toBe('Custom: 1 day');
  await i18n.changeLanguage('de');
  expect(termsLabel(t, 'net_30', null)).toBe('30 Tage netto');
  expect(termsLabel(t, 'custom', 1)).toBe('Individuell: 1 Tag');
  await i18n.changeLanguage('en');
});
