import { DARE_LIMITS } from './dare-limits';
import { text } from './text';

export { DARE_LIMITS };

export const DARE_TEXT_MESSAGES = {
  titleRequired: 'Title is required',
  titleMax: `Title must be at most ${DARE_LIMITS.titleMax} characters`,
  descriptionRequired: 'Description is required',
  descriptionMax: `Description must be at most ${DARE_LIMITS.descriptionMax} characters`,
} as const;

/**
 * A dare's title and description. Their own module so the payment request can check them too
 * (payments.ts cannot import dares.ts, which imports it): a dare that could never be recorded is
 * refused before its stake is built, not after the SOL moved.
 */
export const titleSchema = text({ error: DARE_TEXT_MESSAGES.titleRequired })
  .trim()
  .min(1, DARE_TEXT_MESSAGES.titleRequired)
  .max(DARE_LIMITS.titleMax, DARE_TEXT_MESSAGES.titleMax);
export const descriptionSchema = text({ error: DARE_TEXT_MESSAGES.descriptionRequired })
  .trim()
  .min(1, DARE_TEXT_MESSAGES.descriptionRequired)
  .max(DARE_LIMITS.descriptionMax, DARE_TEXT_MESSAGES.descriptionMax);
