import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../ui/Alert.tsx';
import { Link } from '../../ui/Link.tsx';
import { myWeekQuery } from '../../api/approval-week.ts';
import type { WebEntry } from './api.ts';
import { useTimeTexts } from './texts.ts';

/**
 * The person's own week when an approver returned some of it: who did, why, and where to submit
 * again, said where the person corrects it (the rejection e-mail links to this week). The
 * reason is asked for only while the week holds returned time.
 */
export function ReturnedWeek({ from, entries }: { from: string; entries: readonly Pick<WebEntry, 'approval_status'>[] }) {
  const returned = entries.some((e) => e.approval_status === 'rejected');
  const { data: week } = useQuery({ ...myWeekQuery(from), enabled: returned });
  const t = useTimeTexts();
  if (!returned) return null;
  const rejection = week?.rejection;
  return (
    <Alert tone="warning" title={rejection?.rejected_by ? t('returned.titleBy', { name: rejection.rejected_by }) : t('returned.title')}>
      {rejection && (rejection.reason ? <p className="whitespace-pre-wrap">{rejection.reason}</p> : <p>{t('returned.noReason')}</p>)}
      <p className="mt-1">
        {t('returned.before')}
        <Link href={`/approvals?date=${from}`}>{t('returned.link')}</Link>
        {t('returned.after')}
      </p>
    </Alert>
  );
}
