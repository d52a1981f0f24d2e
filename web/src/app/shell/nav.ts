import type { ComponentType, SVGProps } from 'react';
import { CheckIcon, ClockIcon, HomeIcon, SettingsIcon } from '../../ui/icons.tsx';
import { ReceiptIcon } from '../../areas/expenses/ReceiptIcon.tsx';
import { InvoiceIcon } from '../../areas/invoices/InvoiceIcon.tsx';
import { mayUseInvoices } from '../../areas/invoices/access.ts';
import { ClientIcon } from '../../areas/clients/ClientIcon.tsx';
import { TaskIcon } from '../../areas/tasks/TaskIcon.tsx';
import { FolderIcon } from '../../areas/projects/FolderIcon.tsx';
import { ReportsIcon } from '../../areas/reports/ReportsIcon.tsx';
import { usesWorkspace } from '../../api/access.ts';

export interface NavEntry {
  to: string;
  label: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  /** Active on this path only (the start page), not on every path below it. */
  end?: boolean;
  /** Shown only to whom this says may use the area (the rule its route guard applies; the server still decides); absent: everyone. */
  visible?: (workspace: { role: string; permissions?: readonly string[] }) => boolean;
}

/**
 * The main navigation: only areas that exist. Each area adds its entry as it arrives,
 * in this order: Time, Expenses, Approvals, Projects, Clients, Tasks, Reports, Invoices, Settings.
 */
export const NAV: NavEntry[] = [
  { to: '/', label: 'Home', icon: HomeIcon, end: true },
  { to: '/time', label: 'Time', icon: ClockIcon, visible: usesWorkspace },
  { to: '/expenses', label: 'Expenses', icon: ReceiptIcon, visible: usesWorkspace },
  { to: '/approvals', label: 'Approvals', icon: CheckIcon, visible: usesWorkspace },
  { to: '/projects', label: 'Projects', icon: FolderIcon, visible: usesWorkspace },
  { to: '/clients', label: 'Clients', icon: ClientIcon, visible: usesWorkspace },
  { to: '/tasks', label: 'Tasks', icon: TaskIcon, visible: usesWorkspace },
  { to: '/reports', label: 'Reports', icon: ReportsIcon, visible: usesWorkspace },
  { to: '/invoices', label: 'Invoices', icon: InvoiceIcon, visible: mayUseInvoices },
  { to: '/settings', label: 'Settings', icon: SettingsIcon },
];
