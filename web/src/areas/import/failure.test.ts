import { describe, expect, it } from 'vitest';
import { HttpError, NetworkError, type ErrorBody } from '../../api/call.ts';
import { importFailure } from './failure.ts';

const fail = (status: number, body?: ErrorBody) => new HttpError(status, body, new Headers());

describe('importFailure', () => {
  it('a refused file: the message and each line with why (a line the server could not tell has none)', () => {
    const body: ErrorBody = {
      error: 'invalid_request',
      message: 'Line 3: Duration is not a duration (and 1 more line; nothing was imported)',
      field: 'file',
      problems: [
        { line: 3, message: 'Duration is not a duration' },
        { line: 0, message: 'not CSV' },
        { message: 'no line' },
        { line: 5 },
        'junk',
      ],
    };
    expect(importFailure(fail(400, body))).toEqual({
      kind: 'file',
      said: { message: 'Line 3: Duration is not a duration (and 1 more line; nothing was imported)' },
      problems: [
        { line: 3, message: 'Duration is not a duration' },
        { line: null, message: 'not CSV' },
        { line: null, message: 'no line' },
      ],
    });
  });

  it('a refused file without problems (empty, not UTF-8): the message alone', () => {
    expect(importFailure(fail(400, { error: 'invalid_request', message: 'The file is empty.', field: 'file' }))).toEqual({ kind: 'file', said: { message: 'The file is empty.' }, problems: [] });
  });

  it('the words the server names, with their values (strings and numbers only), for the page to say in the reader’s language', () => {
    const body: ErrorBody = {
      error: 'invalid_request',
      message: 'Line 1: the header of this Toggl Track export lacks Billable, which every row needs: export the report again with all its columns.',
      field: 'file',
      problem: 'header_lacks',
      values: { tracker: 'Toggl Track', missing: 'Billable', junk: { nested: true } },
      problems: [
        { line: 1, message: 'missing Billable', problem: 'missing_columns', values: { missing: 'Billable' } },
        { line: 2, message: 'it has 5 fields, the header 4.', problem: 'field_count', values: { fields: 5, header: 4 } },
        { line: 3, message: 'no word', problem: 7, values: { x: 'y' } },
      ],
    };
    expect(importFailure(fail(400, body))).toEqual({
      kind: 'file',
      said: { message: body.message, problem: 'header_lacks', values: { tracker: 'Toggl Track', missing: 'Billable' } },
      problems: [
        { line: 1, message: 'missing Billable', problem: 'missing_columns', values: { missing: 'Billable' } },
        { line: 2, message: 'it has 5 fields, the header 4.', problem: 'field_count', values: { fields: 5, header: 4 } },
        { line: 3, message: 'no word' },
      ],
    });
  });

  it('too large: 413, with or without a body', () => {
    expect(importFailure(fail(413, { error: 'payload_too_large', message: 'The export is larger than the 10 MiB limit.', field: 'file' }))).toEqual({ kind: 'too_large' });
    expect(importFailure(fail(413))).toEqual({ kind: 'too_large' });
  });

  it('anything else in the app’s usual words', () => {
    expect(importFailure(fail(400, { error: 'invalid_request', message: "format must be auto or one of …, not 'x'.", field: 'format' }))).toEqual({
      kind: 'other',
      message: "format must be auto or one of …, not 'x'.",
    });
    expect(importFailure(new NetworkError(new TypeError('Failed to fetch')))).toEqual({ kind: 'other', message: 'Sheaf cannot be reached. Check your connection and try again.' });
    expect(importFailure(fail(403, { error: 'forbidden', message: 'Only owners and administrators can import.' }))).toEqual({
      kind: 'other',
      message: 'Only owners and administrators can import.',
    });
  });
});
