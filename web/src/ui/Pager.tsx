import { Button } from './Button.tsx';
import { useTexts } from './texts.ts';

/** The API's pagination envelope, as far as a pager needs it. */
export interface PageEnvelope {
  page: number;
  total_pages: number;
  total_entries: number;
}

/**
 * Previous and next page of a paged list (the API's envelope): "Page 2 of 7 (160 invoices)".
 * `noun` names what is counted, plural; `note` adds a remark after the count.
 */
export function Pager({ list, noun, note, onPage }: { list: PageEnvelope; noun: string; note?: string; onPage: (page: number) => void }) {
  const t = useTexts();
  const values = { page: list.page, pages: list.total_pages, count: list.total_entries, noun, note };
  return (
    <nav aria-label={t('pages')} className="flex flex-wrap items-center justify-between gap-3 text-sm text-stone-700">
      <span>{note ? t('pageOfNoted', values) : t('pageOf', values)}</span>
      <span className="flex gap-2">
        <Button variant="secondary" isDisabled={list.page <= 1} onPress={() => onPage(list.page - 1)}>
          {t('previousPage')}
        </Button>
        <Button variant="secondary" isDisabled={list.page >= list.total_pages} onPress={() => onPage(list.page + 1)}>
          {t('nextPage')}
        </Button>
      </span>
    </nav>
  );
}
