import { Type } from '@sinclair/typebox';
import { Nullable } from '../../../http/schemas.ts';
import { SecondFactorCode } from '../sessions/index.ts';
import { Passkey } from '../passkeys/index.ts';

/** A person's two-factor sign-in (Settings → Profile). */

export const TwoFactorState = Type.Object({
  enabled: Type.Boolean(),
  enabled_at: Nullable(Type.String({ format: 'date-time' })),
  recovery_codes_left: Type.Integer({ description: 'Unused recovery codes (0 when two-factor sign-in is off).' }),
  required: Type.Boolean({ description: 'The current workspace requires two-factor sign-in.' }),
  available: Type.Boolean({ description: 'The server has the secret key two-factor secrets are kept under (SHEAF_SECRET_KEY); without it, set-up is refused.' }),
  passkeys: Type.Array(Passkey, { description: 'Your passkeys, the other second factor (as GET /web/api/passkeys), so the profile reads both in one call.' }),
});

export const TwoFactorSetup = Type.Object({
  secret: Type.String({ description: 'The secret in base32, for typing into an authenticator app by hand.' }),
  otpauth_uri: Type.String({ description: 'The otpauth:// URI the QR code holds.' }),
  qr_svg: Type.String({ description: 'The QR code of otpauth_uri as an SVG document.' }),
});

export const RecoveryCodes = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: 'Ten one-time recovery codes: shown this once, stored only hashed.' }),
});


export const ConfirmCode = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 32, description: 'The 6 digits the authenticator app shows now.' }) },
  { additionalProperties: false },
);

export const CodeOnly = Type.Object({ code: SecondFactorCode }, { additionalProperties: false });

export const DisableTwoFactor = Type.Object(
  { current_password: Type.Optional(Type.String({ maxLength: 1024 })), code: SecondFactorCode },
  { additionalProperties: false },
);
