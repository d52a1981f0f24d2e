import { Type } from '@sinclair/typebox';
import { requestDb } from '../../../http/idempotency.ts';
import { IdParams, NoQuery, rejectReadOnly, type TypedApp } from '../../../http/route-kit.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { principalOf } from '../../../http/security.ts';
import { presentBankAccount } from './presenter.ts';
import { BANK_ACCOUNT_READ_ONLY, BANK_ACCOUNT_WRITABLE } from './rules.ts';
import { BankAccountSchema, CreateBody, PatchBody } from './schemas.ts';
import { createBankAccount, deleteBankAccount, getBankAccount, listBankAccounts, updateBankAccount } from './service.ts';

/**
 * `/web/api/bank_accounts`: Settings → Bank accounts in the web app (issue 25 item
 * 2). The API has no bank accounts (the spec names them only as a backup resource),
 * so these are session-only routes, for owners and administrators; the command line
 * has `sheaf admin bank-account`.
 */
export async function bankAccountsWebRoutes(app: TypedApp) {
  const access = { access: 'administrator', web: true } as const;

  app.get(
    '/web/api/bank_accounts',
    {
      config: access,
      schema: {
        tags: ['web'],
        operationId: 'listBankAccounts',
        summary: 'List the bank accounts',
        description: 'Web app only, owners and administrators. By currency, the default first.',
        querystring: NoQuery,
        response: { 200: Type.Object({ bank_accounts: Type.Array(BankAccountSchema) }), ...ErrorResponses },
      },
    },
    async (request) => ({ bank_accounts: (await listBankAccounts(app.db, principalOf(request))).map(presentBankAccount) }),
  );

  app.get(
    '/web/api/bank_accounts/:id',
    {
      config: access,
      schema: {
        tags: ['web'],
        operationId: 'getBankAccount',
        summary: 'Get a bank account',
        description: 'Web app only, owners and administrators. Unknown and other-workspace ids are 404.',
        params: IdParams,
        querystring: NoQuery,
        response: { 200: BankAccountSchema, ...ErrorResponses },
      },
    },
    async (request) => presentBankAccount(await getBankAccount(app.db, principalOf(request), request.params.id)),
  );

  app.post(
    '/web/api/bank_accounts',
    {
      config: { ...access, idempotent: true },
      preValidation: rejectReadOnly({ readOnly: BANK_ACCOUNT_READ_ONLY }),
      schema: {
        tags: ['web'],
        operationId: 'createBankAccount',
        summary: 'Add a bank account',
        description:
          'Web app only, owners and administrators. An IBAN (checked: country format and check digits) or a local account, or both. ' +
          'The first account of a currency becomes its default unless is_default is false; is_default true ends the previous default. ' +
          'Invalid values are 400 naming the field. Accepts an Idempotency-Key.',
        body: CreateBody,
        response: { 201: BankAccountSchema, ...ErrorResponses },
      },
    },
    async (request, reply) => {
      const row = await createBankAccount(requestDb(request), principalOf(request), request.body, app.config.clock());
      return reply.code(201).send(presentBankAccount(row));
    },
  );

  app.patch(
    '/web/api/bank_accounts/:id',
    {
      config: { ...access, idempotent: true },
      preValidation: rejectReadOnly({ readOnly: BANK_ACCOUNT_READ_ONLY, requireOneOf: BANK_ACCOUNT_WRITABLE }),
      schema: {
        tags: ['web'],
        operationId: 'updateBankAccount',
        summary: 'Change a bank account, or make it the default of its currency',
        description: 'Web app only, owners and administrators. At least one writable property; is_default true makes it its currency’s default.',
        params: IdParams,
        body: PatchBody,
        response: { 200: BankAccountSchema, ...ErrorResponses },
      },
    },
    async (request) => presentBankAccount(await updateBankAccount(requestDb(request), principalOf(request), request.params.id, request.body, app.config.clock())),
  );

  app.delete(
    '/web/api/bank_accounts/:id',
    {
      config: access,
      schema: {
        tags: ['web'],
        operationId: 'deleteBankAccount',
        summary: 'Delete a bank account',
        description:
          'Web app only, owners and administrators. Invoices print the default account of their currency when rendered, so a deleted account is on no PDF from then on; ' +
          'when it was the default, the oldest other account of its currency becomes the default.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...ErrorResponses },
      },
    },
    async (request, reply) => {
      await deleteBankAccount(app.db, principalOf(request), request.params.id, app.config.clock());
      return reply.code(204).send(null);
    },
  );
}
