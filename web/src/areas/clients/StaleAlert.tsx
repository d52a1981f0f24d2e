import { Alert } from '../../ui/Alert.tsx';
import { Button } from '../../ui/Button.tsx';

/** A 412 in words, with the action that resolves it. */
export function StaleAlert({ onReload }: { onReload: () => void }) {
  return (
    <Alert title="Someone else changed this client">
      <p>It changed since you opened it. Reload to see their version, then make your change again.</p>
      <Button variant="secondary" className="mt-2" onPress={onReload}>
        Reload client
      </Button>
    </Alert>
  );
}
