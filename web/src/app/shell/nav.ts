import type { ComponentType, SVGProps } from 'react';
import { CheckIcon, ClockIcon, HomeIcon, SettingsIcon } from '../../ui/icons.tsx';
import { ReceiptIcon } from '../../areas/expenses/ReceiptIcon.tsx';
import { TimeOffIcon } from '../../areas/time-off/TimeOffIcon.tsx';
import { InvoiceIcon } from '../../areas/invoices/InvoiceIcon.tsx';
import { mayUseInvoices } from '../../areas/invoices/access.ts';
import { EstimateIcon } from '../../areas/estimates/EstimateIcon.tsx';
import { ClientIcon } from '../../areas/clients/ClientIcon.tsx';
import { TaskIcon } from '../../areas/tasks/TaskIcon.tsx';
import { FolderIcon } from '../../areas/projects/FolderIcon.tsx';
import { ReportsIcon } from '../../areas/reports/ReportsIcon.tsx';
import { PlanningIcon } from '../../areas/planning/PlanningIcon.tsx';
import { mayUsePlanner } from '../../areas/planning/access.ts';
import { usesWorkspace } from '../../api/access.ts';

export interface NavEntry {
  to: string;
  /** The key of its name in the shell's texts (app/texts.ts, `nav.*`). */
  label: 'home' | 'time' | 'timeOff' | 'expenses' | 'approvals' | 'planning' | 'projects' | 'clients' | 'tasks' | 'reports' | 'invoices' | 'estimates' | 'settings';
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Active on this path only (the start page), not on every path below it. */
  end?: boolean;
  /** Shown only to whom this says may use the area (the rule its route guard applies; the server still decides); absent: everyone. */
  visible?: (workspace: { role: string; permissions?: readonly string[] }) => boolean;
}

/**
 * The main navigation: only areas that exist. Each area adds its entry as it arrives,
 * in this order: Time, Time off, Expenses, Approvals, Planning, Projects, Clients, Tasks, Reports, Invoices, Estimates, Settings.
 */
export const NAV: NavEntry[] = [
  { to: '/', label: 'home', icon: HomeIcon, end: true },
  { to: '/time', label: 'time', icon: ClockIcon, visible: usesWorkspace },
  { to: '/time-off', label: 'timeOff', icon: TimeOffIcon, visible: usesWorkspace },
  { to: '/expenses', label: 'expenses', icon: ReceiptIcon, visible: usesWorkspace },
  { to: '/approvals', label: 'approvals', icon: CheckIcon, visible: usesWorkspace },
  { to: '/planning', label: 'planning', icon: PlanningIcon, visible: mayUsePlanner },
  { to: '/projects', label: 'projects', icon: FolderIcon, visible: usesWorkspace },
  { to: '/clients', label: 'clients', icon: ClientIcon, visible: usesWorkspace },
  { to: '/tasks', label: 'tasks', icon: TaskIcon, visible: usesWorkspace },
  { to: '/reports', label: 'reports', icon: ReportsIcon, visible: usesWorkspace },
  { to: '/invoices', label: 'invoices', icon: InvoiceIcon, visible: mayUseInvoices },
  { to: '/estimates', label: 'estimates', icon: EstimateIcon, visible: mayUseInvoices },
  { to: '/settings', label: 'settings', icon: SettingsIcon },
];
