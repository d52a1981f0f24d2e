import { lazy, Suspense, useState } from 'react';
import { DialogTrigger } from 'react-aria-components';
import { Outlet } from 'react-router';
import { useSession } from '../../api/session.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { MenuIcon } from '../../ui/icons.tsx';
import { Logo } from '../../ui/Logo.tsx';
import { DateOrderContext } from '../../ui/date-order.ts';
import { WeekStartContext, firstDayOfWeek } from '../../ui/week-start.ts';
import { useStackedTables } from '../../ui/stacked-tables.ts';
import { focusRingCss } from '../../ui/styles.ts';
import { useApplyPreferences } from '../preferences.ts';
import { useTexts } from '../texts.ts';
import { NoWorkspace } from './NoWorkspace.tsx';
import { Shortcuts } from './Shortcuts.tsx';
import { SidebarContent } from './Sidebar.tsx';

// The timer bar of every page (areas/time), in its own chunk: the first load stays small.
const TimerBar = lazy(() => import('../../areas/time/TimerBar.tsx'));

/**
 * The signed-in frame: a fixed sidebar from 768 px up; below, a top bar whose Menu
 * opens the same navigation in a side panel. The page is in <main>, after a skip link.
 */
export function AppShell() {
  const session = useSession();
  useApplyPreferences(session.user.preferences);
  const [menuOpen, setMenuOpen] = useState(false);
  const t = useTexts();
  useStackedTables();
  if (!session.workspace) return <NoWorkspace session={session} />;
  const { workspace } = session;

  return (
    <DateOrderContext.Provider value={session.user.preferences.date_format}>
      <WeekStartContext.Provider value={firstDayOfWeek(workspace.week_start)}>
        <div className="min-h-dvh">
          <a
            href="#main"
            className={`sr-only rounded-md bg-white px-4 py-2 text-sm font-medium text-teal-900 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 ${focusRingCss}`}
          >
            {t('skipToContent')}
          </a>

          <aside className="fixed inset-y-0 left-0 hidden w-64 flex-col border-r border-stone-200 bg-white md:flex">
            <div className="px-6 pt-5">
              <Logo />
            </div>
            <SidebarContent />
          </aside>

          <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-stone-200 bg-white px-4 md:hidden">
            <Logo />
            <span className="min-w-0 flex-1 truncate text-right text-sm text-stone-600" title={workspace.name}>
              {workspace.name}
            </span>
            <DialogTrigger isOpen={menuOpen} onOpenChange={setMenuOpen}>
              <Button variant="secondary" className="min-h-10 px-3">
                <MenuIcon className="size-5" />
                {t('menu')}
              </Button>
              <Dialog title={t('menu')} placement="side">
                <SidebarContent onNavigate={() => setMenuOpen(false)} />
              </Dialog>
            </DialogTrigger>
          </header>

          <Shortcuts />
          <main id="main" tabIndex={-1} className="outline-none md:pl-64">
            <Suspense fallback={<div className="h-[4.5rem] border-b border-stone-200 bg-white" />}>
              <TimerBar />
            </Suspense>
            <div className="mx-auto max-w-5xl px-4 py-6 sm:px-6 md:px-10 md:py-10">
              <Outlet />
            </div>
          </main>
        </div>
      </WeekStartContext.Provider>
    </DateOrderContext.Provider>
  );
}
