import { z } from 'zod';
import { walletAddressSchema } from './auth';
import { DARE_LIMITS, DARE_MESSAGES } from './dares';
import { idParam } from './ids';
import { JUDGING_MESSAGES } from './judging';
import {
  DARE_STATUSES,
  DIFFICULTIES,
  MAJOR_DARE_DEFAULTS,
  MAJOR_DARE_SPLIT,
  MAJOR_PRIZE_MIN_SOL,
} from './limits';
import { isSolAmount, solToLamports } from './money';
import { PAYMENT_MESSAGES, signatureSchema } from './payments';
import { text } from './text';
import { signedTransactionSchema } from './transactions';
import { solAmountSchema } from './users';

export const MAJOR_DARE_MESSAGES = {
  noMajorDareTitle: 'No Major Dare Active',
  noMajorDareText: 'The next major dare will be announced soon!',
  noMajorDare: 'No major dare found',
  notMajor: 'This dare is not a major dare',
  categoryRequired: 'Category is required',
  prizeMismatch: 'The prize amount does not match the payment',
  prizeMin: `The minimum prize is ${MAJOR_PRIZE_MIN_SOL} SOL`,
  prizeMax: (max: string) => `The prize can be at most ${max} SOL`,
  winnerTypeTaken: (type: 'admin' | 'community') =>
    `The ${type} winner of this major dare is already selected`,
  notTopVoted: 'The community winner must be the approved submission with the most votes',
  notApproved: 'Only an approved submission can win',
  created: 'Major dare created successfully!',
  createFailed: 'Failed to create major dare',
  /** One Major Dare is live at a time: another is refused until this one ends (issue 37, item 2). */
  oneLive: (title: string, deadline: Date | null) =>
    `The Major Dare "${title}" is live${deadline ? ` until ${utcMinute(deadline)}` : ''}: a new one can be created once it ends`,
  winnerSelected: 'Major dare winner selected and claim created!',
  winnerFailed: 'Failed to select winner',
  /** Select Winners on a judged (v2) Major Dare: both picks, one confirmation, one signature. */
  nameBoth: 'Name both winners',
  pickAdminWinner: 'Pick the admin winner (70%) among the approved proofs.',
  communityWinnerIs: (name: string) => `Community winner (30%, the most voted): ${name}`,
  bothNamed: 'Both winners named',
  pairInSelectWinners: 'Both winners are named together: Major Dares, Select Winners',
  pairOnJudgedOnly: "Both winners are named at once only on a Major Dare judged by its judges' wallets",
} as const;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '30 Nov 2026, 02:47 UTC': the same words on every server, whatever its locale. */
function utcMinute(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

export const WINNER_TYPES = ['admin', 'community'] as const;
export type WinnerType = (typeof WINNER_TYPES)[number];

/** GET /api/major-dare: the current major dare (the newest one not cancelled), or `{isActive:false}`. */
export const majorDareSchema = z
  .discriminatedUnion('isActive', [
    z.object({ isActive: z.literal(false) }),
    z.object({
      isActive: z.literal(true),
      id: z.number().int(),
      title: z.string(),
      description: z.string(),
      category: z.string(),
      difficulty: z.enum(DIFFICULTIES),
      totalPool: solAmountSchema,
      /** The two prize shares in SOL (70/30 in lamports, remainder to the admin winner). */
      adminPrize: solAmountSchema,
      communityPrize: solAmountSchema,
      deadline: z.string().nullable(),
      status: z.enum(DARE_STATUSES),
      participantCount: z.number().int(),
      submissionCount: z.number().int(),
      maxParticipants: z.number().int(),
      escrowWallet: z.string().nullable(),
    }),
  ])
  .meta({ id: 'MajorDare' });

/**
 * At least MAJOR_PRIZE_MIN_SOL; the maximum is the server's setting (MAJOR_PRIZE_MAX_SOL), not the
 * 5 SOL stake cap, and is checked where the prize is paid (create-transaction) and credited.
 */
export const prizeAmountSchema = z
  .string({ error: PAYMENT_MESSAGES.invalidAmount })
  .trim()
  .refine(isSolAmount, PAYMENT_MESSAGES.invalidAmount)
  .refine(
    (value) => !isSolAmount(value) || solToLamports(value) >= solToLamports(MAJOR_PRIZE_MIN_SOL),
    MAJOR_DARE_MESSAGES.prizeMin,
  );

/** The admin's create dialog (docs/product.md#major-dare-form-rules): no required-field check is shown, the server has them. */
export const majorDareFormSchema = z.object({
  title: text().trim().min(1, DARE_MESSAGES.titleRequired).max(DARE_LIMITS.titleMax, DARE_MESSAGES.titleMax),
  description: text()
    .trim()
    .min(1, DARE_MESSAGES.descriptionRequired)
    .max(DARE_LIMITS.descriptionMax, DARE_MESSAGES.descriptionMax),
  category: text().trim().min(1, MAJOR_DARE_MESSAGES.categoryRequired).max(40),
  difficulty: z.enum(DIFFICULTIES, { error: DARE_MESSAGES.difficulty }),
  /** The admin's wallet pays it into the escrow. */
  prizeAmount: prizeAmountSchema,
  maxParticipants: z
    .number({ error: DARE_MESSAGES.maxParticipants })
    .int(DARE_MESSAGES.maxParticipants)
    .min(1, DARE_MESSAGES.maxParticipants)
    .max(DARE_LIMITS.maxParticipantsMax, DARE_MESSAGES.maxParticipants),
  deadline: text({ error: DARE_MESSAGES.deadlineRequired }).trim().min(1, DARE_MESSAGES.deadlineRequired),
});

export type MajorDareForm = z.infer<typeof majorDareFormSchema>;

export const MAJOR_DARE_FORM_DEFAULTS: MajorDareForm = {
  title: '',
  description: '',
  category: '',
  difficulty: MAJOR_DARE_DEFAULTS.difficulty,
  prizeAmount: MAJOR_DARE_DEFAULTS.prizeAmount,
  maxParticipants: MAJOR_DARE_DEFAULTS.maxParticipants,
  deadline: '',
};

/**
 * POST /api/admin/major-dare: the form of docs/product.md#major-dare-form-rules plus (addition) the proof that the admin's wallet
 * paid the prize into the escrow, exactly as POST /api/dares carries its stake: the client runs
 * create-escrow-wallet, create-transaction, send-transaction first. `deadline` is an ISO instant.
 */
export const createMajorDareRequestSchema = majorDareFormSchema
  .extend({
    deadline: z
      .string({ error: DARE_MESSAGES.deadlineRequired })
      .min(1, DARE_MESSAGES.deadlineRequired)
      .pipe(z.iso.datetime({ offset: true, error: DARE_MESSAGES.deadlineFormat })),
    maxParticipants: majorDareFormSchema.shape.maxParticipants.default(MAJOR_DARE_DEFAULTS.maxParticipants),
    difficulty: majorDareFormSchema.shape.difficulty.default(MAJOR_DARE_DEFAULTS.difficulty),
    transactionSignature: signatureSchema,
    escrowWalletAddress: walletAddressSchema,
    /** Optional: when given it must be the admin's registered wallet. */
    userWallet: walletAddressSchema.optional(),
  })
  .meta({ id: 'CreateMajorDareRequest' });

/** POST /api/admin/major-dare/{dareId}/winner. */
export const selectMajorWinnerRequestSchema = z
  .object({
    submissionId: idParam(),
    winnerType: z.enum(WINNER_TYPES, { error: 'winnerType must be admin or community' }),
    /**
     * Program v2: the pick that completes the pair answers the propose transaction; the same call
     * with the judge's signed transaction relays it (docs/decisions/036-judges-guardian-window.md).
     */
    signedTransaction: signedTransactionSchema(JUDGING_MESSAGES.unreadableTransaction).optional(),
  })
  .meta({ id: 'SelectMajorWinnerRequest' });

/**
 * POST /api/admin/major-dare/{dareId}/winners (a judged Major Dare, program v2): both picks at
 * once. Without `signedTransaction` nothing is recorded: the answer is the propose naming both
 * (the admin's 70% first) for the judge's wallet; with it signed, the picks are recorded and the
 * propose relayed (docs/decisions/072-both-major-picks-one-signature.md).
 */
export const selectMajorWinnersRequestSchema = z
  .object({
    adminSubmissionId: idParam(),
    communitySubmissionId: idParam(),
    signedTransaction: signedTransactionSchema(JUDGING_MESSAGES.unreadableTransaction).optional(),
  })
  .meta({ id: 'SelectMajorWinnersRequest' });

/** 70% to the admin winner, 30% to the community winner, in lamports; the remainder lamport goes to the admin winner. */
export function splitMajorPrize(poolLamports: bigint): { admin: bigint; community: bigint } {
  const community = (poolLamports * BigInt(MAJOR_DARE_SPLIT.communityPercent)) / 100n;
  return { admin: poolLamports - community, community };
}

export type MajorDare = z.infer<typeof majorDareSchema>;
export type CreateMajorDareRequest = z.input<typeof createMajorDareRequestSchema>;
export type SelectMajorWinnerRequest = z.infer<typeof selectMajorWinnerRequestSchema>;
export type SelectMajorWinnersRequest = z.infer<typeof selectMajorWinnersRequestSchema>;
