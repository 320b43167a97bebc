/**
 * The platform fee payer, as users and operators are told about it (docs/operations.md, 'Keys').
 * When it cannot pay, the app says so in its own words: never that the user's wallet is short.
 */
export const FEE_PAYER_MESSAGES = {
  low: 'DarePool cannot pay network fees right now; try again later',
} as const;
