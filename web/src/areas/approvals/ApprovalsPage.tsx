import { useSearchParams } from 'react-router';
import { isManagerOrAbove } from '../../api/access.ts';
import { useSession } from '../../api/session.ts';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { MyWeekSection } from './MyWeekSection.tsx';
import { QueueSection } from './QueueSection.tsx';
import { useApprovalTexts } from './texts.ts';

/** Approvals: your week to submit; for owners, administrators and managers, the weeks to review and those approved. */
export function ApprovalsPage() {
  const [params] = useSearchParams();
  const session = useSession();
  const t = useApprovalTexts();
  const approver = session.workspace !== null && isManagerOrAbove(session.workspace);
  return (
    <div className="flex min-w-0 flex-col gap-8">
      <PageHeading>{t('heading')}</PageHeading>
      <MyWeekSection date={params.get('date') ?? undefined} />
      {approver && <QueueSection />}
    </div>
  );
}
