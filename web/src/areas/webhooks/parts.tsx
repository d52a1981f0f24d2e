import { cx } from '../../ui/styles.ts';
import type { WebhookDelivery, WebhookEndpoint } from './api.ts';
import { actionOf, chosenGroups, EVENT_KINDS, isEverything, normalized } from './events.ts';
import { useWebhookTexts } from './texts.ts';

const BADGE = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 whitespace-nowrap';

/** Active or Off, and why Sheaf turned it off when it did. */
export function EndpointState({ endpoint: e, withReason = true }: { endpoint: WebhookEndpoint; withReason?: boolean }) {
  const t = useWebhookTexts();
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <span className={cx(BADGE, e.is_active ? 'bg-emerald-50 text-emerald-900 ring-emerald-700/20' : 'bg-stone-100 text-stone-700 ring-stone-500/20')}>
        {e.is_active ? t('state.active') : t('state.off')}
      </span>
      {withReason && e.disabled_reason && <DisabledReason reason={e.disabled_reason} />}
    </span>
  );
}

export function DisabledReason({ reason }: { reason: NonNullable<WebhookEndpoint['disabled_reason']> }) {
  const t = useWebhookTexts();
  return <span className="text-sm text-amber-900">{t(`disabledReason.${reason}`)}</span>;
}

/** A delivery's state as a badge: pending (amber), delivered (green), failed (red). */
export function DeliveryState({ state }: { state: WebhookDelivery['state'] }) {
  const t = useWebhookTexts();
  const tone = {
    pending: 'bg-amber-50 text-amber-900 ring-amber-700/20',
    delivered: 'bg-emerald-50 text-emerald-900 ring-emerald-700/20',
    failed: 'bg-red-50 text-red-900 ring-red-700/20',
  }[state];
  return <span className={cx(BADGE, tone)}>{t(`log.states.${state}`)}</span>;
}

/** "3 events · Clients: all · Invoices: sent, paid", or "All events (28)". */
export function EventsSummary({ events }: { events: readonly string[] }) {
  const t = useWebhookTexts();
  const chosen = normalized(events);
  if (isEverything(chosen)) return <>{t('allEvents', { count: EVENT_KINDS.length })}</>;
  const groups = chosenGroups(chosen).map((g) =>
    g.state === 'all' ? `${t(`records.${g.record}`)}: ${t('groupAll')}` : `${t(`records.${g.record}`)}: ${g.chosen.map((k) => t(`actions.${actionOf(k)}`).toLocaleLowerCase()).join(', ')}`,
  );
  return <>{[t('events', { count: chosen.length }), ...groups].join(' · ')}</>;
}
