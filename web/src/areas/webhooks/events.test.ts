import { describe, expect, it } from 'vitest';
import { actionOf, chosenGroups, EVENT_KINDS, groupEvents, isEverything, normalized, RECORDS, recordOf, withKind, withRecord } from './events.ts';

describe('grouping event kinds by record', () => {
  it('puts every kind in exactly one group, in the server’s order', () => {
    const groups = groupEvents([]);
    expect(groups.map((g) => g.record)).toEqual(RECORDS);
    expect(groups.flatMap((g) => g.kinds)).toEqual(EVENT_KINDS);
    expect(groups.find((g) => g.record === 'timer')?.kinds).toEqual(['timer.started', 'timer.stopped']);
    expect(groups.find((g) => g.record === 'estimate')?.kinds).toEqual(['estimate.sent', 'estimate.accepted', 'estimate.declined']);
  });

  it('says of each group whether all, some or none of it is chosen', () => {
    const groups = groupEvents(['client.created', 'timer.started', 'timer.stopped']);
    const state = Object.fromEntries(groups.map((g) => [g.record, g.state]));
    expect(state).toMatchObject({ timer: 'all', client: 'some', invoice: 'none', time_entry: 'none' });
    expect(groups.find((g) => g.record === 'client')?.chosen).toEqual(['client.created']);
  });

  it('names only the groups with something chosen', () => {
    expect(chosenGroups(['invoice.paid', 'client.created', 'invoice.sent']).map((g) => [g.record, g.chosen])).toEqual([
      ['invoice', ['invoice.sent', 'invoice.paid']],
      ['client', ['client.created']],
    ]);
    expect(chosenGroups([])).toEqual([]);
  });

  it('splits a kind into record and action', () => {
    expect(recordOf('time_entry.created')).toBe('time_entry');
    expect(actionOf('time_entry.created')).toBe('created');
    expect(recordOf('approval.withdrawn')).toBe('approval');
    expect(actionOf('approval.withdrawn')).toBe('withdrawn');
  });
});

describe('choosing kinds', () => {
  it('adds and removes one kind, keeping the server’s order and no duplicates', () => {
    expect(withKind(['project.deleted'], 'client.created', true)).toEqual(['client.created', 'project.deleted']);
    expect(withKind(['client.created'], 'client.created', true)).toEqual(['client.created']);
    expect(withKind(['client.created', 'project.deleted'], 'client.created', false)).toEqual(['project.deleted']);
  });

  it('selects and clears a whole record’s kinds', () => {
    expect(withRecord(['client.created', 'invoice.paid'], 'client', true)).toEqual(['invoice.paid', 'client.created', 'client.updated', 'client.archived', 'client.deleted']);
    expect(withRecord(['client.created', 'client.deleted', 'invoice.paid'], 'client', false)).toEqual(['invoice.paid']);
    expect(withRecord([], 'approval', true)).toEqual(['approval.submitted', 'approval.approved', 'approval.rejected', 'approval.withdrawn']);
  });

  it('drops unknown names and tells when everything is chosen', () => {
    expect(normalized(['nope.never', 'timer.stopped', 'timer.started'])).toEqual(['timer.started', 'timer.stopped']);
    expect(isEverything(EVENT_KINDS)).toBe(true);
    expect(isEverything(withKind(EVENT_KINDS, 'invoice.paid', false))).toBe(false);
    expect(isEverything(RECORDS.reduce<string[]>((chosen, r) => withRecord(chosen, r, true), []))).toBe(true);
  });
});
