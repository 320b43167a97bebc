/**
 * A dare's limits and the deadline rule's messages, with no schema in this module: the rules the
 * web runs on its first load (dare-rules.ts) import them without bringing zod into that load,
 * where it would build its parsers before src/web/lib/zod-jitless.ts turns their `new Function`
 * off, a violation of the page's Content-Security-Policy.
 */
export const DARE_LIMITS = {
  titleMax: 100,
  descriptionMax: 2000,
  maxParticipantsMax: 1000,
  tagsMax: 10,
  tagMax: 30,
  urlMax: 2048,
  /** How far ahead a deadline may be set. */
  deadlineMaxDays: 365,
} as const;

export const DEADLINE_MESSAGES = {
  deadlineRequired: 'Deadline is required',
  deadlineFormat: 'Deadline must be a date and time',
  deadlinePast: 'Deadline must be in the future',
  deadlineTooFar: `Deadline must be within ${DARE_LIMITS.deadlineMaxDays} days`,
} as const;
