import { Type } from '@sinclair/typebox';
import { INVOICE_ACCESS } from '../../../access/invoices.ts';
import { requestDb } from '../../../http/idempotency.ts';
import { IdParams, NoQuery, rejectReadOnly, type TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { presentItemCategory } from './presenter.ts';
import { CreateBody, ITEM_CATEGORY_READ_ONLY, ITEM_CATEGORY_WRITABLE, ItemCategorySchema, PatchBody } from './schemas.ts';
import { createItemCategory, listItemCategories, updateItemCategory } from './service.ts';

/**
 * `/web/api/item-categories`: the web app's invoice item categories (the spec
 * reserves them for the web app: no /api/v2 routes). Listed for whoever uses
 * invoices (the line editor's kind picker); added, renamed, archived and
 * restored by owners and administrators.
 */
export async function itemCategoriesWebRoutes(app: TypedApp) {
  app.get(
    '/web/api/item-categories',
    {
      config: { access: INVOICE_ACCESS, web: true },
      schema: {
        tags: ['web'],
        operationId: 'listItemCategories',
        summary: 'List invoice item categories',
        description: 'Web app only. Owners, administrators and managers. Every category (archived ones too), by name ignoring case.',
        querystring: NoQuery,
        response: { 200: Type.Object({ item_categories: Type.Array(ItemCategorySchema) }, { additionalProperties: false }), ...ErrorResponses },
      },
    },
    async (request) => ({ item_categories: (await listItemCategories(app.db, principalOf(request))).map(presentItemCategory) }),
  );

  app.post(
    '/web/api/item-categories',
    {
      config: { access: 'administrator', web: true, idempotent: true },
      preValidation: rejectReadOnly({
        readOnly: ITEM_CATEGORY_READ_ONLY,
        refused: { fields: ['is_active'], message: () => "'is_active' is not taken on create: a new category is active (archive it afterwards)." },
      }),
      schema: {
        tags: ['web'],
        operationId: 'createItemCategory',
        summary: 'Add an invoice item category',
        description: 'Web app only. Owners and administrators. A name taken in the workspace (ignoring case) is 409 naming `name`.',
        body: CreateBody,
        response: { 201: ItemCategorySchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const row = await createItemCategory(requestDb(request), principalOf(request), request.body, app.config.clock());
      return reply.code(201).send(presentItemCategory(row));
    },
  );

  app.patch(
    '/web/api/item-categories/:id',
    {
      config: { access: 'administrator', web: true, idempotent: true },
      preValidation: rejectReadOnly({ readOnly: ITEM_CATEGORY_READ_ONLY, requireOneOf: ITEM_CATEGORY_WRITABLE }),
      schema: {
        tags: ['web'],
        operationId: 'updateItemCategory',
        summary: 'Rename, archive or restore an invoice item category',
        description:
          'Web app only. Owners and administrators. Lines keep the kind they were given; an archived category stays on them but is not offered for new kinds. ' +
          'Service and Product are built in: renaming or archiving them is 409.',
        params: IdParams,
        body: PatchBody,
        response: { 200: ItemCategorySchema, ...ErrorResponses },
      },
    },
    async (request) => presentItemCategory(await updateItemCategory(requestDb(request), principalOf(request), request.params.id, request.body, app.config.clock())),
  );
}
