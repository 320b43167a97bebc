/**
 * Why the web app refuses to hand a propose transaction to a judge's wallet (verify-propose.ts),
 * in words the judge reads in the dialog. Apart from the checker, so the dialog's first load
 * carries the words but not kit's decoders.
 */
export const PROPOSE_CHECK_MESSAGES = {
  checking: 'Checking the proposal…',
  notSigned: 'Not signed',
  /** The dialog's headline when a check fails; the reason follows it. */
  refused: 'Nothing was signed: this is not the transaction you asked for.',
  notJudged: "This dare's vault is not judged by wallets: there is no proposal to sign.",
  unreadable: 'It could not be read.',
  lookupTables: 'It loads accounts from lookup tables, which this page cannot check.',
  feePayerIsJudge: "It makes a judge's wallet pay its network fee.",
  noProposal: (program: string, expected: string) =>
    `It is addressed to program ${program}, not DarePool's escrow program ${expected}.`,
  extraInstruction: (program: string) =>
    `It carries an instruction of program ${program} besides the proposal.`,
  misplacedNonce: 'It advances a nonce other than first or for someone other than DarePool.',
  twoProposals: 'It names winners more than once.',
  winnerCount: (count: number, expected: number) =>
    `It names ${count} ${count === 1 ? 'winner' : 'winners'}; this dare has ${expected}.`,
  wrongVault: (vault: string, expected: string) =>
    `It pays out vault ${vault}, not this dare's vault ${expected}.`,
  wrongWinner: (percent: number, wallet: string, expected: string) =>
    `Its ${percent}% share goes to ${wallet}, not to ${expected}.`,
  unknownWinner: 'This page does not know the wallet of a winner you picked; reload and try again.',
  notAJudge: (wallet: string) => `It asks for the signature of ${wallet}, who does not judge this dare.`,
  judgeWritable: (wallet: string) => `It asks the judge ${wallet} for more than a judge's signature.`,
  misdescribed: 'What the server says it pays differs from what the transaction pays.',
} as const;
