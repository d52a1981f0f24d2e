import type { FormEvent } from 'react';
import { FieldError } from 'react-aria-components';
import { fieldError } from './styles.ts';
import { useTexts } from './texts.ts';
import { invalidMessage, type FieldKind } from './validity.ts';

/**
 * A field's error line, for every field of the app: the server's or a `validate` rule's message
 * as given, a failed browser check (required, e-mail, number…) in the app's language
 * (ui/validity.ts). `children` replaces the message altogether.
 */
export function FieldErrorText({ kind = 'text', children }: { kind?: FieldKind; children?: string }) {
  const t = useTexts();
  return <FieldError className={fieldError}>{(result) => children ?? invalidMessage(result, kind, (key) => t(`invalid.${key}`))}</FieldError>;
}

/** The kind of a text input's browser checks, from its `type`. */
export const kindOfInput = (type: string | undefined): FieldKind => (type === 'email' || type === 'url' || type === 'number' ? type : 'text');

/**
 * A text field's `onInput`: while it shows an error, each keystroke checks it again. React Aria
 * commits a browser check on the input's `change` event, which fires only when the field loses
 * focus; so the message went away as the pointer pressed the submit button, the form below moved
 * up, and the press was lost (the first Send after mending an address did nothing). Now the
 * message leaves as soon as what is typed is right, and stays while it is not.
 */
export function recheckWhileShown(event: FormEvent<HTMLInputElement | HTMLTextAreaElement>) {
  const field = event.currentTarget;
  if (field.getAttribute('aria-invalid') === 'true') field.dispatchEvent(new Event('change'));
}
