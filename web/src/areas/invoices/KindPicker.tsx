import { useQuery } from '@tanstack/react-query';
import { kindChoicesQuery } from '../../api/item-categories.ts';
import { KindPicker as Picker } from '../../ui/KindPicker.tsx';
import { kindText } from './kinds.ts';
import { useInvoiceTexts } from './texts.ts';

/** A line's kind: one of the workspace's active item categories, as the person reads it (kinds.ts: Service and Product in their language). */
export function KindPicker(props: { label: string; name: string; value: string; onChange: (kind: string) => void; isDisabled?: boolean }) {
  const t = useInvoiceTexts();
  const { data: active = [] } = useQuery(kindChoicesQuery);
  return <Picker {...props} kinds={active} kindText={(k) => kindText(t, k)} />;
}
