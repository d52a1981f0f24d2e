import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { isAdministrator } from '../../api/access.ts';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Checkbox } from '../../ui/Checkbox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { NoticePage } from '../../ui/NoticePage.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { SettingsSection } from '../../ui/SettingsSection.tsx';
import { TextArea } from '../../ui/TextArea.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { bankAccountsQuery, useCreateBankAccount, useDeleteBankAccount, useUpdateBankAccount, type BankAccount } from './api.ts';
import { groupedIban } from './iban.ts';
import { useBankTexts } from './texts.ts';

const FIELDS = ['currency', 'holder', 'iban', 'bic', 'bank_name', 'local_account', 'is_default'] as const;

/**
 * Settings → Bank accounts: the accounts invoices print as payment details, one default
 * per currency. Owners and administrators (the server's rule: the account decides where
 * clients pay, like recording payments) add, edit, make default and delete them; anyone
 * else who types the address is told it is not for their role.
 */
export function BankAccountsPage() {
  const { workspace } = useWorkspaceSession();
  const t = useBankTexts();
  if (!isAdministrator(workspace)) {
    return (
      <NoticePage heading={t('heading')} title={t('notForRoleTitle')}>
        {t('notForRole')}
      </NoticePage>
    );
  }
  return <ManageAccounts />;
}

function ManageAccounts() {
  const accounts = useQuery(bankAccountsQuery);
  const t = useBankTexts();
  const [done, setDone] = useState<string | null>(null);
  const currencies = [...new Set((accounts.data ?? []).map((a) => a.currency))];
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div>
        <PageHeading>{t('heading')}</PageHeading>
        <p className="mt-2 text-sm text-stone-600">{t('intro')}</p>
      </div>
      {accounts.isError && <Alert>{describeError(accounts.error).message}</Alert>}
      {done && <Alert tone="success">{done}</Alert>}
      <SettingsSection id="section-accounts" title={t('accounts')}>
        <div className="mb-4">
          <AccountDialog onDone={setDone} />
        </div>
        {!accounts.data ? (
          <div className="h-24" aria-busy="true" />
        ) : currencies.length === 0 ? (
          <p className="text-sm text-stone-600">{t('none')}</p>
        ) : (
          <div className="flex flex-col gap-6">
            {currencies.map((currency) => (
              <CurrencyAccounts key={currency} currency={currency} accounts={accounts.data.filter((a) => a.currency === currency)} onDone={setDone} />
            ))}
          </div>
        )}
      </SettingsSection>
    </div>
  );
}

function CurrencyAccounts({ currency, accounts, onDone }: { currency: string; accounts: BankAccount[]; onDone: (message: string) => void }) {
  const t = useBankTexts();
  const update = useUpdateBankAccount();
  const headingId = `currency-${currency}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className="text-sm font-semibold text-stone-800">
        {currency}
      </h3>
      {!accounts.some((a) => a.is_default) && <p className="text-sm text-amber-800">{t('noDefault', { currency })}</p>}
      {update.error && <Alert>{describeError(update.error).message}</Alert>}
      <ul className="divide-y divide-stone-100 rounded-md border border-stone-200" aria-labelledby={headingId}>
        {accounts.map((a) => (
          <li key={a.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-start sm:justify-between">
            <AccountDetails account={a} />
            <div className="flex shrink-0 flex-wrap gap-2">
              {!a.is_default && (
                <Button
                  variant="secondary"
                  aria-label={t('makeDefaultNamed', { holder: a.holder, currency: a.currency })}
                  isPending={update.isPending && update.variables?.id === a.id}
                  onPress={() =>
                    update.mutate({ id: a.id, body: { is_default: true } }, { onSuccess: (saved) => onDone(t('madeDefault', { holder: saved.holder, currency: saved.currency })) })
                  }
                >
                  {t('makeDefault')}
                </Button>
              )}
              <AccountDialog account={a} onDone={onDone} />
              <DeleteDialog account={a} onDone={onDone} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function AccountDetails({ account: a }: { account: BankAccount }) {
  const t = useBankTexts();
  const rows: Array<[string, string, string?]> = [];
  if (a.iban) rows.push([t('labels.iban'), groupedIban(a.iban), 'font-mono tracking-tight']);
  if (a.bic) rows.push([t('labels.bic'), a.bic, 'font-mono']);
  if (a.bank_name) rows.push([t('labels.bank'), a.bank_name]);
  if (a.local_account) rows.push([t('labels.local'), a.local_account, 'whitespace-pre-line']);
  return (
    <div className="min-w-0 text-sm">
      <p className="flex flex-wrap items-center gap-2 font-medium break-words text-stone-900">
        {a.holder}
        {a.is_default && (
          <span className="rounded-full bg-teal-50 px-2 py-0.5 text-xs font-medium text-teal-800 ring-1 ring-teal-700/20">{t('defaultFor', { currency: a.currency })}</span>
        )}
      </p>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-stone-700">
        {rows.map(([label, value, style]) => (
          <div key={label} className="contents">
            <dt className="text-stone-500">{label}</dt>
            <dd className={`min-w-0 break-words ${style ?? ''}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** "Add bank account", or "Edit" on an account: one form for every detail. */
function AccountDialog({ account, onDone }: { account?: BankAccount; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const t = useBankTexts();
  const title = account ? t('editNamed', { holder: account.holder, currency: account.currency }) : t('newTitle');
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant={account ? 'secondary' : 'primary'} aria-label={account ? title : undefined}>
        {account ? t('edit') : t('add')}
      </Button>
      <Dialog title={title}>
        <AccountForm
          account={account}
          onSaved={(message) => {
            setOpen(false);
            onDone(message);
          }}
        />
      </Dialog>
    </DialogTrigger>
  );
}

const orNull = (v: string) => (v.trim() === '' ? null : v.trim());

function AccountForm({ account, onSaved }: { account?: BankAccount; onSaved: (message: string) => void }) {
  const { workspace } = useWorkspaceSession();
  const create = useCreateBankAccount();
  const update = useUpdateBankAccount();
  const keyFor = useIdempotencyKey();
  const t = useBankTexts();
  const [currency, setCurrency] = useState(account?.currency ?? workspace.currency);
  const [holder, setHolder] = useState(account?.holder ?? '');
  const [iban, setIban] = useState(account?.iban ? groupedIban(account.iban) : '');
  const [bic, setBic] = useState(account?.bic ?? '');
  const [bankName, setBankName] = useState(account?.bank_name ?? '');
  const [local, setLocal] = useState(account?.local_account ?? '');
  const [isDefault, setIsDefault] = useState(account?.is_default ?? false);
  const mutation = account ? update : create;
  // A refusal is about the values sent: once one changes, its message goes.
  const { reset } = mutation;
  useEffect(() => reset(), [currency, holder, iban, bic, bankName, local, isDefault, reset]);
  const { fieldErrors, summary } = formErrors(mutation.error, FIELDS);
  return (
    <Form
      validationErrors={fieldErrors}
      onSubmit={(event) => {
        event.preventDefault();
        if (mutation.isPending) return;
        const details = {
          currency: currency.trim().toUpperCase(),
          holder: holder.trim(),
          iban: orNull(iban),
          bic: orNull(bic),
          bank_name: orNull(bankName),
          local_account: orNull(local),
        };
        if (account) {
          update.mutate({ id: account.id, body: { ...details, is_default: isDefault } }, { onSuccess: (saved) => onSaved(t('saved', { holder: saved.holder })) });
        } else {
          // Unticked: the server's rule decides (the first account of a currency becomes its default).
          const body = { ...details, ...(isDefault ? { is_default: true } : {}) };
          create.mutate({ body, key: keyFor(body) }, { onSuccess: (saved) => onSaved(t('added', { holder: saved.holder })) });
        }
      }}
    >
      {summary && <Alert>{summary}</Alert>}
      <div className="grid gap-5 sm:grid-cols-[8rem_1fr]">
        <TextField name="currency" label={t('currency')} value={currency} onChange={setCurrency} isRequired maxLength={3} autoFocus={!account} />
        <TextField name="holder" label={t('holder')} description={t('holderHint')} value={holder} onChange={setHolder} isRequired maxLength={70} />
      </div>
      <TextField name="iban" label={t('iban')} description={t('ibanHint')} value={iban} onChange={setIban} maxLength={64} autoComplete="off" spellCheck="false" />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField name="bic" label={t('bic')} value={bic} onChange={setBic} maxLength={16} autoComplete="off" spellCheck="false" />
        <TextField name="bank_name" label={t('bankName')} value={bankName} onChange={setBankName} maxLength={140} />
      </div>
      <TextArea name="local_account" label={t('localAccount')} description={t('localAccountHint')} value={local} onChange={setLocal} maxLength={500} />
      <Checkbox isSelected={isDefault} onChange={setIsDefault}>
        {t('isDefault')}
      </Checkbox>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" slot="close">
          {t('cancel')}
        </Button>
        <Button type="submit" isPending={mutation.isPending}>
          {t('save')}
        </Button>
      </div>
    </Form>
  );
}

function DeleteDialog({ account: a, onDone }: { account: BankAccount; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteBankAccount();
  const t = useBankTexts();
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        remove.reset();
        setOpen(o);
      }}
    >
      <Button variant="danger" aria-label={t('deleteNamed', { holder: a.holder, currency: a.currency })}>
        {t('delete')}
      </Button>
      <Dialog title={t('deleteTitle')}>
        <div className="flex flex-col gap-4 text-sm">
          <AccountDetails account={a} />
          <p className="text-stone-800">{t('deleteText')}</p>
          {a.is_default && <p className="text-stone-800">{t('deleteDefaultText', { currency: a.currency })}</p>}
          {remove.error && <Alert>{describeError(remove.error).message}</Alert>}
          <Button
            variant="danger"
            isPending={remove.isPending}
            onPress={() =>
              remove.mutateAsync(a.id).then(
                () => {
                  setOpen(false);
                  onDone(t('deleted', { holder: a.holder }));
                },
                () => undefined, // shown in the dialog
              )
            }
          >
            {t('deleteConfirm')}
          </Button>
        </div>
      </Dialog>
    </DialogTrigger>
  );
}
