import { NavLink, Outlet } from 'react-router';
import { useWorkspaceSession } from '../../api/session.ts';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { cx, focusRingCss } from '../../ui/styles.ts';
import { REPORTS } from './access.ts';
import { useReportTexts } from './texts.ts';

/** The reports with their own navigation; a report the role cannot run is not offered. */
export function ReportsLayout() {
  const t = useReportTexts();
  const { workspace } = useWorkspaceSession();
  const reports = REPORTS.filter((r) => r.allowed(workspace));
  return (
    <div className="flex flex-col gap-6">
      <PageHeading>{t('reports')}</PageHeading>
      <nav aria-label={t('reports')} className="-mx-4 overflow-x-auto border-b border-stone-200 px-4 sm:mx-0 sm:px-0">
        <ul className="flex gap-1">
          {reports.map(({ path }) => (
            <li key={path} className="shrink-0">
              <NavLink
                to={`/reports/${path}`}
                className={({ isActive }) =>
                  cx(
                    '-mb-px block border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap',
                    isActive ? 'border-teal-700 text-teal-900' : 'border-transparent text-stone-600 hover:border-stone-300 hover:text-stone-900',
                    focusRingCss,
                  )
                }
              >
                {t(`tabs.${path}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
