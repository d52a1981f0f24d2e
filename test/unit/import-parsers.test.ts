import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectTracker, parseExport } from '../../src/modules/integrations/import/parse.ts';
import { keyOf, planImport, rowRef, type Existing } from '../../src/modules/integrations/import/plan.ts';
import { decimalText, eitherSeparatorDecimal, timeText } from '../../src/modules/integrations/import/row.ts';
import type { ApiError } from '../../src/errors.ts';

/**
 * The trackers' exports read into the common shape (fixtures in test/fixtures/import, written
 * from each tracker's documented columns), the readers of their fields, the rate timeline,
 * and the line-numbered refusals of a file that cannot be imported.
 */

const fixture = (name: string) => readFileSync(new URL(`../fixtures/import/${name}.csv`, import.meta.url));

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('expected a refusal');
}

const nobody: Existing = { members: [], clients: [], projects: [], tasks: [], identities: [] };

describe('detecting the tracker', () => {
  it('knows each fixture by its header', () => {
    for (const t of ['toggl', 'clockify', 'harvest', 'solidtime', 'kimai'] as const) expect(parseExport(fixture(t)).tracker).toBe(t);
    expect(detectTracker(['Foo', 'Bar'])).toBeNull();
  });
});

describe('Toggl Track', () => {
  const { rows } = parseExport(fixture('toggl'));
  it('maps a row, with the rate derived from the amount and the line of a multi-line record', () => {
    expect(rows[0]).toEqual({
      line: 2,
      client: 'Northwind',
      project: 'Website relaunch',
      task: 'Design',
      person: { name: 'Ada Known', email: 'ada.known@import.test' },
      date: '2024-03-04',
      startTime: '09:00',
      endTime: '11:30',
      seconds: 9000,
      hours: null,
      notes: 'Wireframes, first round',
      billable: true,
      rate: '100',
      amount: '250',
      currency: 'EUR',
    });
    expect(rows[2]).toMatchObject({ line: 4, notes: 'Review with the client\n(two lines of notes)', rate: '120' });
    expect(rows[3].line).toBe(6);
    expect(rows[5]).toMatchObject({ client: null, task: null, billable: false, rate: null });
  });

  it('warns, as a word with its values, of a client in another currency and of a project that prices by its own rates', () => {
    const project = rows.find((r) => r.client === 'Northwind')!.project!;
    const existing: Existing = {
      ...nobody,
      clients: [{ id: 'c1', name: 'Northwind', currency: 'GBP' }],
      projects: [{ id: 'p1', client_id: 'c1', name: project, bill_by: 'tasks', is_billable: true }],
    };
    const { warnings } = planImport('toggl', rows, existing);
    expect(warnings).toEqual([
      {
        line: 2,
        message: "the client Northwind bills in GBP; the file's rates are in EUR and are kept as numbers.",
        problem: 'client_currency',
        values: { client: 'Northwind', client_currency: 'GBP', currency: 'EUR' },
      },
      {
        line: 2,
        message: `the project ${project} exists and bills by tasks: its own rates price the imported entries, the file's are not applied.`,
        problem: 'project_bills_by',
        values: { project, bill_by: 'tasks' },
      },
    ]);
  });

  it('warns once of a new client whose rows come in two currencies: it bills in its first row\'s', () => {
    const lines = rows.filter((r) => r.client !== null).map((r) => r.line);
    const mixed = rows.map((r) => (r.client === null ? r : { ...r, client: 'Newco', currency: r.line === lines[0] ? 'EUR' : 'USD' }));
    const plan = planImport('toggl', mixed, nobody);
    expect(plan.clients.find((c) => c.name === 'Newco')).toMatchObject({ status: 'new', currency: 'EUR' });
    expect(plan.warnings.filter((w) => w.problem === 'client_currency')).toEqual([
      {
        line: lines[1],
        message: "the client Newco bills in EUR; the file's rates are in USD and are kept as numbers.",
        problem: 'client_currency',
        values: { client: 'Newco', client_currency: 'EUR', currency: 'USD' },
      },
    ]);
  });

  it('keeps a rate when rounding of the amount alone differs, and starts a new one from its first date', () => {
    const plan = planImport('toggl', rows, nobody);
    expect(plan.rates.map((r) => [r.person, r.effective_from, r.hourly_rate])).toEqual([
      ['Ada Known', '2024-03-04', '100'],
      ['Ada Known', '2024-03-11', '120'],
      ['Bea Newcomer', '2024-03-06', '90'],
    ]);
    // Line 9 repeats line 2: two entries, the first with the key imports have always given it.
    expect(plan.rows.map((r) => r.row.line)).toEqual([2, 3, 4, 6, 7, 8, 9]);
    expect(plan.rows[0].ref).toBe('toggl:9277549ec6fd1dda22e0b1c90fd9ec5a46651ce0');
    expect(plan.rows[6].ref).toBe('toggl:9277549ec6fd1dda22e0b1c90fd9ec5a46651ce0:2');
    expect(new Set(plan.rows.map((r) => r.ref)).size).toBe(7);
    expect(planImport('toggl', rows, nobody).rows.map((r) => r.ref)).toEqual(plan.rows.map((r) => r.ref));
    expect(plan.people.map((p) => p.status)).toEqual(['invite', 'invite']);
    expect(plan.clients.map((c) => c.name)).toEqual(['Northwind', 'No client']);
    expect(plan.tasks.map((t) => t.name)).toEqual(['Design', 'General']);
    expect(rowRef('toggl', rows[0])).toBe(rowRef('toggl', rows[6]));
    expect(rowRef('toggl', rows[0])).not.toBe(rowRef('clockify', rows[0]));
  });
});

describe('the other trackers', () => {
  it('Clockify: 12-hour times, MM/DD/YYYY, the rate column, 0.00 as no rate', () => {
    const { rows } = parseExport(fixture('clockify'));
    expect(rows[0]).toMatchObject({ date: '2024-03-04', startTime: '09:15', endTime: '11:15', seconds: 7200, rate: '80', currency: 'USD' });
    expect(rows[1]).toMatchObject({ date: '2024-03-18', startTime: '13:00', endTime: '15:00', rate: '95' });
    expect(rows[2]).toMatchObject({ billable: false, rate: null, seconds: 2700, task: null });
  });

  it('Clockify without the end columns: Duration (h) as H:MM:SS (or decimal hours), and no duration at all is a line problem, not 0 hours', () => {
    const header = 'Project,Client,Description,Task,User,Email,Billable,Start Date,Start Time,Duration (h)';
    const row = (duration: string) => `Website,Acme Corp,No end cols,Design,Workspace Owner,owner@example.com,Yes,10/09/2026,09:00:00,${duration}`;
    const { tracker, rows } = parseExport([header, row('02:30:00'), row('1:15'), row('0.75')].join('\n'));
    expect(tracker).toBe('clockify');
    expect(rows.map((r) => [r.seconds, r.startTime, r.endTime])).toEqual([
      [9000, null, null],
      [4500, null, null],
      [2700, null, null],
    ]);
    const empty = refusal(() => parseExport([header, row('02:30:00'), row('')].join('\n')));
    expect(empty.extras).toMatchObject({ problems: [{ line: 3, message: expect.stringMatching(/^The entry has no duration/) }] });
    expect(refusal(() => parseExport([header, row('2:75:00')].join('\n'))).message).toMatch(/^Line 2: Duration \(h\) '2:75:00' is not a duration/);
  });

  it('Harvest: decimal commas, hours kept exactly, names without e-mail, the currency from "Euro - EUR"', () => {
    const { rows } = parseExport(fixture('harvest'));
    expect(rows[1]).toMatchObject({ person: { name: 'Ada Known', email: null }, hours: '2.25', seconds: 8100, rate: '110', currency: 'EUR', startTime: null });
    expect(rows[2]).toMatchObject({ rate: '125', date: '2024-04-15' });
  });

  it('solidtime: start and end date-times; an entry past midnight keeps its duration only', () => {
    const { rows } = parseExport(fixture('solidtime'));
    expect(rows[0]).toMatchObject({ date: '2024-05-06', startTime: '09:00', endTime: '10:30', seconds: 5400, rate: null });
    expect(rows[1]).toMatchObject({ date: '2024-05-07', startTime: null, endTime: null, seconds: 3600, billable: false });
  });

  it("Kimai: ';' as separator, activity as task, Hourly price as rate, an empty Billable as not billable", () => {
    const { rows } = parseExport(fixture('kimai'));
    expect(rows[0]).toMatchObject({ client: 'Woodgrove', task: 'Support', seconds: 14400, rate: '85', currency: 'EUR', person: { email: 'ada.known@import.test' } });
    expect(rows[2]).toMatchObject({ billable: false, rate: null });
  });

  it('Kimai in German: the same rows as the English export, decimal commas read, a number that could be either refused', () => {
    expect(parseExport(fixture('kimai-de'))).toEqual(parseExport(fixture('kimai')));
    const ambiguous = fixture('kimai-de').toString().replace(';90,00;', ';1.500;');
    expect(refusal(() => parseExport(ambiguous)).message).toMatch(/^Line 3: Preis pro Stunde '1.500' could be a thousands or a decimal separator/);
  });
});

describe('field readers', () => {
  it('reads decimals with either separator', () => {
    expect(decimalText('2.000,0', 'x')).toBe('2000');
    expect(decimalText('1,234.50', 'x')).toBe('1234.5');
    expect(decimalText('0,01', 'x')).toBe('0.01');
    expect(decimalText('1,234', 'x')).toBe('1234');
    expect(() => decimalText('12a', 'x')).toThrow(/not a number/);
    expect(['1,5', '0,500', '85.00', '1.234,50'].map((t) => eitherSeparatorDecimal(t, 'x'))).toEqual(['1.5', '0.5', '85', '1234.5']);
    expect(() => eitherSeparatorDecimal('1,500', 'x')).toThrow(/could be a thousands or a decimal separator/);
  });
  it('reads times in 12 and 24 hours', () => {
    expect(timeText('12:05 AM', 't').hhmm).toBe('00:05');
    expect(timeText('12:05:09 pm', 't').hhmm).toBe('12:05');
    expect(timeText('23:59', 't').seconds).toBe(86340);
    expect(() => timeText('24:00', 't')).toThrow(/not a time/);
    expect(() => timeText('13:00 PM', 't')).toThrow(/not a time/);
  });
});

describe('files that cannot be imported', () => {
  it('names line 1 for an unknown header, and the missing columns for the wrong --format', () => {
    const unknown = refusal(() => parseExport('Name,Value\nx,1\n'));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.message).toMatch(/^Line 1: the header is not that of a known export/);
    const wrong = refusal(() => parseExport(fixture('harvest'), { tracker: 'toggl' }));
    expect(wrong.message).toMatch(/^Line 1: this is not a Toggl Track export: the header lacks User or Member, Email, Start date, Start time, Duration/);
  });

  it('a Toggl export without its Billable column: refused once, for the header, not on every row', () => {
    const [header, ...rows] = fixture('toggl').toString().split('\n');
    const columns = header.split(',');
    const at = columns.indexOf('Billable');
    // Drop the Billable field of each record (the multi-line notes of line 4 hold no comma after it).
    const drop = (line: string) => line.replace(/,(Yes|No),(\d{4}-\d{2}-\d{2}),/, ',$2,');
    const text = [columns.filter((_, i) => i !== at).join(','), ...rows.map(drop)].join('\n');
    expect(text).not.toMatch(/,(Yes|No),\d{4}/);
    const err = refusal(() => parseExport(text));
    expect(err.message).toBe('Line 1: the header of this Toggl Track export lacks Billable, which every row needs: export the report again with all its columns.');
    expect(err.extras).toEqual({
      field: 'file',
      problem: 'header_lacks',
      values: { tracker: 'Toggl Track', missing: 'Billable' },
      problems: [{ line: 1, message: 'missing Billable', problem: 'missing_columns', values: { missing: 'Billable' } }],
    });
  });

  it('lists every bad line and why', () => {
    const text = fixture('clockify').toString().split('\n');
    text[1] = text[1].replace('"03/04/2024"', '"13/45/2024"');
    text[2] = text[2].replace('"Yes"', '"Perhaps"');
    const err = refusal(() => parseExport(text.join('\n')));
    expect(err.message).toBe("Line 2: Start Date '13/45/2024' is not a date. (and 1 more line; nothing was imported)");
    expect(err.extras).toMatchObject({
      field: 'file',
      problems: [
        { line: 2, message: "Start Date '13/45/2024' is not a date." },
        { line: 3, message: "Billable must be Yes or No, not 'Perhaps'." },
      ],
    });
  });

  it('refuses an entry longer than a day, one that ends before it starts, empty files and non-UTF-8 bytes', () => {
    expect(refusal(() => parseExport(fixture('harvest').toString().replace('"3,0"', '"25,0"'))).message).toMatch(/^Line 4: Hours '25' must be between 0 and 24 hours/);
    // Without a duration of its own (a row that has one keeps it: 'a clock change' below).
    const endsEarly = fixture('solidtime').toString().replace('2024-05-06 10:30:00,01:30:00,1.5', '2024-05-06 08:30:00,,');
    expect(refusal(() => parseExport(endsEarly)).message).toMatch(/^Line 2: The entry ends before it starts/);
    expect(refusal(() => parseExport('')).message).toMatch(/empty/);
    expect(refusal(() => parseExport(Buffer.from([0x55, 0x73, 0x65, 0x72, 0xff, 0xfe, 0x0a]))).message).toMatch(/not UTF-8/);
  });

  it('refuses a person it cannot map: no e-mail and no member of that name', () => {
    const { rows } = parseExport(fixture('harvest'));
    const err = refusal(() => planImport('harvest', rows, nobody));
    expect(err.message).toMatch(/^Line 2: no member is called 'Ada Known' and the file has no e-mail to invite them/);
    const known = planImport('harvest', rows, { ...nobody, members: [{ user_id: 'u1', email: 'a@x.test', name: 'Ada Known', is_active: true }] });
    expect(known.people).toMatchObject([{ status: 'member', user_id: 'u1' }]);
  });
});

describe('the order of day and month', () => {
  const [header, ...lines] = fixture('clockify').toString().trim().split('\n');
  // The fixture's rows with their dates as another export writes them (both Start Date and End Date).
  const dated = (...dates: string[]) => [header, ...dates.map((d, i) => lines[i % lines.length].replaceAll(/"\d\d\/\d\d\/2024"/g, `"${d}"`))].join('\n');

  it('reads a file day first when one of its dates says so (31/03), and every other date of it the same way', () => {
    const parsed = parseExport(dated('04/03/2024', '31/03/2024', '12/03/2024'));
    expect(parsed.rows.map((r) => r.date)).toEqual(['2024-03-04', '2024-03-31', '2024-03-12']);
    expect(parsed.warnings).toEqual([]);
    // Dashes as Clockify's DD-MM-YYYY writes them.
    expect(parseExport(dated('04-03-2024', '31-03-2024')).rows.map((r) => r.date)).toEqual(['2024-03-04', '2024-03-31']);
  });

  it('reads it month first when one of its dates says so (03/31), and warns when none tells', () => {
    const told = parseExport(dated('04/03/2024', '03/31/2024'));
    expect(told.rows.map((r) => r.date)).toEqual(['2024-04-03', '2024-03-31']);
    expect(told.warnings).toEqual([]);
    const either = parseExport(dated('04/03/2024', '05/03/2024'));
    expect(either.rows.map((r) => r.date)).toEqual(['2024-04-03', '2024-05-03']);
    expect(either.warnings).toEqual([
      {
        line: 2,
        problem: 'dates_read_month_first',
        values: { column: 'Start Date', value: '04/03/2024', read_as: '2024-04-03' },
        message:
          "Start Date '04/03/2024' and the file's other dates read either way: they were read month first (2024-04-03); if the file writes the day first, import it with the date order day first.",
      },
    ]);
  });

  it('takes the order the importer chose, without a warning, and refuses the dates that contradict it', () => {
    const chosen = parseExport(dated('04/03/2024', '05/03/2024'), { dates: 'day_first' });
    expect(chosen.rows.map((r) => r.date)).toEqual(['2024-03-04', '2024-03-05']);
    expect(chosen.warnings).toEqual([]);
    expect(refusal(() => parseExport(dated('04/03/2024', '03/31/2024'), { dates: 'day_first' })).message).toMatch(/^Line 3: Start Date '03\/31\/2024' is not a date/);
  });

  it('refuses a file that writes both orders, and is not swayed by a note that is a date', () => {
    expect(refusal(() => parseExport(dated('31/03/2024', '03/31/2024'))).message).toMatch(/^Line 2: Start Date '31\/03\/2024' is not a date/);
    const note = dated('04/03/2024').replace('"Login screen"', '"31/12/2024"');
    expect(parseExport(note).rows[0]).toMatchObject({ date: '2024-04-03', notes: '31/12/2024' });
  });
});

describe('a clock change', () => {
  const clockifyHeader = fixture('clockify').toString().split('\n')[0];
  const clockifyRow = (start: string, end: string, h: string, decimal: string) =>
    `"Mobile app","Contoso","Night shift","Development","Ada Known","","ada.known@import.test","","Yes","${start}","${end}","${h}","${decimal}","80.00","80.00"`;

  it("Clockify: the Duration columns, not end minus start, on the night the clocks go forward (US, 2024-03-10)", () => {
    const row = clockifyRow('03/10/2024","01:30:00 AM","03/10/2024', '03:30:00 AM', '01:00:00', '1.00');
    expect(parseExport([clockifyHeader, row].join('\n')).rows[0]).toMatchObject({ date: '2024-03-10', startTime: '01:30', endTime: '03:30', seconds: 3600 });
    // Duration (h) when the file has no Duration (decimal).
    const noDecimal = [clockifyHeader.replace(',"Duration (decimal)"', ''), row.replace(',"1.00"', '')].join('\n');
    expect(parseExport(noDecimal).rows[0]).toMatchObject({ seconds: 3600, startTime: '01:30' });
    // An ordinary row keeps its exact span (2,897 s), which Duration (decimal) 0.80 only rounds.
    const ordinary = clockifyRow('03/11/2024","09:13:27 AM","03/11/2024', '10:01:44 AM', '00:48:17', '0.80');
    expect(parseExport([clockifyHeader, ordinary].join('\n')).rows[0].seconds).toBe(2897);
  });

  it('Toggl, Clockify, solidtime: an entry across the clocks going back keeps its duration and drops its times', () => {
    const togglHeader = fixture('toggl').toString().split('\n')[0];
    const toggl = 'Ada Known,ada.known@import.test,Northwind,Website relaunch,Design,Night,Yes,2024-10-27,02:50:00,2024-10-27,02:10:00,00:20:00,,';
    expect(togglHeader.split(',').length).toBe(toggl.split(',').length);
    expect(parseExport([togglHeader, toggl].join('\n')).rows[0]).toMatchObject({ date: '2024-10-27', startTime: null, endTime: null, seconds: 1200 });

    const clockify = clockifyRow('10/27/2024","02:50:00 AM","10/27/2024', '02:10:00 AM', '00:20:00', '0.33');
    expect(parseExport([clockifyHeader, clockify].join('\n')).rows[0]).toMatchObject({ date: '2024-10-27', startTime: null, endTime: null, seconds: 1188 });

    const solidHeader = fixture('solidtime').toString().split('\n')[0];
    const solid = 'Night,,Platform,Tailspin,Ada Known,2024-10-27 02:50:00,2024-10-27 02:10:00,0:20:00,0.3333333333333333,Yes,';
    expect(parseExport([solidHeader, solid].join('\n')).rows[0]).toMatchObject({ date: '2024-10-27', startTime: null, endTime: null, seconds: 1200 });
    // solidtime's Duration (decimal) when Duration is empty.
    expect(parseExport([solidHeader, solid.replace(',0:20:00,', ',,')].join('\n')).rows[0].seconds).toBe(1200);

    // Without a positive duration of its own, an end before the start is still refused.
    expect(refusal(() => parseExport([togglHeader, toggl.replace('00:20:00', '00:00:00')].join('\n'))).message).toMatch(/^Line 2: The entry ends before it starts/);
    const noDuration = [clockifyHeader, clockifyRow('10/27/2024","02:50:00 AM","10/27/2024', '02:10:00 AM', '', '')].join('\n');
    expect(refusal(() => parseExport(noDuration)).extras).toMatchObject({ problem: 'lines_at_fault', problems: [{ line: 2, problem: 'ends_before_start' }] });
  });
});

describe('Clockify: a billable row billed at 0.00', () => {
  it('is imported not billable, so no rate of the same person prices it, and keeps the identity earlier imports gave it', () => {
    const [header, rated] = fixture('clockify').toString().split('\n');
    const free = rated.replace('"Login screen"', '"Goodwill fix"').replace('"80.00","160.00"', '"0.00","0.00"');
    const { rows } = parseExport([header, rated, free].join('\n'));
    expect(rows[0]).toMatchObject({ billable: true, rate: '80' });
    expect(rows[1]).toMatchObject({ billable: false, rate: null, seconds: 7200 });
    const plan = planImport('clockify', rows, nobody);
    expect(plan.rates.map((r) => [r.effective_from, r.hourly_rate])).toEqual([['2024-03-04', '80']]);
    expect(plan.rows.map((r) => r.row.billable)).toEqual([true, false]);
    // The hash of the file's own Billable (Yes), as before this row became not billable.
    expect(rowRef('clockify', rows[1])).toBe(rowRef('clockify', { ...rows[1], billable: true, fileBillable: undefined }));
    // A rate of 0.00 with an amount is not billed at 0 (it cannot happen; the row stays as it was).
    const odd = free.replace('"0.00","0.00"', '"0.00","5.00"');
    expect(parseExport([header, odd].join('\n')).rows[0]).toMatchObject({ billable: true, rate: null });
  });
});

describe('matching names', () => {
  it('matches people, clients, projects and tasks after NFC and with inner whitespace collapsed', () => {
    const nfc = 'Zo\u00eb \u00c5ngstr\u00f6m';
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    // solidtime's export has no e-mail: people are matched by name.
    const header = fixture('solidtime').toString().split('\n')[0];
    const row = (user: string, client: string) => `Work,,Platform,"${client}",${user},2024-05-06 09:00:00,2024-05-06 10:00:00,1:00:00,1,Yes,`;
    const { rows } = parseExport([header, row('Zo\u00eb  \u00c5ngstr\u00f6m', 'Caf\u00e9  Zucker, GmbH'), row(nfd, 'caf\u00e9 zucker,\tGmbH')].join('\n'));
    expect(rows.map((r) => r.person.name)).toEqual(['Zo\u00eb  \u00c5ngstr\u00f6m', nfd]);
    const existing: Existing = {
      ...nobody,
      members: [{ user_id: 'u1', email: 'zoe@x.test', name: nfc, is_active: true }],
      clients: [{ id: 'c1', name: 'Caf\u00e9 Zucker, GmbH', currency: null }],
    };
    const plan = planImport('harvest', rows, existing);
    expect(plan.people).toMatchObject([{ status: 'member', user_id: 'u1', rows: 2 }]);
    expect(plan.clients).toMatchObject([{ status: 'existing', id: 'c1', name: 'Caf\u00e9 Zucker, GmbH', rows: 2 }]);
    expect(keyOf(' Caf\u00e9\u00a0 Zucker ')).toBe(keyOf('caf\u0065\u0301 zucker'));
  });
});
