import { Type } from '@sinclair/typebox';
import { Enum } from '../../../http/schemas.ts';

/** A new key from the web app's Settings -> API and Developers. */
export const NewKey = Type.Object(
  {
    kind: Enum(['integration', 'personal']),
    name: Type.Optional(Type.String({ maxLength: 255 })),
    user_id: Type.Optional(
      Type.String({ format: 'uuid', description: 'integration: the human or agent member it acts as (default: you); personal: only yourself' }),
    ),
  },
  { additionalProperties: false },
);
