import { useMemo } from 'react';
import { ComboBox } from './ComboBox.tsx';
import { countries } from './countries.ts';
import { useLocale } from './i18n.ts';
import { useTexts } from './texts.ts';

/**
 * A country (ISO 3166-1 alpha-2) chosen by its name in the UI's language: a type-ahead list
 * ("Germany (DE)"); emptying the field clears it. The value is the code or null.
 */
export function CountryField({
  label,
  name,
  value,
  onChange,
  description,
  className,
}: {
  label: string;
  name: string;
  value: string | null;
  onChange: (code: string | null) => void;
  description?: string;
  className?: string;
}) {
  const t = useTexts();
  const locale = useLocale();
  const options = useMemo(() => countries(locale, t('northernIreland'), value).map((c) => ({ id: c.code, label: `${c.name} (${c.code})` })), [locale, t, value]);
  return (
    <ComboBox
      label={label}
      name={name}
      options={options}
      selectedKey={value}
      onSelectionChange={(key) => onChange(key === null ? null : String(key))}
      description={description ?? t('countryHint')}
      className={className}
    />
  );
}
