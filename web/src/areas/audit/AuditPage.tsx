import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { permissionLabel, roleLabel } from '../../api/roles.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { pickerDate } from '../../ui/dates.ts';
import { DatePicker } from '../../ui/DatePicker.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Select, type SelectOption } from '../../ui/Select.tsx';
import { focusRingCss } from '../../ui/styles.ts';
import { AUDIT_KINDS, auditLogQuery, auditPeopleQuery, exportUrl, type AuditEntry, type AuditFilter } from './api.ts';
import { filterOf, searchOf } from './filter.ts';
import { hasActionText, hasReasonText, sentenceKey, useAuditTexts } from './texts.ts';

/**
 * Settings → Audit log (issue 28 item 4; owners and administrators): who did what and when,
 * newest first, filtered by person, kind and period (in the URL, so a filtered view can be
 * shared and reloaded), older entries on request, and the same filters as a CSV download.
 * A table on a wide screen; on a phone each entry is a block (data-stack).
 */
export function AuditPage() {
  const t = useAuditTexts();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const filter = filterOf(params);
  const go = (next: AuditFilter) => void navigate({ search: searchOf(next) }, { replace: true });
  const log = useInfiniteQuery(auditLogQuery(filter));
  const entries = log.data?.pages.flatMap((p) => p.audit_logs);
  const filtered = Object.keys(filter).length > 0;
  return (
    <div className="flex max-w-6xl flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="flex max-w-2xl flex-col gap-2">
          <PageHeading>{t('heading')}</PageHeading>
          <p className="text-sm text-stone-600">{t('intro')}</p>
        </div>
        <a href={exportUrl(filter)} download="audit-log.csv" className={buttonClass('secondary')}>
          {t('exportCsv')}
        </a>
      </div>
      <Filters filter={filter} onChange={go} />
      {log.isError && <Alert>{describeError(log.error).message}</Alert>}
      {!entries && !log.isError && (
        <div role="status" aria-busy="true" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loading')}
        </div>
      )}
      {entries?.length === 0 && (
        <div className="flex flex-col items-start gap-3 rounded-lg border border-dashed border-stone-300 bg-white p-6 text-sm text-stone-700">
          <h2 className="text-base font-semibold text-stone-900">{t('empty.title')}</h2>
          <p>{filtered ? t('empty.filtered') : t('empty.none')}</p>
          {filtered && (
            <Button variant="secondary" onPress={() => go({})}>
              {t('clear')}
            </Button>
          )}
        </div>
      )}
      {entries && entries.length > 0 && <AuditTable entries={entries} />}
      {log.hasNextPage && (
        <div>
          <Button variant="secondary" isPending={log.isFetchingNextPage} onPress={() => void log.fetchNextPage()}>
            {t('loadOlder')}
          </Button>
        </div>
      )}
    </div>
  );
}

function Filters({ filter, onChange }: { filter: AuditFilter; onChange: (f: AuditFilter) => void }) {
  const t = useAuditTexts();
  const people = useQuery(auditPeopleQuery);
  const persons: SelectOption[] = [
    { id: 'all', label: t('everyone') },
    ...(people.data ?? []).map((m) => ({ id: m.id, label: [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email })),
  ];
  const kinds: SelectOption[] = [{ id: 'all', label: t('allKinds') }, ...AUDIT_KINDS.map((k) => ({ id: k, label: t(`kinds.${k}`) }))];
  return (
    <div className="grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_auto_auto_auto]" role="group" aria-label={t('filters')}>
      <Select
        label={t('person')}
        options={persons}
        selectedKey={filter.person_id ?? 'all'}
        onSelectionChange={(key) => onChange({ ...filter, person_id: key === 'all' ? undefined : String(key) })}
      />
      <Select
        label={t('kind')}
        options={kinds}
        selectedKey={filter.kind ?? 'all'}
        onSelectionChange={(key) => onChange({ ...filter, kind: key === 'all' ? undefined : (String(key) as AuditFilter['kind']) })}
      />
      <DatePicker label={t('from')} value={pickerDate(filter.from)} onChange={(d) => onChange({ ...filter, from: d ? d.toString() : undefined })} />
      <DatePicker label={t('to')} value={pickerDate(filter.to)} onChange={(d) => onChange({ ...filter, to: d ? d.toString() : undefined })} />
      <Button variant="quiet" isDisabled={Object.keys(filter).length === 0} onPress={() => onChange({})}>
        {t('clear')}
      </Button>
    </div>
  );
}

function AuditTable({ entries }: { entries: AuditEntry[] }) {
  const t = useAuditTexts();
  return (
    // Three columns fit beside the settings' own column from 1280 px on (long names, URLs and
    // reasons wrap); narrower, between lg and 1280, it scrolls sideways, so the keyboard must reach it.
    <div tabIndex={0} role="region" aria-label={t('caption')} className={`relative overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-xs ${focusRingCss}`}>
      <table data-stack className="w-full min-w-[36rem] border-collapse text-sm">
        <caption className="sr-only">{t('caption')}</caption>
        <thead className="border-b border-stone-200 text-left text-xs font-semibold text-stone-600 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2">{t('when')}</th>
            <th scope="col" className="px-3 py-2">{t('who')}</th>
            <th scope="col" className="px-3 py-2">{t('what')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-100">
          {entries.map((e) => (
            <AuditRow key={e.id} entry={e} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One entry: when, who (the key under the name, when one was used), and what, with what matters besides under the sentence. */
function AuditRow({ entry: e }: { entry: AuditEntry }) {
  const t = useAuditTexts();
  const format = useFormat();
  const subject = e.subject.label ?? t('unknownSubject');
  const key = sentenceKey(e.action, e.details);
  const details = detailsOf(e, t);
  return (
    <tr className="align-top">
      <td className="px-3 py-2.5 whitespace-nowrap text-stone-700 tabular-nums">
        <time dateTime={e.occurred_at}>{format.dateTime(e.occurred_at)}</time>
      </td>
      <td className="px-3 py-2.5 break-words text-stone-900">
        {actorOf(e, t)}
        {e.actor.type === 'key' && e.actor.key_label && <span className="block text-xs text-stone-600">{t('viaKey', { label: e.actor.key_label })}</span>}
      </td>
      <td className="px-3 py-2.5 wrap-anywhere text-stone-900">
        {hasActionText(key) ? t(`actions.${key}` as never, { subject }) : <code className="text-xs text-stone-700">{e.action}</code>}
        {details && <span className="mt-0.5 block text-xs text-stone-600">{details}</span>}
      </td>
    </tr>
  );
}

type T = ReturnType<typeof useAuditTexts>;

/** Who acted: a person's name (the key they used goes under it), or the operator (`sheaf admin`, Sheaf's schedules). */
function actorOf(e: AuditEntry, t: T): string {
  if (e.actor.type === 'operator') return t('operator');
  return e.actor.name ?? t('unknownPerson');
}

/**
 * What matters besides the sentence: a sign-in's address, a reason (worded when Sheaf acted by
 * itself), a role, the sessions a deactivation ended, what leaving the manager role took away,
 * the recipients.
 */
function detailsOf(e: AuditEntry, t: T): string {
  const d = e.details;
  const parts: string[] = [];
  if (e.address) parts.push(t('from_address', { address: e.address }));
  if (typeof d.role === 'string') parts.push(roleLabel(d.role));
  if (typeof d.reason === 'string') parts.push(hasReasonText(d.reason) ? t(`reasons.${d.reason}`) : d.reason);
  if (typeof d.sessions_ended === 'number' && d.sessions_ended > 0) parts.push(t('sessionsEnded', { count: d.sessions_ended }));
  if (typeof d.teammates_unassigned === 'number') parts.push(t('teammatesUnassigned', { count: d.teammates_unassigned }));
  if (Array.isArray(d.permissions_removed) && d.permissions_removed.length > 0) {
    parts.push(t('permissionsRemoved', { permissions: d.permissions_removed.map((p) => permissionLabel(String(p))).join(', ') }));
  }
  if (Array.isArray(d.recipients)) parts.push(d.recipients.filter((r): r is string => typeof r === 'string').join(', '));
  return parts.join(' · ');
}
