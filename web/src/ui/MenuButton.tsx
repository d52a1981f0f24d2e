import { Menu, MenuItem, MenuTrigger, Popover, type Key } from 'react-aria-components';
import { Button, type ButtonVariant } from './Button.tsx';
import { ChevronDownIcon } from './icons.tsx';

export interface MenuAction {
  id: Key;
  label: string;
}

/** A button opening a short list of actions (React Aria Menu: arrow keys, typeahead, Escape closes). */
export function MenuButton({
  label,
  actions,
  onAction,
  variant = 'secondary',
  isPending,
}: {
  label: string;
  actions: MenuAction[];
  onAction: (id: Key) => void;
  variant?: ButtonVariant;
  isPending?: boolean;
}) {
  return (
    <MenuTrigger>
      <Button variant={variant} isPending={isPending}>
        {label}
        <ChevronDownIcon className="size-4" />
      </Button>
      <Popover placement="bottom end" className="min-w-(--trigger-width) overflow-auto rounded-md border border-stone-200 bg-white p-1 shadow-lg outline-none">
        <Menu items={actions} onAction={onAction} className="outline-none">
          {(action) => (
            <MenuItem id={action.id} className="cursor-default rounded-sm px-3 py-2 text-sm text-stone-900 outline-none data-focused:bg-teal-50">
              {action.label}
            </MenuItem>
          )}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
