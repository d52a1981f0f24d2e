import { describe, expect, it } from 'vitest';
import { BLOCKER_CODES, WARNING_CODES } from '../../../../src/modules/tracking/approvals/codes.ts';
import { createFormat } from '../../ui/format.ts';
import { i18n } from '../../ui/i18n.ts';
import { FINDING_SENTENCES, findingText, type Finding } from './findings.ts';
import './texts.ts';

type Texts = Parameters<typeof findingText>[1];
const textsIn = (language: 'en' | 'de') => i18n.getFixedT(language, 'approvals') as unknown as Texts;
const formatIn = (locale: string) => createFormat({ locale, timeZone: 'Europe/Berlin', durationStyle: 'clock' });
const en = { t: textsIn('en'), format: formatIn('en-GB') };
const de = { t: textsIn('de'), format: formatIn('de-DE') };

/** A finding of each code as the server's preflight sends it (src/modules/tracking/approvals/preflight.ts). */
const SAMPLES: Record<string, Finding[]> = {
  running_timer: [{ code: 'running_timer', message: 'A timer is running', time_entry_ids: ['e1'] }],
  unsubmitted_time: [{ code: 'unsubmitted_time', message: 'not submitted', time_entry_ids: ['e1', 'e2'], expense_ids: ['x1'] }],
  hours_below_expected: [{ code: 'hours_below_expected', message: '4 hours tracked', tracked_hours: 4, expected_hours: 19.5 }],
  outside_working_capacity: [
    { code: 'outside_working_capacity', message: '24 hours tracked', tracked_hours: 24, capacity_hours: 15.5, dates: [] },
    { code: 'outside_working_capacity', message: '24 hours tracked', tracked_hours: 24, capacity_hours: 15.5, dates: ['2026-12-12'] },
    { code: 'outside_working_capacity', message: 'outside', tracked_hours: 8, capacity_hours: null, dates: ['2026-12-12', '2026-12-13'] },
  ],
  overlapping_entries: [{ code: 'overlapping_entries', message: 'overlap', time_entry_ids: ['e1', 'e2'] }],
  break_missing: [{ code: 'break_missing', message: 'Less break', dates: ['2026-12-07'], days: [{ date: '2026-12-07', break_minutes: 15, required_minutes: 30 }] }],
};

describe('the preflight’s blockers and warnings', () => {
  it('have a sentence for every code the server defines', () => {
    for (const code of [...BLOCKER_CODES, ...WARNING_CODES]) expect(Object.keys(FINDING_SENTENCES), code).toContain(code);
  });

  for (const code of [...BLOCKER_CODES, ...WARNING_CODES]) {
    it(`${code}: written in English and German, not the server’s message`, () => {
      expect(SAMPLES[code], `a sample of ${code}`).toBeDefined();
      for (const finding of SAMPLES[code]!) {
        const english = findingText(finding, en.t, en.format);
        const german = findingText(finding, de.t, de.format);
        for (const text of [english, german]) {
          expect(text).not.toBe(finding.message);
          expect(text).not.toMatch(/findings\.|\{\{/);
        }
        expect(german).not.toBe(english);
      }
    });
  }

  it('writes hours with the locale’s decimal sign', () => {
    const below = SAMPLES.hours_below_expected![0]!;
    expect(findingText(below, de.t, de.format)).toBe('4 Std. erfasst, weniger als die für die Woche erwarteten 19,5 Std.');
    expect(findingText(below, en.t, en.format)).toBe('4 h tracked, below the 19.5 h expected for the week.');
  });

  it('writes the days of a missing break with what was taken and required', () => {
    expect(findingText(SAMPLES.break_missing![0]!, de.t, de.format)).toBe('Weniger Pause, als die Pausenregeln des Arbeitsbereichs verlangen: Mo., 7. Dez. (15 von 30 min).');
    // A list of short dates at the end of a sentence: one full stop, not "Sa., 12. Dez..".
    expect(findingText(SAMPLES.outside_working_capacity![2]!, de.t, de.format)).toBe('Zeit an einem freien Tag oder mehr als 24 Std. an einem Tag erfasst: Sa., 12. Dez. und So., 13. Dez.');
  });

  it('counts the items not submitted', () => {
    expect(findingText(SAMPLES.unsubmitted_time![0]!, en.t, en.format)).toBe('3 items of this week are not submitted, or were returned for correction and not submitted again.');
  });

  it('shows the server’s message for a code it does not know, or a known code without its numbers', () => {
    expect(findingText({ code: 'some_future_check', message: 'Something new.' }, de.t, de.format)).toBe('Something new.');
    expect(findingText({ code: 'hours_below_expected', message: 'Without numbers.' }, de.t, de.format)).toBe('Without numbers.');
    expect(findingText({ code: 'toString', message: 'Not a code.' }, de.t, de.format)).toBe('Not a code.');
  });
});
