import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';
import { useClientTexts } from './texts.ts';

/** A 412 in words, with the action that resolves it. */
export function StaleAlert({ onReload }: { onReload: () => void }) {
  const t = useClientTexts();
  return (
    <Alert title={t('staleTitle')}>
      <p>{t('staleText')}</p>
      <Button variant="secondary" className="mt-2" onPress={onReload}>
        {t('reloadClient')}
      </Button>
    </Alert>
  );
}
