import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Link } from '../../ui/Link.tsx';
import type { ShownReport } from './definition.ts';
import { SavedReportForm } from './SavedReportForm.tsx';
import { useSavedReportTexts } from './texts.ts';

/**
 * "Save report" on a report page (the app hands it to the reports area): the form in a
 * dialog, saving what the page shows; once saved, a line says under which name, with the
 * way to the saved reports. A line about another report the page showed before goes.
 * Its parts sit in the page's heading row (a wrapping flex row): the button beside the
 * heading, the line after them at phone width and between them from 640 px up.
 */
export function SaveReport({ shown }: { shown: ShownReport }) {
  const t = useSavedReportTexts();
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState<{ name: string; of: string } | null>(null);
  const of = JSON.stringify(shown);
  return (
    <div className="contents">
      <p role="status" className={done?.of === of ? 'order-last basis-full text-sm text-emerald-800 sm:order-none sm:ml-auto sm:basis-auto' : 'sr-only'}>
        {done?.of === of && (
          <>
            {t('save.done', { name: done.name })} <Link href="/reports/saved">{t('save.seeAll')}</Link>
          </>
        )}
      </p>
      <DialogTrigger isOpen={open} onOpenChange={setOpen}>
        <Button variant="secondary">{t('save.button')}</Button>
        <Dialog title={t('save.title')}>
          <SavedReportForm
            shown={shown}
            onSaved={(saved) => {
              setOpen(false);
              setDone({ name: saved.name, of });
            }}
          />
        </Dialog>
      </DialogTrigger>
    </div>
  );
}
