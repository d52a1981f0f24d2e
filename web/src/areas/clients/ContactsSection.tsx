import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError, formErrors } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Form } from '../../ui/Form.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { contactsQuery, useCreateContact, type Client, type Contact, type ContactCreate } from './api.ts';
import { useClientTexts } from './texts.ts';

/** The contact fields the API takes (src/modules/catalog/contacts/routes.ts), in the form's order. */
const FIELDS = ['first_name', 'last_name', 'title', 'email', 'phone_office', 'phone_mobile', 'fax'] as const;
type Field = (typeof FIELDS)[number];

const fullName = (c: Contact) => [c.first_name, c.last_name].filter(Boolean).join(' ');

/** A client's contacts (the people invoices go to), and for those who may edit clients, adding one. */
export function ContactsSection({ client, writes }: { client: Client; writes: boolean }) {
  const t = useClientTexts();
  const { data, error } = useQuery(contactsQuery(client.id));
  return (
    <section aria-labelledby="contacts" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="contacts" className="text-lg font-semibold text-stone-900">
          {t('contacts.heading')}
        </h2>
        {writes && <AddContact client={client} />}
      </div>
      {error && !data && <Alert>{describeError(error).message}</Alert>}
      {!data && !error && (
        <div role="status" className="text-sm text-stone-600">
          {t('contacts.loading')}
        </div>
      )}
      {data &&
        (data.contacts.length === 0 ? (
          <p className="rounded-lg border border-dashed border-stone-300 bg-white p-6 text-center text-sm text-stone-700">
            {writes ? t('contacts.noneWrites') : t('contacts.none')}
          </p>
        ) : (
          <ul className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white shadow-xs">
            {data.contacts.map((c) => (
              <li key={c.id} className="flex flex-col gap-0.5 px-4 py-3 text-sm sm:flex-row sm:items-baseline sm:gap-4">
                <span className="font-medium text-stone-900 sm:w-48 sm:shrink-0">
                  {fullName(c)}
                  {c.title && <span className="block text-xs font-normal text-stone-600">{c.title}</span>}
                </span>
                <span className="flex min-w-0 flex-col gap-0.5 text-stone-700">
                  {c.email && <span className="break-all">{c.email}</span>}
                  {c.phone_office && <span>{t('contacts.office', { phone: c.phone_office })}</span>}
                  {c.phone_mobile && <span>{t('contacts.mobile', { phone: c.phone_mobile })}</span>}
                  {c.fax && <span>{t('contacts.fax', { phone: c.fax })}</span>}
                </span>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}

const EMPTY: Record<Field, string> = { first_name: '', last_name: '', title: '', email: '', phone_office: '', phone_mobile: '', fax: '' };

function AddContact({ client }: { client: Client }) {
  const t = useClientTexts();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState(EMPTY);
  const create = useCreateContact();
  const keyFor = useIdempotencyKey();
  const { reset } = create;
  useEffect(() => reset(), [values, reset]);
  const { fieldErrors, summary } = formErrors(create.error, FIELDS);

  const submit = () => {
    const body: ContactCreate = { client_id: client.id, first_name: values.first_name };
    for (const field of FIELDS) if (field !== 'first_name' && values[field].trim() !== '') body[field] = values[field].trim();
    create.mutate(
      { body, key: keyFor(body) },
      {
        onSuccess: () => {
          setOpen(false);
          setValues(EMPTY);
        },
      },
    );
  };

  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="secondary">{t('contacts.add')}</Button>
      <Dialog title={t('contacts.newAt', { name: client.name })}>
        <Form
          validationErrors={fieldErrors}
          aria-label={t('contacts.newContact')}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          {summary && <Alert>{summary}</Alert>}
          {FIELDS.map((field) => (
            <TextField
              key={field}
              label={t(`contacts.fields.${field}`)}
              name={field}
              type={field === 'email' ? 'email' : field.startsWith('phone') || field === 'fax' ? 'tel' : 'text'}
              value={values[field]}
              onChange={(value) => setValues((v) => ({ ...v, [field]: value }))}
              isRequired={field === 'first_name'}
              autoFocus={field === 'first_name'}
            />
          ))}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" slot="close">
              {t('contacts.cancel')}
            </Button>
            <Button type="submit" isPending={create.isPending}>
              {t('contacts.add')}
            </Button>
          </div>
        </Form>
      </Dialog>
    </DialogTrigger>
  );
}
