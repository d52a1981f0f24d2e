import { Link as AriaLink, composeRenderProps, type LinkProps } from 'react-aria-components';
import { cx, focusRing } from './styles.ts';

/** An in-app link (client-side navigation through the router); `href` is a path such as /settings/password. */
export function Link({ className, ...props }: LinkProps) {
  return (
    <AriaLink
      {...props}
      className={composeRenderProps(className, (c) =>
        cx('rounded-xs font-medium text-teal-800 underline decoration-teal-800/40 underline-offset-2 data-hovered:decoration-teal-800', focusRing, c),
      )}
    />
  );
}
