import { operatorPrincipal } from '../access/operator.ts';
import { isId } from '../ids.ts';
import { getRetainer, listRetainers, type PresentedRetainer } from '../modules/billing/retainers/index.ts';
import type { AdminCommand } from './admin.ts';
import { str } from './command.ts';
import { fields, print, table, UsageError, withMoney } from './output.ts';
import { bool, required, workspaceOption } from './options.ts';
import { requireWorkspace } from './lookups.ts';

/**
 * `sheaf admin retainer list|show`: the operator's view of the retainers (a client's
 * prepaid funds) and their balances, read through the same service as the web app,
 * as the operator. Funding and drawing are done in the web app (they create and
 * change invoices); the operator's invoice commands (mark-paid, void) move the
 * balance as they do there.
 */

const COLUMNS = ['id', 'client', 'name', 'currency', 'balance', 'pending', 'archived'];

const row = (r: PresentedRetainer) =>
  withMoney({ id: r.id, client: r.client.name, name: r.name, currency: r.currency, balance: r.balance, pending: r.pending, archived: r.archived_at !== null }, r.currency, ['balance', 'pending']);

const admin = <T>(c: AdminCommand<T>) => c;

const commands = [
  admin({
    name: 'admin retainer list',
    usage: '--workspace ID [--client ID] [--archived B]',
    summary: "list the workspace's retainers with their balances (funds of paid retainer invoices minus credits drawn)",
    options: { workspace: str, client: str, archived: str },
    parse: (values) => {
      const id = workspaceOption(values);
      const client = values.client;
      if (client !== undefined && !isId(client)) throw new UsageError(`--client must be a client id, not '${client}'.`);
      return { id, client, archived: bool(values, 'archived') };
    },
    async run({ db, output }, { id, client, archived }) {
      await requireWorkspace(db, id);
      const retainers = await listRetainers(db, operatorPrincipal(id), { clientId: client, archived });
      print(output, retainers, () => table(retainers.map(row), COLUMNS));
    },
  }),
  admin({
    name: 'admin retainer show',
    usage: '--workspace ID --retainer ID',
    summary: 'one retainer: its balance and its history (each funding and credit line, and whether it counts now)',
    options: { workspace: str, retainer: str },
    parse: (values) => {
      const id = workspaceOption(values);
      const ref = required(values, 'retainer');
      if (!isId(ref)) throw new UsageError(`--retainer must be a retainer id (see "sheaf admin retainer list"), not '${ref}'.`);
      return { id, retainer: ref };
    },
    async run({ db, output }, { id, retainer }) {
      await requireWorkspace(db, id);
      const r = await getRetainer(db, operatorPrincipal(id), retainer);
      print(output, r, () => {
        const entries = r.entries.map((e) =>
          withMoney({ invoice: e.invoice.number, date: e.invoice.issue_date, state: e.invoice.state, kind: e.kind, amount: e.amount, counts: e.counts }, r.currency, ['amount']),
        );
        return `${fields({ ...row(r), description: r.description })}\n\n${table(entries, ['invoice', 'date', 'state', 'kind', 'amount', 'counts'])}`;
      });
    },
  }),
];

/** The retainer commands by name, for the command table of src/cli/main.ts. */
export const retainerCommands: Record<string, AdminCommand<any>> = Object.fromEntries(commands.map((c) => [c.name, c]));
