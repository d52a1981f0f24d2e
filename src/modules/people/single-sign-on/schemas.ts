import { Type } from '@sinclair/typebox';
import { Enum } from '../../../http/schemas.ts';
import { NEW_MEMBER_ROLES } from './rules.ts';

/** A workspace's single sign-on (Settings → Single sign-on) and the sign-in page's discovery. */

const Domain = Type.String({ minLength: 1, maxLength: 253, description: 'An e-mail domain, such as example.com.' });

/** What the settings page reads: never the client secret, only whether one is set. */
export const SingleSignOnConfig = Type.Object({
  enabled: Type.Boolean({ description: 'Single sign-on is set up for this workspace (the rest is null/empty when it is not).' }),
  issuer: Type.Union([Type.String(), Type.Null()]),
  client_id: Type.Union([Type.String(), Type.Null()]),
  client_secret_set: Type.Boolean({ description: 'A client secret is stored (sealed); it is never shown again.' }),
  allowed_domains: Type.Array(Type.String()),
  new_member_role: Enum(NEW_MEMBER_ROLES, 'The role of people who join by signing in.'),
  allow_password_sign_in: Type.Boolean(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  redirect_uri: Type.String({ description: 'The redirect URI to register at the identity provider (one for every workspace).' }),
  available: Type.Boolean({ description: 'The server has the secret key (SHEAF_SECRET_KEY) client secrets are sealed with; without it, saving is refused.' }),
});

export const SingleSignOnInput = Type.Object(
  {
    issuer: Type.String({ minLength: 1, maxLength: 2000, description: 'The issuer URL (its /.well-known/openid-configuration is read when saving).' }),
    client_id: Type.String({ minLength: 1, maxLength: 500 }),
    client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Required the first time; left out, the stored one is kept.' })),
    allowed_domains: Type.Array(Domain, { maxItems: 50, description: 'E-mail domains whose people may join the workspace by signing in; empty: nobody joins that way.' }),
    new_member_role: Enum(NEW_MEMBER_ROLES, 'The role of people who join by signing in (never owner).'),
    allow_password_sign_in: Type.Boolean({ description: 'false: people whose every workspace signs in this way lose password sign-in (owners keep it).' }),
    display_name: Type.String({ minLength: 1, maxLength: 100, description: 'Shown on the sign-in page: "Sign in with <display_name>".' }),
  },
  { additionalProperties: false },
);

export const DiscoverQuery = Type.Object(
  {
    email: Type.Optional(Type.String({ maxLength: 320 })),
    workspace: Type.Optional(Type.String({ maxLength: 64, description: 'A workspace id, for a /sign-in?workspace=<id> link.' })),
  },
  { additionalProperties: false },
);

export const Discovered = Type.Array(
  Type.Object({
    workspace_id: Type.String(),
    name: Type.String({ description: 'The name the workspace gave its sign-in button.' }),
  }),
);

export const StartParams = Type.Object({ workspace_id: Type.String({ maxLength: 64 }) });
export const StartQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) }, { additionalProperties: false });

/** What the provider sends back; anything else it adds (session_state, iss, …) is passed on to openid-client. */
export const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4000 })),
    state: Type.Optional(Type.String({ maxLength: 500 })),
    error: Type.Optional(Type.String({ maxLength: 500 })),
    error_description: Type.Optional(Type.String({ maxLength: 4000 })),
  },
  { additionalProperties: Type.String({ maxLength: 4000 }) },
);
