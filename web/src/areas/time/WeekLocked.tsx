import { LockIcon } from '../../ui/icons.tsx';

/**
 * Why the person's own approved week takes no new time (the week grid's cells, the day's add
 * form): said where they would start typing, instead of a 409 after they typed it all.
 */
export function WeekLocked({ text }: { text: string }) {
  return (
    <p role="status" className="flex items-start gap-1.5 rounded-md border border-stone-200 bg-stone-50 px-3 py-2 text-sm text-stone-700">
      <LockIcon className="mt-0.5 size-4 shrink-0" />
      {text}
    </p>
  );
}
