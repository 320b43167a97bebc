/** The answers of naming winners that only the server gives (the rest are JUDGING_MESSAGES). */
export const NAMING_MESSAGES = {
  submissionNotFound: 'Submission not found',
  wrongDare: 'This submission does not belong to that dare',
  notApproved: 'Only an approved submission can be marked as the winner',
  notOpen: 'Only an active dare can get a winner',
  notEntered: 'This submission was not entered on chain: its author never signed the entry',
  noWallet: 'The winner has no wallet to be paid to',
  useMajorWinner: 'Use the major dare winner selection for major dares',
  noVault: "This dare's vault is not on chain",
  relayFailed: (reason: string) => `The proposal failed: ${reason}`,
  unconfirmed: 'The proposal was sent but is not confirmed yet; look again in a moment',
} as const;
