import { isIsoDate } from '../time/workspace-time.ts';
import { getWorkspace } from '../modules/workspace/settings/index.ts';
import { operatorPrincipal } from '../access/operator.ts';
import { listInvoices, transitionInvoice, type InvoiceTransition, type PresentedInvoice } from '../modules/billing/invoices/index.ts';
import type { AdminCommand } from './admin.ts';
import { str } from './command.ts';
import { fields, print, table, UsageError, withMoney } from './output.ts';
import { required, workspaceOption } from './options.ts';

/**
 * `sheaf admin invoice list|mark-paid|close|void`: the invoice states the API
 * cannot reach (payments are not recorded through it). They call the invoice
 * service as the operator (src/access/operator.ts).
 */

/** The human view of an invoice: its amounts in its currency's minor units (--json keeps the API's numbers). */
const summary = (i: PresentedInvoice) => withMoney({
  id: i.id,
  number: i.number,
  state: i.state,
  client: i.client.name,
  issue_date: i.issue_date,
  due_date: i.due_date,
  currency: i.currency,
  amount: i.amount,
  due_amount: i.due_amount,
}, i.currency, ['amount', 'due_amount']);

const requireWorkspace = (db: Parameters<typeof getWorkspace>[0], id: string) => getWorkspace(db, id);

const transition = (name: InvoiceTransition, description: string, withDate: boolean): AdminCommand<{ id: string; invoice: string; date?: string }> => ({
  name: `admin invoice ${name}`,
  usage: `--workspace ID --invoice ID|NUMBER${withDate ? ' [--date YYYY-MM-DD]' : ''}`,
  summary: description,
  options: { workspace: str, invoice: str, ...(withDate ? { date: str } : {}) },
  parse(values) {
    const date = values.date;
    if (date !== undefined && !isIsoDate(date)) throw new UsageError(`--date must be a date YYYY-MM-DD, not '${date}'.`);
    return { id: workspaceOption(values), invoice: required(values, 'invoice'), date };
  },
  async run({ db, output, clock }, input) {
    await requireWorkspace(db, input.id);
    const invoice = await transitionInvoice(db, operatorPrincipal(input.id), input.invoice, name, { now: clock(), paidDate: input.date });
    print(output, invoice, () => fields(summary(invoice)));
  },
});

export const invoiceCommands: Record<string, AdminCommand<any>> = {
  list: {
    name: 'admin invoice list',
    usage: '--workspace ID',
    summary: "list a workspace's invoices with state and amounts",
    options: { workspace: str },
    parse: (values) => ({ id: workspaceOption(values) }),
    async run({ db, output }, input: { id: string }) {
      await requireWorkspace(db, input.id);
      const { invoices } = await listInvoices(db, operatorPrincipal(input.id), {}, { page: 1, perPage: 2000 });
      print(output, invoices, () => table(invoices.map(summary), ['id', 'number', 'state', 'client', 'issue_date', 'due_date', 'currency', 'amount', 'due_amount']));
    },
  },
  markPaid: transition('mark-paid', 'record full payment of an open invoice (state paid)', true),
  close: transition('close', 'close an open invoice without full payment (state closed)', false),
  void: transition('void', 'void an open invoice (state voided; its time stays billed)', false),
};
