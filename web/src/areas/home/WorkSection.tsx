import { useState } from 'react';
import { HttpError } from '../../api/call.ts';
import { describeError } from '../../api/errors.ts';
import { useIdempotencyKey } from '../../api/idempotency.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { formatElapsed } from '../../ui/duration.ts';
import { Link } from '../../ui/Link.tsx';
import { useContinueWork, type RecentWork, type RunningEntry } from './api.ts';
import { Section } from './Section.tsx';
import { useHomeTexts } from './texts.ts';

const where = (w: { client_name?: string; project_name: string; task_name: string }) => [w.client_name, w.project_name, w.task_name].filter(Boolean).join(' – ');

/** The running timer, read-only (the timer bar in the shell stops it); its elapsed time as the caller measures it (elapsedMs). */
export function RunningSection({ running, elapsed }: { running: RunningEntry | null; elapsed: number }) {
  const t = useHomeTexts();
  return (
    <Section title={t('running.title')} action={<Link href="/time/day">{t('running.goToTimer')}</Link>}>
      {running ? (
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <div className="min-w-0">
            <p className="font-medium text-stone-900">{where({ client_name: running.client.name, project_name: running.project.name, task_name: running.task?.name ?? '' })}</p>
            {running.notes && <p className="truncate text-sm text-stone-600">{running.notes}</p>}
          </div>
          {/* Not a second role=timer: the timer bar's is the page's one. */}
          <span className="text-2xl font-semibold text-stone-900 tabular-nums">{formatElapsed(elapsed)}</span>
        </div>
      ) : (
        <p className="text-sm text-stone-600">{t('running.none')}</p>
      )}
    </Section>
  );
}

/** The last distinct project, task and notes, each with Continue (a new timer like it). */
export function RecentSection({ recent, running }: { recent: RecentWork[]; running: RunningEntry | null }) {
  const start = useContinueWork();
  const t = useHomeTexts();
  const keyFor = useIdempotencyKey();
  const [last, setLast] = useState<RecentWork | null>(null);
  const conflict = start.error instanceof HttpError && start.error.code === 'running_timer_conflict';
  const begin = (work: RecentWork, replace = false) => {
    setLast(work);
    const body = { project_id: work.project_id, task_id: work.task_id, notes: work.notes, replace };
    start.mutate({ work, key: keyFor(body), replace });
  };
  return (
    <Section title={t('recent.title')} action={<Link href="/time/week">{t('recent.allTime')}</Link>}>
      {recent.length === 0 ? (
        <p className="text-sm text-stone-600">{t('recent.empty')}</p>
      ) : (
        <ul className="divide-y divide-stone-100">
          {recent.map((w) => {
            const label = where(w);
            const key = `${w.project_id}/${w.task_id}/${w.notes ?? ''}`;
            return (
              <li key={key} className="flex items-center justify-between gap-3 py-2.5">
                <div className="min-w-0">
                  {/* Two lines before an ellipsis: client – project – task is often longer than half the page. */}
                  <p className="line-clamp-2 text-sm font-medium break-words text-stone-900" title={label}>
                    {label}
                  </p>
                  <p className="truncate text-sm text-stone-600">{w.notes ?? t('recent.noNotes')}</p>
                </div>
                <Button
                  variant="secondary"
                  aria-label={w.notes ? t('recent.continueWorkNotes', { work: label, notes: w.notes }) : t('recent.continueWork', { work: label })}
                  isPending={start.isPending && last === w}
                  onPress={() => begin(w)}
                >
                  {t('recent.continue')}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {start.error && last && (
        <Alert className="mt-3">
          {conflict ? (
            <>
              <p>{running ? t('recent.alreadyRunningOn', { project: running.project.name }) : t('recent.alreadyRunning')}</p>
              <Button variant="secondary" className="mt-2" onPress={() => begin(last, true)}>
                {t('recent.replace')}
              </Button>
            </>
          ) : (
            describeError(start.error).message
          )}
        </Alert>
      )}
    </Section>
  );
}
