import { useState } from 'react';
import { Button } from './Button.tsx';
import { useTexts } from './texts.ts';

/**
 * Copies a value to the clipboard and says so for a moment. Where the browser refuses
 * (no permission, no secure context) it says to select and copy by hand.
 */
export function CopyButton({ value, label, className }: { value: string; label?: string; className?: string }) {
  const t = useTexts();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <span className="inline-flex items-center gap-2">
      <Button
        variant="secondary"
        className={className}
        onPress={() => {
          // Undefined outside a secure context, whatever the types say.
          const clipboard = navigator.clipboard as Clipboard | undefined;
          if (!clipboard) return setState('failed');
          clipboard.writeText(value).then(
            () => setState('copied'),
            () => setState('failed'),
          );
        }}
      >
        {label ?? t('copy')}
      </Button>
      <span role="status" className="text-sm text-stone-600">
        {state === 'copied' ? t('copied') : state === 'failed' ? t('copyByHand') : ''}
      </span>
    </span>
  );
}
