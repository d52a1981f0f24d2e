import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { call } from '../../api/call.ts';
import { markStale } from '../../api/stale.ts';
import { idempotencyHeader } from '../../api/idempotency.ts';
import type { paths } from '../../api/schema';

/**
 * The clients area's data (WEB-STYLE 2): keys rooted at the API collections
 * (['clients', ...], ['contacts', ...]) and built from the API's own query, so the same
 * request shares one cache entry wherever it is made; one hook per operation; an
 * Idempotency-Key on every create; If-Match with the ETag of the GET on every change.
 */

export type Client = paths['/api/v2/clients/{id}']['get']['responses'][200]['content']['application/json'];
export type ClientList = paths['/api/v2/clients']['get']['responses'][200]['content']['application/json'];
export type ClientsQuery = NonNullable<paths['/api/v2/clients']['get']['parameters']['query']>;
export type ClientCreate = paths['/api/v2/clients']['post']['requestBody']['content']['application/json'];
export type ClientChanges = paths['/api/v2/clients/{id}']['patch']['requestBody']['content']['application/json'];
export type Contact = paths['/api/v2/contacts']['get']['responses'][200]['content']['application/json']['contacts'][number];
export type ContactCreate = paths['/api/v2/contacts']['post']['requestBody']['content']['application/json'];

/**
 * One request per list page, as large as the API allows: the name search runs over the
 * loaded page in the browser (the API has no name query), and the table draws a slice.
 */
export const LIST_PER_PAGE = 2000;

export const clientsQuery = (query: ClientsQuery) =>
  queryOptions({
    queryKey: ['clients', 'list', { per_page: LIST_PER_PAGE, ...query }],
    queryFn: () => call(api.GET('/api/v2/clients', { params: { query: { per_page: LIST_PER_PAGE, ...query } } })),
    placeholderData: keepPreviousData,
  });

/** A client with the ETag of exactly this body (what If-Match must carry). */
export const clientQuery = (id: string) =>
  queryOptions({
    queryKey: ['clients', 'one', id],
    queryFn: async () => {
      let etag = '';
      const client = await call(
        api.GET('/api/v2/clients/{id}', { params: { path: { id } } }).then((r) => {
          etag = r.response.headers.get('etag') ?? '';
          return r;
        }),
      );
      return { client, etag };
    },
  });

export const contactsQuery = (clientId: string) =>
  queryOptions({
    queryKey: ['contacts', 'list', { client_id: clientId, per_page: LIST_PER_PAGE }],
    queryFn: () => call(api.GET('/api/v2/contacts', { params: { query: { client_id: clientId, per_page: LIST_PER_PAGE } } })),
  });

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: ClientCreate; key: string }) =>
      call(api.POST('/api/v2/clients', { body, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'client'),
  });
}

/** A PATCH of only the changed fields, with If-Match: a 412 means someone else changed the client meanwhile. */
export function useUpdateClient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ changes, etag }: { changes: ClientChanges; etag?: string }) => {
      let next = '';
      const client = await call(
        api
          .PATCH('/api/v2/clients/{id}', { params: { path: { id } }, body: changes, headers: etag ? { 'If-Match': etag } : {} })
          .then((r) => {
            next = r.response.headers.get('etag') ?? '';
            return r;
          }),
      );
      return { client, etag: next };
    },
    onSuccess: (fresh) => queryClient.setQueryData(clientQuery(id).queryKey, fresh),
    onSettled: () => markStale(queryClient, 'client'),
  });
}

/** Deletes an archived client; the API requires If-Match with its current ETag. */
export function useDeleteClient(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (etag: string) => call(api.DELETE('/api/v2/clients/{id}', { params: { path: { id }, header: { 'If-Match': etag } } })),
    onSuccess: () => queryClient.removeQueries({ queryKey: clientQuery(id).queryKey }),
    onSettled: () => markStale(queryClient, 'client'),
  });
}

export function useCreateContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: ContactCreate; key: string }) =>
      call(api.POST('/api/v2/contacts', { body, headers: idempotencyHeader(key) })),
    onSettled: () => markStale(queryClient, 'contact'),
  });
}
