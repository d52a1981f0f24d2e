import { Type } from '@sinclair/typebox';
import { Enum } from '../../../http/schemas.ts';
import { IMPORT_PROBLEMS } from './problems.ts';
import { DATE_ORDERS, TRACKERS } from './row.ts';

/** The multipart form of both import routes, as its schema sees it (the file described; its bytes kept aside). */
export const ImportForm = Type.Object(
  {
    file: Type.Object(
      { file_name: Type.String(), byte_size: Type.Integer() },
      { additionalProperties: false, description: "The export: a CSV file of at most 10 MiB (Toggl Track's or Clockify's detailed report, Harvest's detailed time report, solidtime's or Kimai's time export)." },
    ),
    format: Type.Optional(Enum(['auto', ...TRACKERS], 'Which tracker made the file; auto (the default) detects it from the header.')),
    date_order: Type.Optional(
      Enum(
        ['auto', ...DATE_ORDERS],
        'How the file writes dates with day and month before the year (03/04/2026): month_first (4 March, Clockify\'s default) or day_first (3 April); auto (the default) tells it from the dates, month first when every one reads either way (with a warning).',
      ),
    ),
  },
  { additionalProperties: false },
);

const Line = Type.Integer({ minimum: 1, description: 'The line of the file (1 is the header).' });
/** What a warning or a skipped row is, as a word to translate, and the values it names (problems.ts). */
const Problem = Enum(IMPORT_PROBLEMS, 'What the message says, as a word to translate (README, Import).');
const Values = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), { description: 'The values the message names (a column, a cell, a count).' });
const Status = Enum(['existing', 'new'], 'existing: matched by name; new: the import creates it.');

export const ImportReportSchema = Type.Object(
  {
    tracker: Enum(TRACKERS),
    tracker_name: Type.String(),
    dry_run: Type.Boolean({ description: 'true for a preview: nothing was written.' }),
    rows: Type.Integer({ description: 'Entries in the file.' }),
    created: Type.Object(
      {
        clients: Type.Integer(),
        projects: Type.Integer(),
        tasks: Type.Integer(),
        people: Type.Integer({ description: 'Members added for people not in the workspace (matched by e-mail).' }),
        invitations: Type.Integer({ description: 'Of those, the ones sent an invitation link (their account cannot sign in yet).' }),
        rates: Type.Integer({ description: 'Effective-dated rates written (per project and person).' }),
        time_entries: Type.Integer(),
      },
      { additionalProperties: false, description: 'What the import creates (a preview: would create).' },
    ),
    skipped_count: Type.Integer(),
    skipped: Type.Array(Type.Object({ line: Line, reason: Type.String(), problem: Problem }, { additionalProperties: false }), {
      description: 'Rows not imported and why (imported before): the first 100.',
    }),
    warnings_count: Type.Integer({ description: 'How many warnings the import has; `warnings` lists the first 100.' }),
    warnings: Type.Array(Type.Object({ line: Line, message: Type.String(), problem: Problem, values: Type.Optional(Values) }, { additionalProperties: false })),
    people: Type.Array(
      Type.Object(
        {
          name: Type.Union([Type.String(), Type.Null()]),
          email: Type.Union([Type.String(), Type.Null()]),
          status: Enum(['member', 'invite'], 'member: matched by e-mail (or name); invite: added and invited.'),
          rows: Type.Integer(),
        },
        { additionalProperties: false },
      ),
    ),
    clients: Type.Array(Type.Object({ name: Type.String(), status: Status, rows: Type.Integer() }, { additionalProperties: false })),
    projects: Type.Array(
      Type.Object(
        { name: Type.String(), client: Type.String(), status: Status, bill_by: Type.Union([Type.String(), Type.Null()]), rows: Type.Integer() },
        { additionalProperties: false },
      ),
    ),
    tasks: Type.Array(Type.Object({ name: Type.String(), status: Status, rows: Type.Integer() }, { additionalProperties: false })),
    rates: Type.Array(
      Type.Object(
        {
          project: Type.String(),
          person: Type.String(),
          effective_from: Type.String({ format: 'date' }),
          hourly_rate: Type.String(),
          currency: Type.Union([Type.String(), Type.Null()]),
          status: Enum(['existing', 'new'], 'existing: this rate is in force from that date already (an earlier import, or set by hand) and is not written again; new: the import writes it (counted in created.rates).'),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
