import type { TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { Workspace, WorkspacePatch } from './schemas.ts';
import { presentWorkspace as present } from './presenter.ts';
import { getWorkspace, updateWorkspaceSettings } from './service.ts';

/**
 * The web app's workspace settings: any member reads them (the pages need the
 * time zone, currency, week start...), owners and administrators change them by
 * the same rules as the operator's `sheaf admin workspace update` (validateSettings).
 */

const tags = ['web'];

export async function settingsWebRoutes(app: TypedApp) {
  app.get(
    '/web/api/workspace',
    {
      config: { access: 'authenticated', web: true },
      schema: {
        tags,
        operationId: 'getWorkspace',
        summary: 'The current workspace\u2019s settings',
        response: { 200: Workspace, ...ErrorResponses },
      },
    },
    async (request) => present(await getWorkspace(app.db, principalOf(request).companyId)),
  );

  app.patch(
    '/web/api/workspace',
    {
      config: { access: 'administrator', web: true },
      schema: {
        tags,
        operationId: 'updateWorkspace',
        summary: 'Change workspace settings (any subset)',
        description:
          'Owners and administrators. `address`, `sender_email`, `sender_phone` and `tax_id` are cleared with null (or ""); ' +
          'the last three are printed on invoices under the name and address.',
        body: WorkspacePatch,
        response: { 200: Workspace, ...ErrorResponses },
      },
    },
    async (request) => {
      const p = principalOf(request);
      return present(await updateWorkspaceSettings(app.db, p, request.body));
    },
  );
}
