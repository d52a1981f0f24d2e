import { describe, expect, it } from 'vitest';
import { i18n } from '../../ui/i18n.ts';
import { isValidTimeZone, workspaceProblems } from './workspace-rules.ts';

describe('workspace form rules', () => {
  it('accepts IANA zones and refuses others', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
  it('names each field at fault', () => {
    expect(workspaceProblems({ name: 'Acme', currency: 'EUR', timezone: 'UTC', rounding_minutes: 15 })).toEqual({});
    expect(workspaceProblems({ name: '', currency: 'eu', timezone: 'Nowhere', rounding_minutes: 61 })).toEqual({
      name: 'Enter a name.',
      currency: 'Enter a three-letter currency code, such as EUR.',
      timezone: 'Enter an IANA time zone, such as Europe/Berlin.',
      rounding_minutes: 'Enter whole minutes from 1 to 60.',
    });
    expect(workspaceProblems({ name: 'A', rounding_minutes: 1.5 }).rounding_minutes).toBeDefined();
  });
  it('says the problems in the current language', async () => {
    await i18n.changeLanguage('de');
    try {
      expect(workspaceProblems({ name: '', rounding_minutes: 0 })).toEqual({
        name: 'Geben Sie einen Namen ein.',
        rounding_minutes: 'Geben Sie ganze Minuten von 1 bis 60 ein.',
      });
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
