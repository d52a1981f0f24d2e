import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { describeError } from '../../api/errors.ts';
import { useFormat } from '../../api/format.ts';
import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmButton } from '../../ui/ConfirmButton.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import { cx } from '../../ui/styles.ts';
import { savedReportsQuery, useDeleteSavedReport, type SavedReport } from './api.ts';
import { hrefOf } from './definition.ts';
import { DefinitionText } from './labels.tsx';
import { SavedReportForm } from './SavedReportForm.tsx';
import { useSavedReportTexts } from './texts.ts';

/**
 * Reports → Saved: the caller's saved reports and those shared with the workspace, by
 * name; each opens its report page with today's dates (the server's). The owner edits
 * name, sharing and e-mail; the owner (owners and administrators too, for a shared one)
 * deletes it.
 */
export function SavedReportsPage() {
  const t = useSavedReportTexts();
  const list = useQuery(savedReportsQuery);
  const [done, setDone] = useState<string | null>(null);
  return (
    <section aria-labelledby="saved-reports" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="saved-reports" className="text-lg font-semibold text-stone-900">
          {t('heading')}
        </h2>
        <p className="max-w-3xl text-sm text-stone-600">{t('intro')}</p>
      </div>
      {list.isError && <Alert>{describeError(list.error).message}</Alert>}
      {done && <Alert tone="success">{done}</Alert>}
      {!list.data && !list.isError && (
        <div role="status" className="rounded-lg border border-stone-200 bg-white p-6 text-stone-600 shadow-xs">
          {t('loading')}
        </div>
      )}
      {list.data?.length === 0 && <div className="rounded-lg border border-dashed border-stone-300 bg-white p-8 text-center text-stone-700">{t('empty')}</div>}
      {list.data && list.data.length > 0 && (
        <ul aria-label={t('listLabel')} className="flex flex-col gap-3">
          {list.data.map((r) => (
            <SavedReportCard key={r.id} saved={r} onDone={setDone} />
          ))}
        </ul>
      )}
    </section>
  );
}

function SavedReportCard({ saved: r, onDone }: { saved: SavedReport; onDone: (message: string) => void }) {
  const t = useSavedReportTexts();
  const format = useFormat();
  const remove = useDeleteSavedReport();
  const headingId = `saved-report-${r.id}`;
  const schedule = r.schedule !== 'none' && r.next_send_date ? t('scheduleNext', { schedule: t(`schedule.${r.schedule}`), date: format.day(r.next_send_date) }) : t(`schedule.${r.schedule}`);
  return (
    <li aria-labelledby={headingId} className="rounded-lg border border-stone-200 bg-white p-4 shadow-xs">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1 text-sm">
          <h3 id={headingId} className="text-base font-semibold break-words text-stone-900">
            <Link href={hrefOf(r)}>{r.name}</Link>
          </h3>
          <p className="text-stone-800">
            <DefinitionText definition={r} />
          </p>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-stone-600">
            <span
              className={cx(
                'rounded-sm px-1.5 py-0.5 text-xs font-medium',
                r.visibility === 'workspace' ? 'bg-sky-50 text-sky-900' : 'bg-stone-100 text-stone-700',
              )}
            >
              {t(`visibility.${r.visibility}`)}
            </span>
            {!r.is_own && <span>{t('savedBy', { name: r.owner.name })}</span>}
          </p>
          <p className="text-stone-600">{schedule}</p>
        </div>
        {(r.is_own || r.may_delete) && (
          <div className="flex shrink-0 flex-wrap gap-2">
            {r.is_own && <EditDialog saved={r} onDone={onDone} />}
            {r.may_delete && (
              <ConfirmButton
                label={t('remove')}
                ariaLabel={t('removeNamed', { name: r.name })}
                title={t('removeTitle', { name: r.name })}
                text={t('removeText')}
                confirmLabel={t('removeConfirm')}
                isPending={remove.isPending}
                errorMessage={remove.error && describeError(remove.error).message}
                onOpenChange={() => remove.reset()}
                onConfirm={(close) =>
                  remove.mutate(r.id, {
                    onSuccess: () => {
                      close();
                      onDone(t('removedDone', { name: r.name }));
                    },
                  })
                }
              />
            )}
          </div>
        )}
      </div>
    </li>
  );
}

function EditDialog({ saved, onDone }: { saved: SavedReport; onDone: (message: string) => void }) {
  const t = useSavedReportTexts();
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="secondary" aria-label={t('editNamed', { name: saved.name })}>
        {t('edit')}
      </Button>
      <Dialog title={t('editTitle')}>
        <SavedReportForm
          saved={saved}
          onSaved={(s) => {
            setOpen(false);
            onDone(t('editedDone', { name: s.name }));
          }}
        />
      </Dialog>
    </DialogTrigger>
  );
}
