// TEMPORARY bridge, deleted when the lead's /web/api session routes are merged and
// `npm run web:api` puts them in schema.d.ts: their types, written from
// /work/briefs/web-contract.md, so the client type-checks meanwhile.
import type {} from './schema';

type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type NoContent = { headers: { [name: string]: unknown }; content?: never };
type ErrorBody = { error: string; error_description: string; message: string; field?: string; [extra: string]: unknown };
type NoParams = { query?: never; header?: never; path?: never; cookie?: never };
type Op<Body, Responses> = { parameters: NoParams; requestBody: { content: { 'application/json': Body } }; responses: Responses };
type Get<Responses> = { parameters: NoParams; requestBody?: never; responses: Responses };

type Session = {
  user: { id: string; email: string; first_name: string; last_name: string; has_password: boolean };
  workspace: { id: string; name: string; role: string; permissions: string[]; is_contractor: boolean };
  workspaces: { id: string; name: string; role: string }[];
  csrf_token: string;
};

type NoMethods = { get?: never; put?: never; post?: never; delete?: never; options?: never; head?: never; patch?: never; trace?: never };
type Path<Methods> = { parameters: NoParams } & Omit<NoMethods, keyof Methods> & Methods;

declare module './schema' {
  interface paths {
    '/web/api/session': Path<{
      get: Get<{ 200: Json<Session>; 401: Json<ErrorBody> }>;
      post: Op<{ email: string; password: string }, { 200: Json<Session>; 401: Json<ErrorBody>; 429: Json<ErrorBody> }>;
      delete: Get<{ 204: NoContent }>;
    }>;
    '/web/api/session/workspace': Path<{ put: Op<{ company_id: string }, { 200: Json<Session>; 404: Json<ErrorBody> }> }>;
    '/web/api/sign-in-links/redeem': Path<{ post: Op<{ token: string }, { 200: Json<Session>; 400: Json<ErrorBody> }> }>;
    '/web/api/password': Path<{ put: Op<{ current_password?: string; password: string }, { 204: NoContent; 400: Json<ErrorBody> }> }>;
    '/web/api/password-resets': Path<{ post: Op<{ email: string }, { 202: NoContent }> }>;
    '/web/api/password-resets/redeem': Path<{ post: Op<{ token: string; password: string }, { 200: Json<Session>; 400: Json<ErrorBody> }> }>;
  }
}
