import { describe, expect, it } from 'vitest';
import { breaksBetween, type TimedEntry } from './breaks.ts';

const e = (id: string, started_time: string | null, ended_time: string | null, is_running = false): TimedEntry => ({ id, started_time, ended_time, is_running });

describe('breaksBetween', () => {
  it('is the gap between two consecutive timed entries', () => {
    expect(breaksBetween([e('a', '09:00', '12:00'), e('b', '12:30', '14:00')])).toEqual([{ after: 'a', from: '12:00', to: '12:30', minutes: 30 }]);
  });

  it('finds each gap of a day, and none where one entry starts as the other ends', () => {
    expect(breaksBetween([e('a', '08:00', '10:00'), e('b', '10:00', '12:00'), e('c', '12:45', '15:00'), e('d', '15:15', '17:00')])).toEqual([
      { after: 'b', from: '12:00', to: '12:45', minutes: 45 },
      { after: 'c', from: '15:00', to: '15:15', minutes: 15 },
    ]);
  });

  it('measures from the latest end so far, so an entry inside a longer one leaves no false break', () => {
    expect(breaksBetween([e('a', '09:00', '13:00'), e('b', '10:00', '11:00'), e('c', '13:30', '14:00')])).toEqual([{ after: 'b', from: '13:00', to: '13:30', minutes: 30 }]);
    expect(breaksBetween([e('a', '09:00', '11:00'), e('b', '10:30', '12:00')])).toEqual([]);
  });

  it('shows no break next to an entry without times or a running one', () => {
    expect(breaksBetween([e('a', '09:00', '10:00'), e('b', null, null), e('c', '11:00', '12:00')])).toEqual([]);
    expect(breaksBetween([e('a', '09:00', '10:00'), e('b', '10:30', null, true)])).toEqual([]);
    expect(breaksBetween([e('a', '09:00', null), e('b', '10:30', '11:00')])).toEqual([]);
    // A run starts again after an entry without times.
    expect(breaksBetween([e('x', null, null), e('a', '09:00', '10:00'), e('b', '10:10', '11:00')])).toEqual([{ after: 'a', from: '10:00', to: '10:10', minutes: 10 }]);
  });

  it('reads times with seconds as minutes, and an empty day has no breaks', () => {
    expect(breaksBetween([e('a', '09:00:00', '12:00:00'), e('b', '13:00:00', '14:00:00')])).toEqual([{ after: 'a', from: '12:00', to: '13:00', minutes: 60 }]);
    expect(breaksBetween([])).toEqual([]);
    expect(breaksBetween([e('a', '09:00', '10:00')])).toEqual([]);
  });
});
