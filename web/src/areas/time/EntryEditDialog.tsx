import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { useFormat } from '../../api/format.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { sheetQuery, type WebEntry } from './api.ts';
import { EntryEditor, type EntryEditorProps } from './EntryEditor.tsx';
import { lockOf, weekApproved } from './locks.ts';
import { useTimeTexts } from './texts.ts';
import { entrySummary, longDayLabel } from './week.ts';

/** The entry editor in a dialog (the day view's Edit, the calendar's blocks and drags); it closes once saved. */
export function EntryDialog({ isOpen, onOpenChange, title, ...editor }: Omit<EntryEditorProps, 'onDone'> & { isOpen: boolean; onOpenChange: (open: boolean) => void; title: string }) {
  return (
    <Dialog title={title} isOpen={isOpen} onOpenChange={onOpenChange}>
      <EntryEditor {...editor} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

/** A day's entries in the order they happened: by start time, then as they were recorded. */
export const byTime = (entries: WebEntry[]) =>
  [...entries].sort((a, b) => (a.started_time ?? '').localeCompare(b.started_time ?? '') || a.created_at.localeCompare(b.created_at));


interface CellEntriesProps {
  /** The cell's name ("Website, Design, Tue 14 Jan"). */
  name: string;
  /** The week shown (the grid's `start`), whose cached sheet gives the choices, today and the week's lock. */
  week: string | undefined;
  date: string;
  entries: WebEntry[];
  /** The cell's total, as the grid shows it. */
  total: string;
}

/**
 * A week-grid cell holding several entries (WEB-STYLE 4: one value cannot say which to
 * change): its total opens a dialog listing them, each in the entry editor.
 */
export function CellEntries({ name, week, date, entries, total }: CellEntriesProps) {
  const [open, setOpen] = useState(false);
  const t = useTimeTexts();
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button variant="quiet" aria-label={t('grid.severalCell', { name, total, count: entries.length })} className="min-h-0 w-full flex-col gap-0 px-1 py-1.5 font-normal tabular-nums">
        {total}
        <span aria-hidden="true" className="block text-[11px] leading-tight text-stone-600">
          {t('grid.entries', { count: entries.length })}
        </span>
      </Button>
      <Dialog title={name}>
        <CellEntryList week={week} date={date} entries={entries} />
      </Dialog>
    </DialogTrigger>
  );
}

function CellEntryList({ week, date, entries }: { week: string | undefined; date: string; entries: WebEntry[] }) {
  // The grid's own week, from the cache: never a request of its own.
  const { data: sheet } = useQuery({ ...sheetQuery(week), enabled: false });
  const t = useTimeTexts();
  const format = useFormat();
  if (!sheet) return null;
  const locked = weekApproved(sheet.entries);
  return (
    <div className="flex flex-col divide-y divide-stone-200">
      <p className="pb-3 text-sm text-stone-600">
        {t('grid.entriesOn', { count: entries.length, day: longDayLabel(format, date) })}
      </p>
      {byTime(entries).map((e, i) => (
        <section key={e.id} aria-label={t('grid.entryNumber', { number: i + 1 })} className="flex flex-col gap-3 py-4">
          <h3 className="text-sm font-semibold text-stone-900 tabular-nums">{entrySummary(format, e)}</h3>
          {/* Keyed by version: a save the server changed further (hours alone clear the times) starts the form afresh. */}
          <EntryEditor key={e.updated_at} entry={e} date={date} lock={lockOf(e, locked)} today={sheet.today} own />
        </section>
      ))}
    </div>
  );
}
