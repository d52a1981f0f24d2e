import { NavLink, Outlet } from 'react-router';
import { holds, type PermissionId } from '../../api/roles.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { cx, focusRingCss } from '../../ui/styles.ts';

const ADMIN = ['owner', 'administrator'];

/** The Settings pages with their own navigation; entries a role cannot use are not shown. */
const ENTRIES = [
  { to: '/settings/profile', label: 'Profile' },
  { to: '/settings/workspace', label: 'Workspace' },
  { to: '/settings/members', label: 'Members', admin: true },
  { to: '/settings/invitations', label: 'Invitations', admin: true },
  { to: '/settings/expense-categories', label: 'Expense categories', permission: 'edit_clients_and_tasks' as PermissionId },
  { to: '/settings/api', label: 'API and Developers' },
  { to: '/settings/password', label: 'Password' },
];

export function SettingsLayout() {
  const { workspace } = useWorkspaceSession();
  const entries = ENTRIES.filter((e) => (!e.admin || ADMIN.includes(workspace.role)) && (!e.permission || holds(workspace, e.permission)));
  return (
    <div className="flex flex-col gap-6">
      <nav aria-label="Settings" className="-mx-4 overflow-x-auto border-b border-stone-200 px-4 sm:mx-0 sm:px-0">
        <ul className="flex gap-1">
          {entries.map(({ to, label }) => (
            <li key={to} className="shrink-0">
              <NavLink
                to={to}
                className={({ isActive }) =>
                  cx(
                    '-mb-px block border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap',
                    isActive ? 'border-teal-700 text-teal-900' : 'border-transparent text-stone-600 hover:border-stone-300 hover:text-stone-900',
                    focusRingCss,
                  )
                }
              >
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

/** For the routes: a page only owners and administrators reach (others get the settings they can see). */
export const isAdminRole = (role: string) => ADMIN.includes(role);
