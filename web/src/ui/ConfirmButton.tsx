import { useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { Alert } from './Alert.tsx';
import { Button } from './Button.tsx';
import { Dialog } from './Dialog.tsx';

/**
 * A button for an action that is asked first: it opens a dialog with the question, the
 * action's error when it failed, and the confirming (danger) button. `onConfirm` gets a
 * `close` to call once the action succeeded; `onOpenChange` runs on opening and closing
 * (to clear an earlier attempt's error). `ariaLabel` names the opening button when its label
 * alone is one of several alike (each item of a list has its Delete).
 */
export function ConfirmButton({
  label,
  ariaLabel,
  title,
  text,
  confirmLabel,
  isPending,
  errorMessage,
  onOpenChange,
  onConfirm,
}: {
  label: string;
  ariaLabel?: string;
  title: string;
  text: string;
  confirmLabel: string;
  isPending: boolean;
  errorMessage?: string | null;
  onOpenChange?: (open: boolean) => void;
  onConfirm: (close: () => void) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(o) => {
        onOpenChange?.(o);
        setOpen(o);
      }}
    >
      <Button variant="secondary" aria-label={ariaLabel}>
        {label}
      </Button>
      <Dialog title={title}>
        <div className="flex flex-col gap-4 text-sm">
          <p className="text-stone-800">{text}</p>
          {errorMessage && <Alert>{errorMessage}</Alert>}
          <Button variant="danger" isPending={isPending} onPress={() => onConfirm(() => setOpen(false))}>
            {confirmLabel}
          </Button>
        </div>
      </Dialog>
    </DialogTrigger>
  );
}
