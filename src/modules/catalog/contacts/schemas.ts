import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../http/schemas.ts';
import { CONTACT_LIMITS } from './rules.ts';

const text = (field: keyof typeof CONTACT_LIMITS) => Nullable(Type.String({ maxLength: CONTACT_LIMITS[field] }));

export const ContactCreateBody = Type.Object(
  {
    client_id: Type.String({ description: 'A client of the workspace that the caller sees.' }),
    first_name: Type.String({ minLength: 1, maxLength: CONTACT_LIMITS.first_name }),
    last_name: Type.Optional(text('last_name')),
    title: Type.Optional(text('title')),
    email: Type.Optional(
      Nullable(Type.String({ maxLength: CONTACT_LIMITS.email, format: 'email', description: 'A valid e-mail address.' })),
    ),
    phone_office: Type.Optional(text('phone_office')),
    phone_mobile: Type.Optional(text('phone_mobile')),
    fax: Type.Optional(text('fax')),
  },
  { additionalProperties: false },
);

/** A new contact as the API accepts it. */
export type ContactInput = Static<typeof ContactCreateBody>;
