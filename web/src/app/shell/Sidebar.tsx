import { NavLink, useNavigate } from 'react-router';
import { useSession, useSignOut } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { SignOutIcon } from '../../ui/icons.tsx';
import { cx, focusRingCss } from '../../ui/styles.ts';
import { useTexts } from '../texts.ts';
import { NAV } from './nav.ts';
import { WorkspaceSwitcher } from './WorkspaceSwitcher.tsx';

/** What the navigation holds, in the sidebar (wide screens) and in the menu (narrow ones). */
export function SidebarContent({ onNavigate }: { onNavigate?: () => void }) {
  const { user, workspace } = useSession();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const t = useTexts();
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;

  return (
    <div className="flex flex-1 flex-col gap-6 px-3 py-4">
      <WorkspaceSwitcher onSwitched={onNavigate} />
      <nav aria-label={t('mainNav')}>
        <ul className="flex flex-col gap-1">
          {NAV.filter((e) => !e.visible || (workspace && e.visible(workspace))).map(({ to, label, icon: Icon, end }) => (
            <li key={to}>
              <NavLink
                to={to}
                end={end}
                onClick={onNavigate}
                className={({ isActive }) =>
                  cx(
                    'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors',
                    isActive ? 'bg-teal-50 text-teal-900' : 'text-stone-700 hover:bg-stone-100 hover:text-stone-900',
                    focusRingCss,
                  )
                }
              >
                {({ isActive }) => (
                  <>
                    <Icon className={cx('size-5 shrink-0', isActive ? 'text-teal-700' : 'text-stone-500')} />
                    {t(`nav.${label}`)}
                  </>
                )}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-auto border-t border-stone-200 pt-4">
        <NavLink
          to="/settings/profile"
          onClick={onNavigate}
          aria-label={t('yourProfile', { name, email: user.email })}
          className={cx('block rounded-md px-3 py-1.5 hover:bg-stone-100', focusRingCss)}
        >
          <span className="block truncate text-sm font-medium text-stone-900" title={name}>
            {name}
          </span>
          <span className="block truncate text-xs text-stone-600" title={user.email}>
            {user.email}
          </span>
        </NavLink>
        <Button
          variant="quiet"
          className="mt-3 w-full justify-start px-3"
          isPending={signOut.isPending}
          onPress={() => signOut.mutate(undefined, { onSettled: () => navigate('/sign-in?reason=signed-out', { replace: true }) })}
        >
          <SignOutIcon className="size-5 text-stone-500" />
          {t('signOut')}
        </Button>
      </div>
    </div>
  );
}
