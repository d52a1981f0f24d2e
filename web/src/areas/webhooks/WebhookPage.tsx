import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { useNavigate, useParams } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { cx, focusRingCss } from '../../ui/styles.ts';
import { Switch } from '../../ui/Switch.tsx';
import {
  deliveriesQuery,
  useDeleteWebhookEndpoint,
  useResendDelivery,
  useRotateWebhookSecret,
  useUpdateWebhookEndpoint,
  webhookEndpointQuery,
  type WebhookDelivery,
  type WebhookEndpoint,
} from './api.ts';
import { actionOf, chosenGroups } from './events.ts';
import { DeliveryState, DisabledReason } from './parts.tsx';
import { SecretBox } from './SecretBox.tsx';
import { EndpointDialog } from './WebhookForm.tsx';
import { useWebhookTexts } from './texts.ts';

/**
 * Settings → Webhooks → one endpoint: what it is sent and whether it is on (a switch that
 * takes effect at once), Edit, Rotate secret (the new one shown once), Delete; then its
 * delivery log, newest first, older pages on request, each delivery sendable again.
 */
export function WebhookPage() {
  const { id } = useParams() as { id: string };
  const t = useWebhookTexts();
  const { data: endpoint, error } = useQuery(webhookEndpointQuery(id));
  if (!endpoint) {
    return (
      <div className="flex flex-col gap-6">
        <Link href="/settings/webhooks">{t('backToList')}</Link>
        <PageHeading>{t('heading')}</PageHeading>
        {error ? <Alert>{describeError(error).message}</Alert> : <p role="status" className="text-stone-600">{t('loadingOne')}</p>}
      </div>
    );
  }
  return <EndpointView endpoint={endpoint} />;
}

function Field({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={cx('flex min-w-0 flex-col gap-1', className)}>
      <dt className="text-xs font-semibold text-stone-600 uppercase">{label}</dt>
      <dd className="text-stone-900">{children}</dd>
    </div>
  );
}

function EndpointView({ endpoint: e }: { endpoint: WebhookEndpoint }) {
  const t = useWebhookTexts();
  const format = useFormat();
  const navigate = useNavigate();
  const update = useUpdateWebhookEndpoint();
  const remove = useDeleteWebhookEndpoint();
  const [done, setDone] = useState<string | null>(null);
  return (
    <div className="flex max-w-5xl flex-col gap-6">
      <Link href="/settings/webhooks" className="self-start">
        {t('backToList')}
      </Link>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <PageHeading className="min-w-0 text-xl break-all sm:text-2xl">{e.url}</PageHeading>
        <div className="flex shrink-0 flex-wrap gap-2">
          <EndpointDialog endpoint={e} onSaved={() => setDone(t('saved'))} />
          <RotateDialog endpoint={e} />
          <ConfirmButton
            label={t('remove.button')}
            title={t('remove.title')}
            text={t('remove.text')}
            confirmLabel={t('remove.confirm')}
            isPending={remove.isPending}
            errorMessage={remove.error && describeError(remove.error).message}
            onOpenChange={() => remove.reset()}
            onConfirm={() => remove.mutate(e.id, { onSuccess: () => navigate('/settings/webhooks', { state: { notice: t('remove.done', { url: e.url }) } }) })}
          />
        </div>
      </div>
      {done && <Alert tone="success">{done}</Alert>}
      <section aria-labelledby="webhook-details" className="rounded-lg border border-stone-200 bg-white p-4 shadow-xs sm:p-5">
        <h2 id="webhook-details" className="sr-only">
          {t('details.title')}
        </h2>
        <dl className="grid gap-5 text-sm sm:grid-cols-2">
          <Field label={t('details.state')}>
            <div className="flex flex-col gap-2">
              <Switch
                isSelected={e.is_active}
                isDisabled={update.isPending}
                onChange={(on) => update.mutate({ id: e.id, body: { is_active: on } })}
                aria-describedby="webhook-state-note"
              >
                {t('state.active')}
              </Switch>
              <p id="webhook-state-note" className="flex flex-col gap-1 text-stone-700">
                <span>{e.is_active ? t('details.turnedOn') : t('details.turnedOff')}</span>
                {e.disabled_reason && <DisabledReason reason={e.disabled_reason} />}
              </p>
              {update.error && <Alert>{describeError(update.error).message}</Alert>}
            </div>
          </Field>
          <Field label={t('details.deliveries')}>
            <span className="flex flex-wrap gap-x-3">
              <span>{t('counts.pending', { count: e.pending_count })}</span>
              <span className={e.failed_count > 0 ? 'font-medium text-red-800' : undefined}>{t('counts.failed', { count: e.failed_count })}</span>
            </span>
          </Field>
          {e.description && (
            <Field label={t('details.description')}>
              <span className="break-words">{e.description}</span>
            </Field>
          )}
          <Field label={t('details.administrator')}>{e.created_by?.name ?? t('details.operator')}</Field>
          <Field label={t('details.created')}>{format.dateTime(e.created_at)}</Field>
          <Field label={t('details.events')} className="sm:col-span-2">
              <ul className="flex flex-col gap-1">
                {chosenGroups(e.events).map((g) => (
                  <li key={g.record}>
                    <span className="font-medium">{t(`records.${g.record}`)}:</span>{' '}
                    {g.chosen.map((k) => t(`actions.${actionOf(k)}`).toLocaleLowerCase()).join(', ')}
                  </li>
                ))}
              </ul>
          </Field>
        </dl>
        {e.previous_secret_valid_until && (
          <p className="mt-4 border-t border-stone-100 pt-3 text-sm text-stone-700">{t('details.previousSecret', { when: format.dateTime(e.previous_secret_valid_until) })}</p>
        )}
      </section>
      <DeliveryLog endpoint={e} />
    </div>
  );
}

/** Rotate secret: asked first (the old one keeps signing for 24 hours); then the new secret, this once. */
function RotateDialog({ endpoint: e }: { endpoint: WebhookEndpoint }) {
  const t = useWebhookTexts();
  const rotate = useRotateWebhookSecret();
  const [open, setOpen] = useState(false);
  const secret = rotate.data?.secret;
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        rotate.reset(); // the secret goes with the dialog
        setOpen(o);
      }}
    >
      <Button variant="secondary">{t('rotate.button')}</Button>
      <Dialog title={secret ? t('secret.rotatedTitle') : t('rotate.title')}>
        {secret ? (
          <div className="flex flex-col gap-4">
            <SecretBox secret={secret} />
            <div>
              <Button
                onPress={() => {
                  rotate.reset();
                  setOpen(false);
                }}
              >
                {t('secret.done')}
              </Button>
            </div>
          </div>
        ) : (
          <div className="flex flex-col gap-4 text-sm">
            <p className="text-stone-800">{t('rotate.text')}</p>
            {rotate.error && <Alert>{describeError(rotate.error).message}</Alert>}
            <Button isPending={rotate.isPending} onPress={() => rotate.mutate(e.id)}>
              {t('rotate.confirm')}
            </Button>
          </div>
        )}
      </Dialog>
    </DialogTrigger>
  );
}

function DeliveryLog({ endpoint: e }: { endpoint: WebhookEndpoint }) {
  const t = useWebhookTexts();
  const format = useFormat();
  const log = useInfiniteQuery(deliveriesQuery(e.id));
  const resend = useResendDelivery(e.id);
  const deliveries = log.data?.pages.flatMap((p) => p.deliveries);
  const when = (iso: string | null) => (iso ? format.dateTime(iso) : t('log.none'));
  return (
    <section aria-labelledby="webhook-log" className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id="webhook-log" className="text-lg font-semibold text-stone-900">
          {t('log.title')}
        </h2>
        <p className="text-sm text-stone-600">{t('log.intro')}</p>
      </div>
      {log.isError && <Alert>{describeError(log.error).message}</Alert>}
      {resend.error && <Alert>{describeError(resend.error).message}</Alert>}
      {!deliveries && !log.isError && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('log.loading')}
        </div>
      )}
      {deliveries?.length === 0 && <div className="rounded-lg border border-dashed border-stone-300 bg-white p-6 text-sm text-stone-700">{t('log.empty')}</div>}
      {deliveries && deliveries.length > 0 && (
        // Four columns fit beside the settings' own column from 1280 px on (the URL's host and the errors wrap);
        // narrower, between lg and 1280, it scrolls sideways, so the keyboard must reach it.
        <div tabIndex={0} role="region" aria-label={t('log.caption', { url: e.url })} className={`relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs ${focusRingCss}`}>
          <table data-stack className="w-full min-w-[36rem] border-collapse text-sm">
            <caption className="sr-only">{t('log.caption', { url: e.url })}</caption>
            <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2">{t('log.event')}</th>
                <th scope="col" className="px-3 py-2">{t('log.state')}</th>
                <th scope="col" className="px-3 py-2">{t('log.result')}</th>
                <th scope="col" className="px-3 py-2">
                  <span className="sr-only">{t('log.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {deliveries.map((d) => (
                <DeliveryRow
                  key={d.id}
                  delivery={d}
                  endpointOn={e.is_active}
                  when={when}
                  isResending={resend.isPending && resend.variables === d.id}
                  onResend={() => resend.mutate(d.id)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.hasNextPage && (
        <div>
          <Button variant="secondary" isPending={log.isFetchingNextPage} onPress={() => void log.fetchNextPage()}>
            {t('log.loadOlder')}
          </Button>
        </div>
      )}
    </section>
  );
}

/**
 * One delivery: the event and when it occurred; its state with the attempts so far and, while
 * pending, when the next is due (or that it waits for the endpoint to be turned on); the receiver's answer (its HTTP status) or the error, which
 * wraps; Resend.
 */
function DeliveryRow({
  delivery: d,
  endpointOn,
  when,
  isResending,
  onResend,
}: {
  delivery: WebhookDelivery;
  endpointOn: boolean;
  when: (iso: string | null) => string;
  isResending: boolean;
  onResend: () => void;
}) {
  const t = useWebhookTexts();
  const status = d.response_status === null ? null : t('log.status', { status: d.response_status });
  // The error of an answer other than 2xx is its status again, as the sender writes it ("HTTP 500"): said once.
  const error = d.error !== null && d.error !== `HTTP ${d.response_status}` ? d.error : null;
  return (
    <tr className="align-top">
      <th scope="row" className="px-3 py-2.5 text-left font-medium">
        <code className="font-mono text-sm whitespace-nowrap">{d.event_type}</code>
        <span className="block text-xs font-normal whitespace-nowrap text-stone-600">{when(d.occurred_at)}</span>
      </th>
      <td className="px-3 py-2.5">
        <DeliveryState state={d.state} />
        <span className="mt-1 block text-xs text-stone-700">{t('log.attemptCount', { count: d.attempts })}</span>
        {d.state === 'pending' && (
          <span className="block text-xs text-stone-700">
            {/* An endpoint that is off sends nothing: what is pending waits for it, whatever its next attempt said. */}
            {!endpointOn ? (
              t('log.waitsForEndpoint')
            ) : d.next_attempt_at ? (
              <>
                {t('log.nextAttempt')}: <span className="whitespace-nowrap">{when(d.next_attempt_at)}</span>
              </>
            ) : (
              t('log.dueNow')
            )}
          </span>
        )}
      </td>
      <td className="px-3 py-2.5 wrap-anywhere text-stone-700">
        {status && <span className="block text-stone-900 tabular-nums">{status}</span>}
        {error && <span className="block">{error}</span>}
        {!status && !error && t('log.none')}
      </td>
      <td className="px-3 py-2.5 text-right whitespace-nowrap">
        <Button variant="secondary" className="min-h-9 px-3" aria-label={t('log.resendNamed', { event: d.event_type, when: when(d.occurred_at) })} isPending={isResending} onPress={onResend}>
          {t('log.resend')}
        </Button>
      </td>
    </tr>
  );
}
