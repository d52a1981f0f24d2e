import type { ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay, type ModalOverlayProps } from 'react-aria-components';
import { Button } from './Button.tsx';
import { XIcon } from './icons.tsx';
import { cx } from './styles.ts';
import { useTexts } from './texts.ts';

export interface DialogProps extends Omit<ModalOverlayProps, 'children' | 'className'> {
  title: string;
  children: ReactNode;
  /** `center`: a dialog in the middle; `side`: a panel from the left edge (the small-screen menu). */
  placement?: 'center' | 'side';
  /** Hide the title visually (it still names the dialog). */
  hideTitle?: boolean;
  /** A centred dialog wide enough for a table (a week under review). */
  wide?: boolean;
}

/**
 * A modal dialog (React Aria: focus trapped and restored, Escape and a click outside close it,
 * the page behind is inert). Open it with a DialogTrigger around a Button and this.
 */
export function Dialog({ title, children, placement = 'center', hideTitle, wide, ...props }: DialogProps) {
  const t = useTexts();
  const side = placement === 'side';
  return (
    <ModalOverlay
      {...props}
      isDismissable
      className={cx('fixed inset-0 z-40 flex bg-scrim', side ? 'justify-start' : 'items-center justify-center p-4')}
    >
      <Modal
        className={cx(
          'bg-white shadow-xl outline-none',
          side ? 'h-full w-72 max-w-[85vw] overflow-y-auto' : cx('max-h-[90vh] w-full overflow-y-auto rounded-lg', wide ? 'max-w-3xl' : 'max-w-md'),
        )}
      >
        <AriaDialog className={cx('relative outline-none', side ? 'flex min-h-full flex-col' : 'p-6')}>
          {({ close }) => (
            <>
              <div className={cx('flex items-center justify-between gap-4', side ? 'border-b border-stone-200 px-4 py-3' : 'mb-4')}>
                <Heading slot="title" className={cx('text-lg font-semibold text-stone-900', hideTitle && 'sr-only')}>
                  {title}
                </Heading>
                <Button variant="quiet" aria-label={t('close')} onPress={close} className="ml-auto min-h-9 px-2">
                  <XIcon className="size-5" />
                </Button>
              </div>
              {children}
            </>
          )}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
