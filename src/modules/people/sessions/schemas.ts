import { Type } from '@sinclair/typebox';
import { Nullable } from '../../../http/schemas.ts';
import { DATE_FORMATS, DURATION_FORMATS, LANGUAGES, THEMES } from '../users/index.ts';

/** The schemas the web app's sign-in shares with the profile and the invitations. */

/** One of the languages Sheaf's catalogs have. */
function language(description: string) {
  return Type.Union(LANGUAGES.map((l) => Type.Literal(l)), { description });
}

/** A person's display preferences (Settings → Profile). */
export const Preferences = Type.Object({
  language: language('The web app\'s language.'),
  date_format: Type.Union(DATE_FORMATS.map((f) => Type.Literal(f)), { description: 'How dates are shown.' }),
  duration_format: Type.Union(DURATION_FORMATS.map((f) => Type.Literal(f)), { description: 'Durations as hours:minutes (1:30) or decimal hours (1.50).' }),
  theme: Type.Union(THEMES.map((t) => Type.Literal(t)), { description: 'The colour theme: the device\'s (system), light or dark.' }),
});

const Role = Type.String({ description: 'owner, administrator, manager, member or client' });
export const Session = Type.Object({
  user: Type.Object({
    id: Type.String(),
    email: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    has_password: Type.Boolean(),
    needs_identity: Type.Boolean({ description: 'The first start\'s placeholder owner: ask for a real name and e-mail address (PUT /web/api/profile/identity) first.' }),
    preferences: Preferences,
  }),
  workspace: Nullable(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      role: Role,
      permissions: Type.Array(Type.String()),
      is_contractor: Type.Boolean(),
      timezone: Type.String({ description: 'The workspace\'s IANA time zone: calendar days and instants are shown in it.' }),
      currency: Type.String({ description: 'The workspace\'s default currency (ISO 4217).' }),
      week_start: Type.String({ description: 'The first day of the workspace\'s week (monday … sunday).' }),
      require_two_factor: Type.Boolean({ description: 'Everyone signing in to the workspace needs two-factor codes.' }),
    }),
  ),
  two_factor: Type.Object({
    enabled: Type.Boolean({ description: 'The person signs in with a two-factor code.' }),
    enrolment_required: Type.Boolean({
      description: 'The workspace requires a second factor and the person has none (no codes, no passkey): until they set one up, every other request is 403 two_factor_enrolment_required.',
    }),
  }),
  workspaces: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), role: Role })),
  csrf_token: Type.String({ description: 'Send it back in X-CSRF-Token on every change made with this session.' }),
});

/** A one-time link's token (a sign-in link, a password reset, an invitation, an address confirmation). */
export const Token = Type.Object({ token: Type.String({ maxLength: 200 }) }, { additionalProperties: false });

/**
 * The language of the page a link was opened on (the browser's, before anyone chose one): an
 * account that has never signed in takes it, so its first pages and e-mails are in it.
 */
export const PageLanguage = Type.Optional(language("The page's language; an account that has never signed in (no password yet) takes it as its own."));

export const SignInLink = Type.Object({ token: Type.String({ maxLength: 200 }), language: PageLanguage }, { additionalProperties: false });

export const SignIn = Type.Object(
  { email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);

export const NewPassword = Type.Object(
  { current_password: Type.Optional(Type.String({ maxLength: 1024 })), password: Type.String({ maxLength: 1024 }) },
  { additionalProperties: false },
);

export const ResetRedeem = Type.Object({ token: Type.String({ maxLength: 200 }), password: Type.String({ maxLength: 1024 }) }, { additionalProperties: false });

/** The answer to a right password (or link) of an account with two-factor codes: the code is asked next. */
export const SecondFactorChallenge = Type.Object({
  second_factor_required: Type.Literal(true),
  challenge: Type.String({ description: 'Send it with the code to POST /web/api/session/two-factor, or with a passkey to POST /web/api/session/passkey (5 minutes, once).' }),
  expires_at: Type.String({ format: 'date-time' }),
  methods: Type.Array(Type.Union([Type.Literal('totp'), Type.Literal('passkey')]), {
    description: 'The second factors the person has: codes from an authenticator app (or a recovery code), passkeys.',
  }),
});

/** A two-factor code: the 6 digits of the authenticator app, or a recovery code (xxxxx-xxxxx). */
export const SecondFactorCode = Type.String({ minLength: 1, maxLength: 32, description: 'The 6 digits your authenticator app shows, or a recovery code.' });

export const SecondFactorSignIn = Type.Object(
  { challenge: Type.String({ maxLength: 200 }), code: SecondFactorCode },
  { additionalProperties: false },
);
