import { Type } from '@sinclair/typebox';
import { Nullable } from '../../../http/schemas.ts';

/** Passkeys (WebAuthn): what the web app sends and receives. docs/decisions.md, "Passkeys". */

export const Passkey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
  synced: Type.Boolean({ description: 'The passkey is backed up by its provider (synced across devices), not bound to one device.' }),
});

export const PasskeyList = Type.Object({ passkeys: Type.Array(Passkey) });

export const PasskeyName = Type.String({ minLength: 1, maxLength: 100, description: 'Your label for it, e.g. "MacBook Touch ID".' });

/**
 * The browser's answer to a WebAuthn ceremony, as navigator.credentials returns it in JSON
 * (@simplewebauthn/browser's startRegistration / startAuthentication). Open beyond the fields
 * read here: browsers add fields over time, and the library checks the rest.
 */
export const WebAuthnResponse = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 1400 }),
    rawId: Type.String({ minLength: 1, maxLength: 1400 }),
    type: Type.Literal('public-key'),
    response: Type.Object({ clientDataJSON: Type.String({ minLength: 1, maxLength: 10_000 }) }, { additionalProperties: true }),
    clientExtensionResults: Type.Object({}, { additionalProperties: true }),
    authenticatorAttachment: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: true },
);

export const AddPasskey = Type.Object({ name: Type.Optional(PasskeyName), credential: WebAuthnResponse }, { additionalProperties: false });

export const RenamePasskey = Type.Object({ name: PasskeyName }, { additionalProperties: false });

export const CeremonyOptions = Type.Object({
  options: Type.Unknown({ description: 'The options for navigator.credentials (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON); valid 5 minutes, once.' }),
});

export const PasskeySignInOptionsBody = Type.Object(
  {
    challenge: Type.Optional(
      Type.String({ maxLength: 200, description: "A sign-in's two-factor challenge (202 of a sign-in): the passkey is then its second step, and must be the person's." }),
    ),
  },
  { additionalProperties: false },
);

export const PasskeySignIn = Type.Object(
  {
    credential: WebAuthnResponse,
    challenge: Type.Optional(Type.String({ maxLength: 200, description: "The two-factor challenge, when the passkey is a sign-in's second step." })),
  },
  { additionalProperties: false },
);
