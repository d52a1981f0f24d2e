import { isManagerOrAbove } from '../../api/access.ts';

/**
 * Who opens the planner, as the server decides (src/modules/planning: owners, administrators
 * and managers; managers change only the projects they manage, `may_change` says which).
 * Everyone sees their own plan on the home page.
 */
export const mayUsePlanner = isManagerOrAbove;
