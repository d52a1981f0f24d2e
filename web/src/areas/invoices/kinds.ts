/** The kinds' texts live in ui/kinds.ts, shared with the estimates; the invoices' files import them from here. */
export { DEFAULT_KIND, IMPORTED_TIME_KIND, RETAINER_KIND, kindLabel, kindText } from '../../ui/kinds.ts';
