/** What the rest of Sheaf may use of this area (docs/architecture.md); everything else is internal. */
export { ENTERED_PERSON_TIME, assertNotLocked, assertWeeksOpen, enterPersonTimeNoted, enteredPersonTime, holdsApproved, lockPersonTimeForApproval, lockPersonTimers, tryEnterPersonTime, weekLockedError, weeksOf } from './lock.ts';
export { sheetPerson } from './person.ts';
export { loadTimeSettings, peopleNamed, projectsWithOwnAssignment, withTimeSettings } from './queries.ts';
export type { TimeSettings } from './queries.ts';
export { findRecord, listRecords, recordConditions } from './records.ts';
export type { RecordFilter, RecordTable } from './records.ts';
export { HOURS_DECIMALS, checkSpentDate, checkWeekDate, entryRoundedHours, hoursToSeconds, isRuleError, roundHours, roundHoursNumber, roundMicroHours, sameJson, secondsToHours, secondsToHoursNumber, wallClockInstant, wallClockOf, wallClockSeconds, weekEndOf, weekStartOf } from './rules.ts';
export type { RoundingRule, RuleError } from './rules.ts';
export { roundedMicroSql } from './rounding-sql.ts';
