import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { str } from '../command.ts';
import { UsageError } from '../output.ts';
import type { ClientCommand } from './command.ts';
import { dateOn, parseDate } from './dates.ts';
import { refuseJsonOnStdout, writeDownload } from './files.ts';
import { grid, money, show, terminalWidth } from './format.ts';
import { findClient, findProject } from './lookups.ts';

/**
 * `sheaf invoice create|send|pdf`: a draft invoice from a client's uninvoiced
 * work (POST /api/v2/invoices with line_items_import), sending it by e-mail
 * (POST …/messages, which makes it open), and its PDF written to a file.
 */

const TIME_SUMMARY = ['project', 'task', 'people', 'detailed', 'none'];
const EXPENSE_SUMMARY = ['project', 'category', 'people', 'detailed', 'none'];
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface CreateInput {
  client: string;
  projects: string[];
  from?: string;
  to?: string;
  time: string;
  expenses: string;
  subject?: string;
  issueDate?: string;
  dueDate?: string;
  paymentTerm?: string;
  number?: string;
  notes?: string;
}

function invoiceTable(invoice: any, width: number | undefined) {
  const lines = grid(
    invoice.line_items ?? [],
    [
      { title: 'kind', value: (l: any) => l.kind },
      { title: 'description', value: (l: any) => l.description, shrink: true },
      { title: 'quantity', value: (l: any) => l.quantity, align: 'right' },
      { title: 'unit price', value: (l: any) => money(l.unit_price, invoice.currency), align: 'right' },
      { title: 'amount', value: (l: any) => `${l.effect === 'credit' ? '-' : ''}${money(l.amount, invoice.currency)}`, align: 'right' },
    ],
    width,
  );
  return [
    `Invoice ${invoice.number} (${invoice.state}) for ${invoice.client?.name ?? invoice.client_id}: ${money(invoice.amount, invoice.currency)} ${invoice.currency}, due ${invoice.due_date} (id ${invoice.id})`,
    '',
    lines,
  ].join('\n');
}

const create: ClientCommand<CreateInput> = {
  name: 'invoice create',
  usage:
    '--client ID|NAME [--project P[,P…]] [--from D] [--to D] [--time project|task|people|detailed|none] [--expenses project|category|people|detailed|none] [--subject S] [--number N] [--issue-date D] [--due-date D] [--payment-term T] [--notes TEXT]',
  summary: "a draft invoice of the client's uninvoiced billable time (by project) and expenses (by category), optionally only from..to; the work becomes billed",
  options: {
    client: str,
    project: str,
    from: str,
    to: str,
    time: str,
    expenses: str,
    subject: str,
    number: str,
    'issue-date': str,
    'due-date': str,
    'payment-term': str,
    notes: str,
  },
  parse(v) {
    if (!v.client) throw new UsageError('--client is required (an id or a name).');
    const time = v.time ?? 'project';
    const expenses = v.expenses ?? 'category';
    if (!TIME_SUMMARY.includes(time)) throw new UsageError(`--time must be one of ${TIME_SUMMARY.join(', ')}, not '${time}'.`);
    if (!EXPENSE_SUMMARY.includes(expenses)) throw new UsageError(`--expenses must be one of ${EXPENSE_SUMMARY.join(', ')}, not '${expenses}'.`);
    if (time === 'none' && expenses === 'none') throw new UsageError('--time none and --expenses none leave nothing to invoice.');
    return {
      client: v.client,
      projects: v.project ? v.project.split(',').map((p) => p.trim()).filter(Boolean) : [],
      from: parseDate(v.from, '--from'),
      to: parseDate(v.to, '--to'),
      time,
      expenses,
      subject: v.subject,
      number: v.number,
      issueDate: parseDate(v['issue-date'], '--issue-date'),
      dueDate: parseDate(v['due-date'], '--due-date'),
      paymentTerm: v['payment-term'],
      notes: v.notes,
    };
  },
  async run({ api, output, calendar }, input) {
    const [from, to, issueDate, dueDate] = await Promise.all([input.from, input.to, input.issueDate, input.dueDate].map((d) => dateOn(d, calendar)));
    const client = await api();
    const owner = await findClient(client, input.client);
    const projects = await Promise.all(input.projects.map((p) => findProject(client, p)));
    const range = { ...(from ? { from } : {}), ...(to ? { to } : {}) };
    const body = {
      client_id: owner.id,
      line_items_import: {
        ...(projects.length ? { project_ids: projects.map((p) => p.id) } : {}),
        ...(input.time !== 'none' ? { time: { summary_type: input.time, ...range } } : {}),
        ...(input.expenses !== 'none' ? { expenses: { summary_type: input.expenses, ...range } } : {}),
      },
      ...(input.subject !== undefined ? { subject: input.subject } : {}),
      ...(input.number !== undefined ? { number: input.number } : {}),
      ...(issueDate ? { issue_date: issueDate } : {}),
      ...(dueDate ? { due_date: dueDate } : {}),
      ...(input.paymentTerm ? { payment_term: input.paymentTerm } : {}),
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
    };
    const invoice = await client.json('POST', '/api/v2/invoices', { json: body });
    show(output, invoice, () => `Created a draft. ${invoiceTable(invoice, terminalWidth(output))}\n\nSend it with: sheaf invoice send ${invoice.id} --to EMAIL`);
  },
};

const EMAIL = /^[^\s@,]+@[^\s@,]+$/;
const emails = (value: string | undefined, option: string) =>
  (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
    .map((email) => {
      if (!EMAIL.test(email)) throw new UsageError(`${option}: '${email}' is not an e-mail address.`);
      return { email };
    });

function invoiceId(value: string | undefined): string {
  if (!value) throw new UsageError('Name the invoice by its id (see "sheaf invoice create" or the web app).');
  if (!ID.test(value)) throw new UsageError(`The invoice must be given by its id (a UUID), not '${value}'.`);
  return value;
}

const send: ClientCommand<{ id: string; to: Array<{ email: string }>; cc: Array<{ email: string }>; subject?: string; body?: string; pdf: boolean; copy: boolean; event: string }> = {
  name: 'invoice send',
  usage: 'INVOICE_ID --to EMAIL[,EMAIL…] [--cc EMAIL[,…]] [--subject S] [--body TEXT] [--no-pdf] [--copy-me] [--reminder]',
  summary: 'e-mail the invoice (a draft becomes open); --reminder chases an unpaid one; the PDF is attached unless --no-pdf',
  options: { to: str, cc: str, subject: str, body: str, 'no-pdf': { type: 'boolean' }, 'copy-me': { type: 'boolean' }, reminder: { type: 'boolean' } },
  positionals: ['id'],
  parse(v) {
    const to = emails(v.to, '--to');
    if (!to.length) throw new UsageError('--to is required: the recipients\' e-mail addresses, separated by commas.');
    return {
      id: invoiceId(v.id),
      to,
      cc: emails(v.cc, '--cc'),
      subject: v.subject,
      body: v.body,
      pdf: !v['no-pdf'],
      copy: Boolean(v['copy-me']),
      event: v.reminder ? 'reminder' : 'send',
    };
  },
  async run({ api, output }, input) {
    const client = await api();
    const message = await client.json('POST', `/api/v2/invoices/${input.id}/messages`, {
      json: {
        event_type: input.event,
        recipients: input.to,
        ...(input.cc.length ? { cc_recipients: input.cc } : {}),
        ...(input.subject !== undefined ? { subject: input.subject } : {}),
        ...(input.body !== undefined ? { body: input.body } : {}),
        attach_pdf: input.pdf,
        ...(input.copy ? { send_me_a_copy: true } : {}),
      },
    });
    show(output, message, () => `${input.event === 'reminder' ? 'Reminder' : 'Invoice'} queued for ${input.to.map((r) => r.email).join(', ')} (message ${message.id ?? '-'}).`);
  },
};

const pdf: ClientCommand<{ id: string; out?: string }> = {
  name: 'invoice pdf',
  usage: 'INVOICE_ID [--out FILE|-]',
  summary: "write the invoice's PDF to FILE (default: the server's file name in this directory; - for stdout)",
  options: { out: str },
  positionals: ['id'],
  parse: (v) => ({ id: invoiceId(v.id), out: v.out }),
  async run({ api, output, stdout }, input) {
    refuseJsonOnStdout(output, input.out === '-', 'the PDF');
    const client = await api();
    const res = await client.send('GET', `/api/v2/invoices/${input.id}/pdf`, { accept: 'application/pdf' });
    const named = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1]?.replace(/[/\\]/g, '_');
    const out = input.out ?? named ?? `invoice-${input.id}.pdf`;
    if (out === '-') {
      await pipeline(Readable.fromWeb(res.body as never), stdout, { end: false });
      return;
    }
    const written = await writeDownload(Readable.fromWeb(res.body as never), out, '--out');
    const bytes = Number(res.headers.get('content-length')) || written || undefined;
    show(output, { file: out, bytes: bytes ?? null, content_type: res.headers.get('content-type') }, () => `Wrote ${out}${bytes ? ` (${bytes} bytes)` : ''}.`);
  },
};

export const invoiceCommands: ClientCommand<any>[] = [create, send, pdf];
