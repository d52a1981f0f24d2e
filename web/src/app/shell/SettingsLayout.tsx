import { NavLink, Outlet } from 'react-router';
import { holds, isAdministrator, usesWorkspace, type Who } from '../../api/access.ts';
import { useWorkspaceSession } from '../../api/session.ts';
import { cx, focusRingCss } from '../../ui/styles.ts';
import { useTexts } from '../texts.ts';

/**
 * The Settings pages with their own navigation; entries a role cannot use are not shown
 * (by the rule its route guard applies). Absent `visible`: everyone.
 */
type Entry = 'profile' | 'workspace' | 'members' | 'invitations' | 'expenseCategories' | 'api' | 'password' | 'invoicing' | 'bankAccounts' | 'itemCategories' | 'webhooks' | 'holidays' | 'audit' | 'import' | 'singleSignOn';

const ENTRIES: { to: string; label: Entry; visible?: (w: Who) => boolean }[] = [
  { to: '/settings/profile', label: 'profile' },
  { to: '/settings/workspace', label: 'workspace', visible: usesWorkspace },
  { to: '/settings/members', label: 'members', visible: isAdministrator },
  { to: '/settings/invitations', label: 'invitations', visible: isAdministrator },
  { to: '/settings/holidays', label: 'holidays', visible: isAdministrator },
  { to: '/settings/expense-categories', label: 'expenseCategories', visible: (w) => holds(w, 'edit_clients_and_tasks') },
  { to: '/settings/api', label: 'api', visible: usesWorkspace },
  { to: '/settings/password', label: 'password' },
  { to: '/settings/invoicing', label: 'invoicing', visible: isAdministrator },
  { to: '/settings/bank-accounts', label: 'bankAccounts', visible: isAdministrator },
  { to: '/settings/item-categories', label: 'itemCategories', visible: isAdministrator },
  { to: '/settings/webhooks', label: 'webhooks', visible: isAdministrator },
  { to: '/settings/single-sign-on', label: 'singleSignOn', visible: isAdministrator },
  { to: '/settings/audit', label: 'audit', visible: isAdministrator },
  { to: '/settings/import', label: 'import', visible: isAdministrator },
];

export function SettingsLayout() {
  const { workspace } = useWorkspaceSession();
  const t = useTexts();
  const entries = ENTRIES.filter((e) => !e.visible || e.visible(workspace));
  // Fifteen pages do not fit one row of tabs beside the main navigation (six of them were
  // scrolled out of sight at 1366 px): from lg on they are a column of their own, left of the page.
  return (
    <div className="flex flex-col gap-6 lg:flex-row lg:items-start lg:gap-8">
      <nav aria-label={t('settingsNav')} className="-mx-4 overflow-x-auto border-b border-stone-200 px-4 sm:mx-0 sm:px-0 lg:sticky lg:top-4 lg:w-52 lg:shrink-0 lg:overflow-visible lg:border-b-0">
        <ul className="flex gap-1 lg:flex-col">
          {entries.map(({ to, label }) => (
            <li key={to} className="shrink-0">
              <NavLink
                to={to}
                className={({ isActive }) =>
                  cx(
                    '-mb-px block border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap lg:mb-0 lg:rounded-md lg:border-b-0 lg:py-2 lg:whitespace-normal',
                    isActive ? 'border-teal-700 text-teal-900 lg:bg-teal-50' : 'border-transparent text-stone-600 hover:border-stone-300 hover:text-stone-900 lg:hover:bg-stone-100',
                    focusRingCss,
                  )
                }
              >
                {t(`settings.${label}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}
