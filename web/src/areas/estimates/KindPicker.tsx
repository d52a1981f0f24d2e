import { useQuery } from '@tanstack/react-query';
import { kindChoicesQuery } from '../../api/item-categories.ts';
import { KindPicker as Picker } from '../../ui/KindPicker.tsx';
import { kindText } from '../../ui/kinds.ts';
import { useEstimateTexts } from './texts.ts';

/**
 * An estimate line's kind: one of the workspace's active item categories (the server
 * requires one, as for invoices), as the person reads it.
 */
export function KindPicker(props: { label: string; name: string; value: string; onChange: (kind: string) => void }) {
  const t = useEstimateTexts();
  const { data: active = [] } = useQuery(kindChoicesQuery);
  return <Picker {...props} kinds={active} kindText={(k) => kindText(t, k)} />;
}
