import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { estimateLinksQuery, useRevokeEstimateLinks, type Estimate } from './api.ts';
import { useEstimateTexts } from './texts.ts';

/**
 * The estimate's client links: each send's e-mail carries one, where the client sees
 * the estimate and accepts or declines it. How many work, when the client last looked,
 * and revoking them all at once (asked first).
 */
export function ClientLinkPanel({ estimate: e }: { estimate: Estimate }) {
  const t = useEstimateTexts();
  const format = useFormat();
  const { data, error } = useQuery(estimateLinksQuery(e.id));
  const revoke = useRevokeEstimateLinks(e.id);
  const [revoked, setRevoked] = useState(false);

  return (
    <section aria-labelledby="estimate-client-link" className="flex flex-col gap-2">
      <h2 id="estimate-client-link" className="text-lg font-semibold text-stone-900">
        {t('clientLink.heading')}
      </h2>
      <p className="text-sm text-stone-700">{t('clientLink.intro')}</p>
      {error && <Alert>{describeError(error).message}</Alert>}
      {data && (
        <p className="text-sm text-stone-800">
          {data.active_links > 0 ? t('clientLink.active', { count: data.active_links }) : e.state === 'draft' && !e.sent_at ? t('clientLink.draft') : t('clientLink.none')}{' '}
          {data.active_links > 0 && (data.last_viewed_at ? t('clientLink.lastViewed', { date: format.dateTime(data.last_viewed_at) }) : t('clientLink.neverViewed'))}
        </p>
      )}
      {revoked && <Alert tone="success">{t('clientLink.revoked')}</Alert>}
      {data && data.active_links > 0 && (
        <div>
          <ConfirmButton
            label={t('clientLink.revoke')}
            title={t('clientLink.revokeTitle', { number: e.number })}
            text={t('clientLink.revokeText')}
            confirmLabel={t('clientLink.revokeConfirm')}
            isPending={revoke.isPending}
            errorMessage={revoke.error && describeError(revoke.error).message}
            onOpenChange={() => revoke.reset()}
            onConfirm={(close) => revoke.mutate(undefined, { onSuccess: () => (close(), setRevoked(true)) })}
          />
        </div>
      )}
    </section>
  );
}
