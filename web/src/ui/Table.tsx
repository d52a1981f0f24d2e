import {
  Cell as AriaCell,
  Column as AriaColumn,
  Row as AriaRow,
  Table as AriaTable,
  TableBody as AriaTableBody,
  TableHeader as AriaTableHeader,
  type CellProps,
  type ColumnProps,
  type RowProps,
  type TableBodyProps,
  type TableHeaderProps,
  type TableProps,
} from 'react-aria-components';
import { cx } from './styles.ts';

/** A data table (React Aria: a real <table>, arrow keys between cells, sortable columns when asked). */
export function Table({ className, ...props }: Omit<TableProps, 'className'> & { className?: string }) {
  return <AriaTable {...props} className={cx('w-full border-collapse text-left text-sm', className)} />;
}

export function TableHeader<T extends object>(props: TableHeaderProps<T>) {
  return <AriaTableHeader {...props} className="border-b border-stone-200 text-stone-600" />;
}

export function Column({ className, ...props }: Omit<ColumnProps, 'className'> & { className?: string }) {
  return (
    <AriaColumn
      {...props}
      className={cx(
        'px-3 py-2 text-xs font-semibold tracking-wide uppercase outline-none',
        'data-focus-visible:outline-2 data-focus-visible:-outline-offset-2 data-focus-visible:outline-teal-600',
        className,
      )}
    />
  );
}

export function TableBody<T extends object>(props: TableBodyProps<T>) {
  return <AriaTableBody {...props} className="divide-y divide-stone-100" />;
}

export function Row<T extends object>({ className, ...props }: Omit<RowProps<T>, 'className'> & { className?: string }) {
  return (
    <AriaRow
      {...props}
      className={cx(
        'outline-none data-hovered:bg-stone-50',
        'data-focus-visible:outline-2 data-focus-visible:-outline-offset-2 data-focus-visible:outline-teal-600',
        className,
      )}
    />
  );
}

export function Cell({ className, ...props }: Omit<CellProps, 'className'> & { className?: string }) {
  return (
    <AriaCell
      {...props}
      className={cx('px-3 py-2.5 text-stone-800 outline-none data-focus-visible:outline-2 data-focus-visible:-outline-offset-2 data-focus-visible:outline-teal-600', className)}
    />
  );
}
