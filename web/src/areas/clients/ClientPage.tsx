import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { HttpError } from '../../api/call.ts';
import { describeError } from '../../api/errors.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { clientAccess, type ClientAccess } from './access.ts';
import { clientQuery, useDeleteClient, useUpdateClient, type Client } from './api.ts';
import { ClientForm } from './ClientForm.tsx';
import { ContactsSection } from './ContactsSection.tsx';
import { StaleAlert } from './StaleAlert.tsx';
import { termsLabel } from './terms.ts';
import { useClientTexts } from './texts.ts';

/** /clients/new: the form; /clients/:id: the client (its form for those who may edit), archive/delete, and its contacts. */
export function ClientPage() {
  const { id } = useParams();
  const { workspace } = useWorkspaceSession();
  const access = clientAccess(workspace);
  if (!id) return <NewClient access={access} />;
  return <ExistingClient key={id} id={id} access={access} />;
}

function Back() {
  const t = useClientTexts();
  return (
    <Link href="/clients" className="text-sm">
      {t('backToClients')}
    </Link>
  );
}

function NewClient({ access }: { access: ClientAccess }) {
  const t = useClientTexts();
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <div>
        <Back />
        <PageHeading className="mt-2">{t('newClient')}</PageHeading>
      </div>
      {access.writes ? (
        <ClientForm access={access} />
      ) : (
        <Alert tone="info">{t('cannotAdd')}</Alert>
      )}
    </div>
  );
}

function ExistingClient({ id, access }: { id: string; access: ClientAccess }) {
  const t = useClientTexts();
  const query = useQuery(clientQuery(id));
  // Bumped to start the form again from the server's current version (after "Reload", archive or restore).
  const [version, setVersion] = useState(0);
  const reload = async () => {
    await query.refetch();
    setVersion((v) => v + 1);
  };
  const loaded = query.data;
  const client = loaded?.client;

  return (
    <div className="flex max-w-3xl flex-col gap-8">
      <div>
        <Back />
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <PageHeading title={client?.name ?? t('client')}>{client?.name ?? t('client')}</PageHeading>
          {client && !client.is_active && <span className="rounded-sm bg-stone-200 px-2 py-0.5 text-sm text-stone-800">{t('archived')}</span>}
        </div>
      </div>
      {query.error && !loaded && <Alert>{describeError(query.error).message}</Alert>}
      {!loaded && !query.error && (
        <div role="status" className="text-stone-600">
          {t('loading')}
        </div>
      )}
      {loaded && (
        <>
          {access.writes ? (
            <section aria-labelledby="client-details" className="flex flex-col gap-4">
              <h2 id="client-details" className="text-lg font-semibold text-stone-900">
                {t('details')}
              </h2>
              <ClientForm key={version} access={access} loaded={loaded} onReload={reload} />
            </section>
          ) : (
            <ClientDetails client={loaded.client} />
          )}
          {access.archives && <ArchiveSection client={loaded.client} etag={loaded.etag} onChanged={() => setVersion((v) => v + 1)} onReload={reload} />}
          <ContactsSection client={loaded.client} writes={access.writes} />
        </>
      )}
    </div>
  );
}

/** What someone who may not edit the client sees: the properties the API gave them. */
function ClientDetails({ client }: { client: Client }) {
  const t = useClientTexts();
  const percent = (value: number | null) => (value === null ? '—' : t('percent', { value }));
  const rows: [string, string][] = [
    [t('address'), client.address ?? '—'],
    [t('currency'), client.currency],
  ];
  if (client.payment_terms !== undefined) rows.push([t('paymentTerms'), termsLabel(t, client.payment_terms, client.payment_days)]);
  if (client.tax !== undefined) rows.push([t('tax'), percent(client.tax)]);
  if (client.tax2 !== undefined) rows.push([t('secondTax'), percent(client.tax2)]);
  if (client.discount !== undefined) rows.push([t('discount'), percent(client.discount)]);
  return (
    <section aria-labelledby="client-details" className="flex flex-col gap-3">
      <h2 id="client-details" className="text-lg font-semibold text-stone-900">
        {t('details')}
      </h2>
      <dl className="grid gap-x-6 gap-y-3 rounded-lg border border-stone-200 bg-white p-4 text-sm shadow-xs sm:grid-cols-[10rem_1fr]">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-medium text-stone-700">{term}</dt>
            <dd className="whitespace-pre-line text-stone-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const isStale = (error: unknown) => error instanceof HttpError && error.status === 412;

/** Owners and administrators: archive or restore; an archived client can be deleted (If-Match with its ETag). */
function ArchiveSection({ client, etag, onChanged, onReload }: { client: Client; etag: string; onChanged: () => void; onReload: () => void }) {
  const t = useClientTexts();
  const update = useUpdateClient(client.id);
  return (
    <section aria-labelledby="client-status" className="flex flex-col gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
      <h2 id="client-status" className="text-lg font-semibold text-stone-900">
        {t('statusHeading')}
      </h2>
      {update.error &&
        (isStale(update.error) ? (
          <StaleAlert
            onReload={() => {
              update.reset();
              onReload();
            }}
          />
        ) : (
          <Alert>{describeError(update.error).message}</Alert>
        ))}
      <p className="text-sm text-stone-700">
        {client.is_active ? t('archiveExplained') : t('restoreExplained')}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          isPending={update.isPending}
          onPress={() => update.mutate({ changes: { is_active: !client.is_active }, etag }, { onSuccess: onChanged })}
        >
          {client.is_active ? t('archiveClient') : t('restoreClient')}
        </Button>
        {!client.is_active && <DeleteButton client={client} etag={etag} onReload={onReload} />}
      </div>
    </section>
  );
}

function DeleteButton({ client, etag, onReload }: { client: Client; etag: string; onReload: () => void }) {
  const t = useClientTexts();
  const navigate = useNavigate();
  const remove = useDeleteClient(client.id);
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) remove.reset();
      }}
    >
      <Button variant="quiet" className="text-red-800">
        {t('deleteClient')}
      </Button>
      <Dialog title={t('deleteQuestion')}>
        <div className="flex flex-col gap-4">
            {remove.error &&
              (isStale(remove.error) ? (
                <StaleAlert
                  onReload={() => {
                    setOpen(false);
                    onReload();
                  }}
                />
              ) : (
                <Alert title={t('notDeleted')}>{describeError(remove.error).message}</Alert>
              ))}
            <p className="text-sm text-stone-700">
              {t('deleteExplained', { name: client.name })}
            </p>
            <div className="flex justify-end gap-2">
              <Button variant="secondary" slot="close">
                {t('keepIt')}
              </Button>
              <Button variant="danger" isPending={remove.isPending} onPress={() => remove.mutate(etag, { onSuccess: () => navigate('/clients?status=archived') })}>
                {t('deleteClient')}
              </Button>
            </div>
          </div>
      </Dialog>
    </DialogTrigger>
  );
}
