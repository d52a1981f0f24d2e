import { useSearchParams } from 'react-router';
import { useSession } from '../../api/session.ts';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { APPROVER_ROLES } from './format.ts';
import { MyWeekSection } from './MyWeekSection.tsx';
import { QueueSection } from './QueueSection.tsx';

/** Approvals: your week to submit; for owners, administrators and managers, the weeks to review and those approved. */
export function ApprovalsPage() {
  const [params] = useSearchParams();
  const session = useSession();
  const approver = session.workspace !== null && APPROVER_ROLES.includes(session.workspace.role);
  return (
    <div className="flex min-w-0 flex-col gap-8">
      <PageHeading>Approvals</PageHeading>
      <MyWeekSection date={params.get('date') ?? undefined} />
      {approver && <QueueSection />}
    </div>
  );
}
