import { describe, expect, it } from 'vitest';
import { countries, countryCodes } from './countries.ts';

describe('countries', () => {
  it('lists the ISO 3166-1 countries, not the reserved ranges or groupings', () => {
    const codes = countryCodes();
    expect(codes).toEqual(expect.arrayContaining(['DE', 'FR', 'AT', 'CH', 'US', 'GB', 'XI']));
    for (const code of ['AA', 'QZ', 'XA', 'ZZ', 'EU', 'EZ', 'UN', 'QO']) expect(codes).not.toContain(code);
    // Withdrawn or exceptionally reserved codes ICU names as today's countries: "Deutschland (DD)" beside DE.
    for (const code of ['DD', 'SU', 'YU', 'CS', 'BU', 'ZR', 'UK', 'IC']) expect(codes).not.toContain(code);
    expect(codes.length).toBeGreaterThan(240);
    expect(codes.length).toBeLessThan(280);
  });

  it('names them in the UI language, sorted there, XI by the given name', () => {
    const de = countries('de-DE', 'Nordirland');
    expect(de.find((c) => c.code === 'DE')?.name).toBe('Deutschland');
    expect(de.find((c) => c.code === 'XI')?.name).toBe('Nordirland');
    const names = de.map((c) => c.name);
    expect(names.indexOf('Österreich')).toBeGreaterThan(names.indexOf('Oman'));
    expect(countries('en-GB', 'Northern Ireland').find((c) => c.code === 'DE')?.name).toBe('Germany');
  });

  it('keeps a stored code it does not know', () => {
    expect(countries('en-GB', 'Northern Ireland', 'QQ').find((c) => c.code === 'QQ')).toEqual({ code: 'QQ', name: 'QQ' });
    expect(countries('en-GB', 'Northern Ireland', 'DE').filter((c) => c.code === 'DE')).toHaveLength(1);
  });
});
