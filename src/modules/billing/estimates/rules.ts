import type { EstimateState } from '../../../db/types.ts';
import { conflict } from '../../../errors.ts';
import { documentFilename } from '../invoices/index.ts';

/**
 * Estimate states and the moves between them (no I/O). Field rules (numbers,
 * percentages, texts, lines) are the invoices' own, through their index.
 *
 *   draft ──send──▶ sent ──accept──▶ accepted ──convert──▶ (a draft invoice)
 *     ▲               └────decline──▶ declined
 *     └──────────────reopen────────────┘
 *
 * Accepted is final (it may be converted once); a declined estimate may be
 * reopened as a draft, to revise and send again (Harvest's "reopen").
 */

export const ESTIMATE_STATES = ['draft', 'sent', 'accepted', 'declined'] as const satisfies readonly EstimateState[];

export type EstimateAction = 'edit' | 'send' | 'accept' | 'decline' | 'reopen' | 'convert';

/** The states each action starts from. */
const FROM: Record<EstimateAction, readonly EstimateState[]> = {
  edit: ['draft', 'sent'],
  send: ['draft', 'sent'],
  accept: ['sent'],
  decline: ['sent'],
  reopen: ['declined'],
  convert: ['accepted'],
};

const WHY: Record<EstimateAction, string> = {
  edit: 'Only draft and sent estimates can be changed',
  send: 'Only draft and sent estimates can be sent',
  accept: 'Only sent estimates can be accepted',
  decline: 'Only sent estimates can be declined',
  reopen: 'Only declined estimates can be reopened',
  convert: 'Only accepted estimates can be converted to an invoice',
};

/** Whether `action` may start from `state`. */
export const allows = (action: EstimateAction, state: EstimateState) => FROM[action].includes(state);

/** 409 naming the state (field `state`) unless `action` may start from `state`. */
export function assertAllows(action: EstimateAction, state: EstimateState) {
  if (!allows(action, state)) throw conflict(`${WHY[action]}; this one is ${state}.`, { field: 'state', state, refusal: 'estimate_state' });
}

/** The state an answer leads to, and the timestamp column it stamps. */
export const ANSWERS = {
  accept: { to: 'accepted', stamp: 'accepted_at' },
  decline: { to: 'declined', stamp: 'declined_at' },
} as const;
export type EstimateAnswer = keyof typeof ANSWERS;

/** The estimate's PDF, named in the client's language (invoices' documentFilename). */
export const pdfFilename = (number: string, language: string) => documentFilename('estimate', number, language);

/**
 * How an estimate refuses a negative quantity or unit price: it has no credit lines (the
 * invoices' hint would point at an `effect` it does not take), so it says what it takes.
 */
export const NEGATIVE_LINE_HINT = " An estimate's lines are charges with a quantity and a unit price of zero or more; to lower its total, use its discount.";
