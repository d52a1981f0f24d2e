import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { TextField } from '../../ui/TextField.tsx';
import type { Invoice } from './api.ts';
import { sharingQuery, useCreateClientLink, useRevokeClientLinks } from './sharing-api.ts';
import { useSharingTexts } from './sharing-texts.ts';

/**
 * The invoice's client links (issue 25 item 6): how many work and when the client last
 * looked; a new link on request, shown this once to copy (the server keeps only its hash);
 * revoking ends every link at once.
 */
export function ClientLinkPanel({ invoice }: { invoice: Invoice }) {
  const t = useSharingTexts();
  const format = useFormat();
  const { data: sharing, error } = useQuery(sharingQuery(invoice.id));
  const data = sharing?.client_links;
  const create = useCreateClientLink(invoice.id);
  const revoke = useRevokeClientLinks(invoice.id);
  const [revoked, setRevoked] = useState(false);
  const draft = invoice.state === 'draft';

  return (
    <section aria-labelledby="invoice-client-link" className="flex flex-col gap-2">
      <h2 id="invoice-client-link" className="text-lg font-semibold text-stone-900">
        {t('clientLink.heading')}
      </h2>
      <p className="text-sm text-stone-700">{t('clientLink.intro')}</p>
      {error && <Alert>{describeError(error).message}</Alert>}
      {draft ? (
        <p className="text-sm text-stone-600">{t('clientLink.draft')}</p>
      ) : (
        data && (
          <p className="text-sm text-stone-800">
            {data.active_links > 0 ? t('clientLink.active', { count: data.active_links }) : t('clientLink.none')}{' '}
            {data.last_viewed_at ? t('clientLink.lastViewed', { date: format.dateTime(data.last_viewed_at) }) : t('clientLink.neverViewed')}
          </p>
        )
      )}
      {revoked && <Alert tone="success">{t('clientLink.revoked')}</Alert>}
      {create.error && <Alert>{describeError(create.error).message}</Alert>}
      {create.data && !revoked && (
        <div className="flex flex-col gap-2 rounded-lg border border-stone-200 bg-white p-3 shadow-xs sm:flex-row sm:items-end">
          <TextField label={t('clientLink.newLink')} value={create.data.url} isReadOnly className="min-w-0 grow" />
          <CopyButton value={create.data.url} label={t('clientLink.copy')} />
        </div>
      )}
      {!draft && (
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            isPending={create.isPending}
            onPress={() => {
              setRevoked(false);
              create.mutate();
            }}
          >
            {t('clientLink.create')}
          </Button>
          {data && data.active_links > 0 && (
            <ConfirmButton
              label={t('clientLink.revoke')}
              title={t('clientLink.revokeTitle', { number: invoice.number })}
              text={t('clientLink.revokeText')}
              confirmLabel={t('clientLink.revokeConfirm')}
              isPending={revoke.isPending}
              errorMessage={revoke.error && describeError(revoke.error).message}
              onOpenChange={() => revoke.reset()}
              onConfirm={(close) => revoke.mutate(undefined, { onSuccess: () => (close(), setRevoked(true), create.reset()) })}
            />
          )}
        </div>
      )}
    </section>
  );
}
