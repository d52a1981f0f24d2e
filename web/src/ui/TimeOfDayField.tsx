import { TextField, type TextFieldProps } from './TextField.tsx';
import { parseTimeOfDay } from './time-of-day.ts';
import { useTexts } from './texts.ts';

export interface TimeOfDayFieldProps extends Omit<TextFieldProps, 'value' | 'onChange' | 'onBlur'> {
  value: string;
  onChange: (value: string) => void;
}

/**
 * A time of day typed as people type it (`9`, `930`, `9:30pm`: ui/time-of-day.ts), shown as
 * `HH:mm` once the field is left; text it cannot read stays as typed, for the form's check
 * to put its message under the field. Select-all on focus, as the duration fields do.
 */
export function TimeOfDayField({ value, onChange, description, ...props }: TimeOfDayFieldProps) {
  const t = useTexts();
  return (
    <TextField
      {...props}
      description={description ?? t('timeHint')}
      value={value}
      onChange={onChange}
      onFocus={(e) => (e.target as HTMLInputElement).select()}
      onBlur={() => {
        const parsed = value.trim() ? parseTimeOfDay(value) : null;
        if (parsed && 'time' in parsed && parsed.time !== value) onChange(parsed.time);
      }}
      autoComplete="off"
    />
  );
}
