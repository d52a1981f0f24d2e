/**
 * The codes of the approval preflight's blockers and warnings (preflight.ts runs it).
 * No imports: the web app reads this list too, to word each code in the person's language
 * (web/src/areas/approvals/findings.ts, whose test fails for a code it has no text for).
 */
export const BLOCKER_CODES = ['running_timer', 'unsubmitted_time'] as const;
export const WARNING_CODES = ['hours_below_expected', 'outside_working_capacity', 'overlapping_entries', 'break_missing'] as const;
