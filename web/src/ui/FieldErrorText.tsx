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
