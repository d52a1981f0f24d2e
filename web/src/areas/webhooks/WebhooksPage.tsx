import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { webhookEndpointsQuery, type WebhookEndpoint, type WithSecret } from './api.ts';
import { EndpointState, EventsSummary } from './parts.tsx';
import { SecretBox } from './SecretBox.tsx';
import { EndpointDialog } from './WebhookForm.tsx';
import { useWebhookTexts } from './texts.ts';

/**
 * Settings → Webhooks (owners and administrators; the route guard tells anyone else it is
 * not for their role): the workspace's endpoints with their state, events and what waits or
 * failed; "Add endpoint" opens the form, and a new endpoint's secret is shown once, here.
 */
export function WebhooksPage() {
  const t = useWebhookTexts();
  const list = useQuery(webhookEndpointsQuery);
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const [done, setDone] = useState<string | null>(null);
  const [created, setCreated] = useState<WithSecret | null>(null);
  const add = (
    <EndpointDialog
      onCreated={(c) => {
        setDone(t('added', { url: c.url }));
        setCreated(c);
      }}
    />
  );
  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex max-w-2xl flex-col gap-2">
          <PageHeading>{t('heading')}</PageHeading>
          <p className="text-sm text-stone-600">{t('intro')}</p>
        </div>
        {list.data && list.data.length > 0 && add}
      </div>
      {list.isError && <Alert>{describeError(list.error).message}</Alert>}
      {(done ?? notice) && <Alert tone="success">{done ?? notice}</Alert>}
      {!list.data && !list.isError && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loading')}
        </div>
      )}
      {list.data?.length === 0 && (
        <section aria-labelledby="webhooks-empty" className="flex flex-col items-start gap-3 rounded-lg border border-dashed border-stone-300 bg-white p-6 sm:p-8">
          <h2 id="webhooks-empty" className="text-base font-semibold text-stone-900">
            {t('empty.title')}
          </h2>
          <p className="max-w-2xl text-sm text-stone-700">{t('empty.text')}</p>
          {add}
        </section>
      )}
      {list.data && list.data.length > 0 && (
        <ul aria-label={t('listLabel')} className="flex flex-col gap-3">
          {list.data.map((e) => (
            <EndpointCard key={e.id} endpoint={e} onSaved={() => setDone(t('saved'))} />
          ))}
        </ul>
      )}
      <Dialog title={t('secret.createdTitle')} isOpen={created !== null} onOpenChange={(open) => !open && setCreated(null)}>
        {created && (
          <div className="flex flex-col gap-4">
            <p className="text-sm break-all text-stone-700">{created.url}</p>
            <SecretBox secret={created.secret} />
            <div>
              <Button onPress={() => setCreated(null)}>{t('secret.done')}</Button>
            </div>
          </div>
        )}
      </Dialog>
    </div>
  );
}

function EndpointCard({ endpoint: e, onSaved }: { endpoint: WebhookEndpoint; onSaved: () => void }) {
  const t = useWebhookTexts();
  const headingId = `webhook-${e.id}`;
  return (
    <li aria-labelledby={headingId} className="rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1.5 text-sm">
          <h2 id={headingId} className="text-base font-semibold break-all text-stone-900">
            <Link href={`/settings/webhooks/${e.id}`}>{e.url}</Link>
          </h2>
          {e.description && <p className="break-words text-stone-800">{e.description}</p>}
          <p className="text-stone-700">
            <EventsSummary events={e.events} />
          </p>
          <div className="flex flex-wrap items-start gap-x-3 gap-y-1">
            <EndpointState endpoint={e} />
          </div>
          <p className="flex flex-wrap gap-x-3 text-stone-700">
            <span>{t('counts.pending', { count: e.pending_count })}</span>
            <span className={e.failed_count > 0 ? 'font-medium text-red-800' : undefined}>{t('counts.failed', { count: e.failed_count })}</span>
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <EndpointDialog endpoint={e} onSaved={onSaved} />
        </div>
      </div>
    </li>
  );
}
