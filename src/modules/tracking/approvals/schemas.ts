import { Type, type Static } from '@sinclair/typebox';
import { OrNull } from '../../../http/schemas.ts';
import { REASON_MAX, WARNING_CODES } from './preflight.ts';

/** The bodies of submit, approve and reject: the API's schemas and the service's inputs. */

const Day = (which: string) => Type.String({ format: 'date', description: `YYYY-MM-DD, ${which} day of the period (inclusive).` });
const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });
const Fingerprint = (description: string) => Type.String({ minLength: 1, maxLength: 128, description });

const period = { from: Day('first'), to: Day('last; at most 366 days after from, counting both') };

export const SubmitBody = Type.Object(
  { ...period, fingerprint: Type.Optional(Fingerprint('From an earlier submit response: the period must not have changed since (else 409 submission_stale).')) },
  { additionalProperties: false },
);

const review = {
  user_id: Id('Whose time and expenses. Another workspace\'s person gives 404.'),
  ...period,
  project_id: Type.Optional(Id('Only time and expenses on this project.')),
};

export const ApproveBody = Type.Object(
  {
    ...review,
    preflight_fingerprint: Type.Optional(Fingerprint('The fingerprint of the preflight you reviewed (from an earlier 409).')),
    acknowledged_warning_codes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        maxItems: 20,
        description: `Every warning code of the reviewed preflight: ${WARNING_CODES.join(', ')}. Blockers cannot be acknowledged.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const RejectBody = Type.Object(
  {
    ...review,
    reason: Type.Optional(
      OrNull(Type.String({ maxLength: REASON_MAX, description: `Up to ${REASON_MAX} characters; goes to the e-mail to the person and to the audit log.` })),
    ),
  },
  { additionalProperties: false },
);

export type SubmitInput = Static<typeof SubmitBody>;
export type ApproveInput = Static<typeof ApproveBody>;
export type RejectInput = Static<typeof RejectBody>;
/** Whose period, and on which project: what approve, reject, the preflight and the review share. */
export type ReviewInput = Pick<ApproveInput, 'user_id' | 'from' | 'to' | 'project_id'>;
