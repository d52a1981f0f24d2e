import { Button } from './Button.tsx';

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
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 text-sm text-stone-700">
      <span>
        Page {list.page} of {list.total_pages} ({list.total_entries} {noun}
        {note ? `; ${note}` : ''})
      </span>
      <span className="flex gap-2">
        <Button variant="secondary" isDisabled={list.page <= 1} onPress={() => onPage(list.page - 1)}>
          Previous page
        </Button>
        <Button variant="secondary" isDisabled={list.page >= list.total_pages} onPress={() => onPage(list.page + 1)}>
          Next page
        </Button>
      </span>
    </nav>
  );
}
