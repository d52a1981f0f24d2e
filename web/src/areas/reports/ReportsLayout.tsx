import { useEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { useWorkspaceSession } from '../../api/session.ts';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { cx, focusRingCss } from '../../ui/styles.ts';
import { REPORTS } from './access.ts';
import { SaveActionContext, type SaveAction } from './save.tsx';
import { useReportTexts } from './texts.ts';

/** The reports with their own navigation; a report the role cannot run is not offered. The pages show `saveAction` (when composed in). */
export function ReportsLayout({ saveAction }: { saveAction?: SaveAction }) {
  const t = useReportTexts();
  const { workspace } = useWorkspaceSession();
  const reports = REPORTS.filter((r) => r.allowed(workspace));
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // At phone width the tabs scroll sideways: the current one is kept in view (the last, Saved, would be off the edge).
  useEffect(() => {
    const reveal = () => {
      const box = nav.current;
      const current = box?.querySelector('[aria-current="page"]');
      if (!box || !current) return;
      const style = getComputedStyle(box);
      const outer = box.getBoundingClientRect();
      const right = outer.right - parseFloat(style.paddingRight);
      const left = outer.left + parseFloat(style.paddingLeft);
      const tab = current.getBoundingClientRect();
      if (tab.right > right) box.scrollLeft += tab.right - right;
      else if (tab.left < left) box.scrollLeft -= left - tab.left;
    };
    reveal();
    window.addEventListener('resize', reveal);
    return () => window.removeEventListener('resize', reveal);
  }, [pathname]);
  return (
    <div className="flex flex-col gap-6">
      <PageHeading>{t('reports')}</PageHeading>
      <nav ref={nav} aria-label={t('reports')} className="-mx-4 overflow-x-auto border-b border-stone-200 px-4 sm:mx-0 sm:px-0">
        <ul className="flex w-max gap-1 pr-4 sm:pr-0">
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
      <SaveActionContext.Provider value={saveAction ?? null}>
        <Outlet />
      </SaveActionContext.Provider>
    </div>
  );
}
