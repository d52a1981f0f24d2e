import type { CalendarDate } from '@internationalized/date';
import {
  Button as AriaButton,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker as AriaDatePicker,
  DateSegment,
  Dialog,
  Group,
  Heading,
  I18nProvider,
  Label,
  Popover,
  type DatePickerProps as AriaDatePickerProps,
} from 'react-aria-components';
import { ChevronDownIcon } from './icons.tsx';
import { cx, fieldLabel, focusRing } from './styles.ts';
import { useTexts } from './texts.ts';
import { FieldErrorText } from './FieldErrorText.tsx';
import { useDateFieldOrder } from './date-order.ts';
import { useLocale } from './i18n.ts';
import { useFirstDayOfWeek } from './week-start.ts';

/**
 * A date typed segment by segment or picked from a calendar (React Aria DatePicker);
 * the value is a CalendarDate (YYYY-MM-DD, never a Date in the browser's zone).
 * With `name`, the form submits it as YYYY-MM-DD. Typed in the order of the person's date
 * pattern where the language allows (date-order.ts); the calendar is in the app's locale, its
 * weeks starting on the workspace's first day of the week (week-start.ts), not the language's.
 */
export function DatePicker({ label, ...props }: Omit<AriaDatePickerProps<CalendarDate>, 'children' | 'className'> & { label: string }) {
  const t = useTexts();
  const locale = useLocale();
  const order = useDateFieldOrder(locale);
  const firstDayOfWeek = useFirstDayOfWeek();
  return (
    <I18nProvider locale={order.locale}>
      <AriaDatePicker shouldForceLeadingZeros={order.shouldForceLeadingZeros} firstDayOfWeek={firstDayOfWeek} {...props} className="flex flex-col gap-1.5">
        <Label className={fieldLabel}>{label}</Label>
        <Group className="flex w-full items-center rounded-md border border-stone-300 bg-white pl-3 shadow-xs data-focus-within:border-teal-600 data-focus-within:ring-2 data-focus-within:ring-teal-600/25 data-invalid:border-red-600 data-disabled:bg-stone-100">
          <DateInput className="flex flex-1 py-1.5 text-base sm:text-sm">
            {(segment) => (
              <DateSegment
                segment={segment}
                className="min-w-6 rounded-xs px-0.5 text-center leading-6 text-stone-900 tabular-nums outline-none data-disabled:text-stone-500 data-focused:bg-teal-700 data-focused:text-white data-placeholder:text-stone-500 data-focused:data-placeholder:text-white data-[type=literal]:min-w-0 data-[type=literal]:px-0"
              />
            )}
          </DateInput>
          <AriaButton aria-label={t('calendar')} className={cx('flex w-10 items-center justify-center self-stretch rounded-r-md text-stone-600', focusRing)}>
            <ChevronDownIcon className="size-4" />
          </AriaButton>
        </Group>
        <FieldErrorText kind="date" />
        <Popover className="rounded-md border border-stone-200 bg-white p-3 shadow-lg outline-none">
          <Dialog className="outline-none">
            <I18nProvider locale={locale}>
              <Calendar>
                <header className="mb-2 flex items-center justify-between gap-2">
                  <AriaButton slot="previous" className={cx('rounded-md px-2 py-1 text-stone-700 data-hovered:bg-stone-100', focusRing)}>
                    ‹<span className="sr-only">{t('previousMonth')}</span>
                  </AriaButton>
                  <Heading className="text-sm font-semibold text-stone-900" />
                  <AriaButton slot="next" className={cx('rounded-md px-2 py-1 text-stone-700 data-hovered:bg-stone-100', focusRing)}>
                    ›<span className="sr-only">{t('nextMonth')}</span>
                  </AriaButton>
                </header>
                <CalendarGrid className="text-sm">
                  {(date) => (
                    <CalendarCell
                      date={date}
                      className={cx(
                        'flex size-9 items-center justify-center rounded-md text-stone-900 data-hovered:bg-stone-100 data-outside-month:text-stone-400',
                        'data-selected:bg-teal-700 data-selected:text-white',
                        focusRing,
                      )}
                    />
                  )}
                </CalendarGrid>
              </Calendar>
            </I18nProvider>
          </Dialog>
        </Popover>
      </AriaDatePicker>
    </I18nProvider>
  );
}
