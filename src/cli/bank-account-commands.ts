import { operatorPrincipal } from '../access/operator.ts';
import { isId } from '../ids.ts';
import {
  createBankAccount,
  deleteBankAccount,
  listBankAccounts,
  presentBankAccount,
  updateBankAccount,
  type BankAccountInput,
  type PresentedBankAccount,
} from '../modules/billing/bank-accounts/index.ts';
import type { AdminCommand } from './admin.ts';
import { str, type Options, type Values } from './command.ts';
import { fields, print, table, UsageError } from './output.ts';
import { bool, required, workspaceOption } from './options.ts';
import { requireWorkspace } from './lookups.ts';

/**
 * `sheaf admin bank-account add|list|update|default|remove`: the operator's
 * commands for the bank accounts invoices print. They call the same service as the
 * web app, as the operator (src/access/operator.ts), so the same rules apply; an
 * option is named like the field it sets (`--bank-name` is bank_name), so the
 * service's refusals name the option the user typed (exit code 2, nothing written).
 */

/** Empty, `none` or `-` clears a value. */
const isClear = (v: string) => v === '' || v === 'none' || v === '-';

const DETAIL_OPTIONS = {
  workspace: str,
  currency: str,
  holder: str,
  iban: str,
  bic: str,
  'bank-name': str,
  'local-account': str,
  'is-default': str,
} satisfies Options;

const DETAILS_USAGE = '[--iban IBAN] [--bic BIC] [--bank-name N] [--local-account TEXT] [--is-default B]';
const COLUMNS = ['id', 'currency', 'is_default', 'holder', 'iban', 'bic', 'bank_name', 'local_account'];

function detailsFrom(values: Values): BankAccountInput {
  const input: BankAccountInput = {};
  if (values.currency !== undefined) input.currency = values.currency;
  if (values.holder !== undefined) input.holder = values.holder;
  const nullable = [
    ['iban', 'iban'],
    ['bic', 'bic'],
    ['bank-name', 'bank_name'],
    ['local-account', 'local_account'],
  ] as const;
  for (const [option, field] of nullable) {
    const v = values[option];
    if (v !== undefined) input[field] = isClear(v) ? null : v.replaceAll('\\n', '\n');
  }
  const isDefault = bool(values, 'is-default');
  if (isDefault !== undefined) input.is_default = isDefault;
  return input;
}

function accountOption(values: Values): string {
  const ref = required(values, 'account');
  if (!isId(ref)) throw new UsageError(`--account must be a bank account id (see "sheaf admin bank-account list"), not '${ref}'.`);
  return ref;
}

const show = (account: PresentedBankAccount) => fields(account);

const admin = <T>(c: AdminCommand<T>) => c;

const commands = [
  admin({
    name: 'admin bank-account add',
    usage: `--workspace ID --currency CODE --holder NAME ${DETAILS_USAGE}`,
    summary: 'add a bank account invoices print (an IBAN or a local account; the first of a currency becomes its default)',
    options: DETAIL_OPTIONS,
    parse: (values) => {
      const id = workspaceOption(values);
      required(values, 'currency');
      required(values, 'holder');
      return { id, input: detailsFrom(values) };
    },
    async run({ db, output, clock }, { id, input }) {
      await requireWorkspace(db, id);
      const account = presentBankAccount(await createBankAccount(db, operatorPrincipal(id), input, clock()));
      print(output, account, () => show(account));
    },
  }),
  admin({
    name: 'admin bank-account list',
    usage: '--workspace ID',
    summary: "list the workspace's bank accounts, by currency, the default first",
    options: { workspace: str },
    parse: (values) => workspaceOption(values),
    async run({ db, output }, id) {
      await requireWorkspace(db, id);
      const accounts = (await listBankAccounts(db, operatorPrincipal(id))).map(presentBankAccount);
      print(output, accounts, () => table(accounts, COLUMNS));
    },
  }),
  admin({
    name: 'admin bank-account update',
    usage: `--workspace ID --account ID [--currency CODE] [--holder NAME] [--iban IBAN|none] [--bic BIC|none] [--bank-name N|none] [--local-account TEXT|none] [--is-default B]`,
    summary: 'change a bank account (none clears a detail; an IBAN or a local account must remain)',
    options: { ...DETAIL_OPTIONS, account: str },
    parse: (values) => {
      const id = workspaceOption(values);
      const account = accountOption(values);
      const input = detailsFrom(values);
      if (Object.keys(input).length === 0) throw new UsageError('Name at least one thing to change.');
      return { id, account, input };
    },
    async run({ db, output, clock }, { id, account, input }) {
      await requireWorkspace(db, id);
      const view = presentBankAccount(await updateBankAccount(db, operatorPrincipal(id), account, input, clock()));
      print(output, view, () => show(view));
    },
  }),
  admin({
    name: 'admin bank-account default',
    usage: '--workspace ID --account ID',
    summary: 'make a bank account the one invoices in its currency print',
    options: { workspace: str, account: str },
    parse: (values) => ({ id: workspaceOption(values), account: accountOption(values) }),
    async run({ db, output, clock }, { id, account }) {
      await requireWorkspace(db, id);
      const view = presentBankAccount(await updateBankAccount(db, operatorPrincipal(id), account, { is_default: true }, clock()));
      print(output, view, () => `${view.holder} (${view.currency}) is now the default for ${view.currency} invoices.`);
    },
  }),
  admin({
    name: 'admin bank-account remove',
    usage: '--workspace ID --account ID',
    summary: 'delete a bank account (a default is replaced by the oldest other account of its currency)',
    options: { workspace: str, account: str },
    parse: (values) => ({ id: workspaceOption(values), account: accountOption(values) }),
    async run({ db, output, clock }, { id, account }) {
      await requireWorkspace(db, id);
      const view = presentBankAccount(await deleteBankAccount(db, operatorPrincipal(id), account, clock()));
      print(output, { deleted: view }, () => `Deleted the ${view.currency} account of ${view.holder} (${view.id}).`);
    },
  }),
];

/** The bank-account commands by name, for the command table of src/cli/main.ts. */
export const bankAccountCommands: Record<string, AdminCommand<any>> = Object.fromEntries(commands.map((c) => [c.name, c]));
