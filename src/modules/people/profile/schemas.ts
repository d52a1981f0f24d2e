import { Type } from '@sinclair/typebox';
import { Nullable } from '../../../http/schemas.ts';
import { Preferences } from '../sessions/index.ts';
import { DATE_FORMATS, DURATION_FORMATS, LANGUAGES, THEMES } from '../users/index.ts';

/** A person's own profile and the changes they make to it. */

export const ProfileSchema = Type.Object({
  id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  pending_email: Nullable(Type.String({ description: 'An address waiting for its confirmation link to be opened.' })),
  has_password: Type.Boolean(),
  preferences: Preferences,
});

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const Name = (maxLength: number) => Type.String({ maxLength });

export const ProfilePatch = Type.Object(
  {
    first_name: Type.Optional(Name(255)),
    last_name: Type.Optional(Name(255)),
    language: Type.Optional(literals(LANGUAGES)),
    date_format: Type.Optional(literals(DATE_FORMATS)),
    duration_format: Type.Optional(literals(DURATION_FORMATS)),
    theme: Type.Optional(literals(THEMES)),
  },
  { additionalProperties: false },
);

export const EmailChange = Type.Object(
  { email: Type.String({ maxLength: 320 }), current_password: Type.Optional(Type.String({ maxLength: 1024 })) },
  { additionalProperties: false },
);
export const Identity = Type.Object(
  { first_name: Name(255), last_name: Name(255), email: Type.String({ maxLength: 320 }) },
  { additionalProperties: false },
);
