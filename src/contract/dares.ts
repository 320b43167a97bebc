import { z } from 'zod';
import { walletAddressSchema } from './auth';
import { DEADLINE_MESSAGES } from './dare-limits';
import { DARE_PHASES } from './dare-status';
import { DARE_LIMITS, DARE_TEXT_MESSAGES, descriptionSchema, titleSchema } from './dare-text';
import { idParam, isRecordId } from './ids';
import {
  CATEGORIES,
  CREATE_DARE_DEFAULTS,
  DARE_STATUSES,
  DIFFICULTIES,
  STAKE_MAX_SOL,
  STAKE_MIN_SOL,
} from './limits';
import { isSolAmount, solToLamports } from './money';
import { poolAmountInputSchema, signatureSchema } from './payments';
import { text } from './text';
import { solAmountSchema } from './users';

export { DARE_LIMITS, descriptionSchema, titleSchema };

export const DARE_MESSAGES = {
  ...DARE_TEXT_MESSAGES,
  stakeRequired: 'Stake amount is required',
  stakeFormat: 'Stake amount must be a number of SOL with at most 9 decimals',
  stakeMin: `The minimum stake is ${STAKE_MIN_SOL} SOL`,
  stakeMax: (tried: string) =>
    `Please use stake amounts of ${STAKE_MAX_SOL} SOL or less. You tried to stake ${tried} SOL`,
  difficulty: `Difficulty must be one of ${DIFFICULTIES.join(', ')}`,
  categoryRequired: 'Category is required',
  category: `Category must be one of ${CATEGORIES.join(', ')}`,
  ...DEADLINE_MESSAGES,
  maxParticipants: `Max participants must be a whole number from 1 to ${DARE_LIMITS.maxParticipantsMax}`,
  tags: `At most ${DARE_LIMITS.tagsMax} tags of up to ${DARE_LIMITS.tagMax} characters`,
  imageUrl: 'Image URL must be an http(s) address',
  creationDisabled: 'Dare creation is currently disabled',
  dareNotFound: 'Dare not found',
  stakeMismatch: 'The stake amount does not match the payment',
  networkMismatch: (network: string) => `This DarePool runs on ${network}; switch your wallet to ${network}`,
  contributionMismatch: 'The amount does not match the payment',
} as const;

/** Stake rules shared by the form and the server: 0.01 to 5 SOL, exact decimals. */
export const stakeAmountSchema = z
  .string({ error: DARE_MESSAGES.stakeRequired })
  .trim()
  .min(1, DARE_MESSAGES.stakeRequired)
  .superRefine((value, ctx) => {
    if (!isSolAmount(value)) {
      ctx.addIssue({ code: 'custom', message: DARE_MESSAGES.stakeFormat });
      return;
    }
    const lamports = solToLamports(value);
    if (lamports > solToLamports(STAKE_MAX_SOL))
      ctx.addIssue({ code: 'custom', message: DARE_MESSAGES.stakeMax(value) });
    else if (lamports < solToLamports(STAKE_MIN_SOL))
      ctx.addIssue({ code: 'custom', message: DARE_MESSAGES.stakeMin });
  });

const difficultySchema = z.enum(DIFFICULTIES, { error: DARE_MESSAGES.difficulty });
const categorySchema = z.enum(CATEGORIES, {
  error: (issue) =>
    issue.input === undefined || issue.input === '' ? DARE_MESSAGES.categoryRequired : DARE_MESSAGES.category,
});
const maxParticipantsSchema = z
  .number({ error: DARE_MESSAGES.maxParticipants })
  .int(DARE_MESSAGES.maxParticipants)
  .min(1, DARE_MESSAGES.maxParticipants)
  .max(DARE_LIMITS.maxParticipantsMax, DARE_MESSAGES.maxParticipants);
const tagsSchema = z
  .array(text().trim().min(1, DARE_MESSAGES.tags).max(DARE_LIMITS.tagMax, DARE_MESSAGES.tags), {
    error: DARE_MESSAGES.tags,
  })
  .max(DARE_LIMITS.tagsMax, DARE_MESSAGES.tags);
const imageUrlSchema = text({ error: DARE_MESSAGES.imageUrl })
  .trim()
  .max(DARE_LIMITS.urlMax, DARE_MESSAGES.imageUrl)
  .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), DARE_MESSAGES.imageUrl);

export const DARE_VISIBILITIES = ['public', 'private'] as const;

/**
 * The Create Dare form as the user fills it (docs/product.md#create-dare-form-rules). `deadline` is the datetime-local
 * text; the page turns it into an ISO instant before sending.
 */
export const createDareFormSchema = z.object({
  title: titleSchema,
  description: descriptionSchema,
  stakeAmount: stakeAmountSchema,
  difficulty: difficultySchema,
  category: categorySchema,
  deadline: text({ error: DARE_MESSAGES.deadlineRequired }).trim().min(1, DARE_MESSAGES.deadlineRequired),
  /**
   * Public or Private (issue 37, item 13; sent as `isPublic`): a private dare is left out of the
   * lists, search and the leaderboard's activity counts, and reached by its link.
   */
  visibility: z.enum(DARE_VISIBILITIES),
});

export type CreateDareForm = z.infer<typeof createDareFormSchema>;

export const CREATE_DARE_FORM_DEFAULTS: CreateDareForm = {
  title: '',
  description: '',
  stakeAmount: STAKE_MIN_SOL,
  difficulty: CREATE_DARE_DEFAULTS.difficulty,
  category: CREATE_DARE_DEFAULTS.category,
  deadline: '',
  visibility: CREATE_DARE_DEFAULTS.isPublic ? 'public' : 'private',
};

/** POST /api/dares: the form, the optional fields, and the proof of the stake payment. */
export const createDareRequestSchema = z
  .object({
    title: titleSchema,
    description: descriptionSchema,
    stakeAmount: stakeAmountSchema,
    difficulty: difficultySchema.default(CREATE_DARE_DEFAULTS.difficulty),
    category: categorySchema,
    deadline: z
      .string({ error: DARE_MESSAGES.deadlineRequired })
      .min(1, DARE_MESSAGES.deadlineRequired)
      .pipe(z.iso.datetime({ offset: true, error: DARE_MESSAGES.deadlineFormat })),
    maxParticipants: maxParticipantsSchema.default(CREATE_DARE_DEFAULTS.maxParticipants),
    isPublic: z.boolean().default(CREATE_DARE_DEFAULTS.isPublic),
    tags: tagsSchema.default([]),
    imageUrl: imageUrlSchema.nullish(),
    userWallet: walletAddressSchema,
    transactionSignature: signatureSchema,
    /** The network the client believes it paid on; must be this server's cluster when given. */
    network: text().max(40).nullish(),
    escrowWalletAddress: walletAddressSchema,
  })
  .meta({ id: 'CreateDareRequest' });

export const addPoolRequestSchema = z
  .object({
    amount: poolAmountInputSchema,
    userWallet: walletAddressSchema,
    transactionSignature: signatureSchema,
  })
  .meta({ id: 'AddPoolRequest' });

export const dareIdParamsSchema = z.object({
  id: idParam(DARE_MESSAGES.dareNotFound),
});

export const dareCreatorSchema = z
  .object({ id: z.number().int(), username: z.string(), walletAddress: z.string().nullable() })
  .meta({ id: 'DareCreator' });

/** A dare as every endpoint answers it, with the snake-case variants docs/product.md#records-and-fields lists. */
export const dareSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    description: z.string(),
    creatorId: z.number().int(),
    stakeAmount: solAmountSchema,
    totalPool: solAmountSchema,
    difficulty: z.enum(DIFFICULTIES),
    category: z.string(),
    deadline: z.string().nullable(),
    maxParticipants: z.number().int(),
    isPublic: z.boolean(),
    isMajor: z.boolean(),
    status: z.enum(DARE_STATUSES),
    /** (Addition) what the dare is, in the words every screen uses (dare-status.ts). */
    phase: z.enum(DARE_PHASES),
    /**
     * (Addition) why the dare ended as it did, in plain words, when that was not its own doing
     * (its escrow program retired: dare-status.ts phaseReason); null otherwise.
     */
    phaseReason: z.string().nullable(),
    /** (Addition) the SOL that went back to the wallets that paid it, once any did. */
    refundTotal: z
      .object({
        amount: solAmountSchema,
        backers: z.number().int(),
        /** (Addition) everything paid into it and by how many wallets: 'Refunding: 1 of 2…' until all are back. */
        paidAmount: solAmountSchema,
        paidBackers: z.number().int(),
      })
      .nullable()
      .meta({ id: 'DareRefunded' }),
    escrowWallet: z.string().nullable(),
    transactionSignature: z.string().nullable(),
    network: z.string().nullable(),
    tags: z.array(z.string()),
    imageUrl: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    participantCount: z.number().int(),
    submissionCount: z.number().int(),
    creator: dareCreatorSchema.nullable(),
    is_major: z.boolean(),
    total_pool: solAmountSchema,
    stake_amount: solAmountSchema,
    escrow_wallet: z.string().nullable(),
    submission_count: z.number().int(),
  })
  .meta({ id: 'Dare' });

export const DARE_LIST_LIMITS = { defaultLimit: 50, maxLimit: 100, searchMax: 100 } as const;

/**
 * GET /api/dares. Newest first; `cursor` is the `nextCursor` of the previous page (an opaque
 * string), so pages stay stable while new dares arrive.
 */
export const dareListQuerySchema = z.object({
  filter: z.enum(['all', 'active', 'completed']).default('all'),
  limit: z.coerce.number().int().min(1).max(DARE_LIST_LIMITS.maxLimit).default(DARE_LIST_LIMITS.defaultLimit),
  cursor: z.string().refine(isRecordId, 'Invalid cursor').optional(),
  q: text().trim().max(DARE_LIST_LIMITS.searchMax).optional(),
  category: text().trim().max(50).optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
});
export type DareListQuery = z.infer<typeof dareListQuerySchema>;

export type Dare = z.infer<typeof dareSchema>;
export type CreateDareRequest = z.input<typeof createDareRequestSchema>;
export type AddPoolRequest = z.infer<typeof addPoolRequestSchema>;

/**
 * GET /api/dares/:id/backers: who put SOL into the pool (contributions as the ledger booked them,
 * largest first). A wallet with no account has `username: null` and is shown by its short
 * address; a wallet that registered later is its user's (decision 066).
 */
export const dareBackerSchema = z
  .object({ username: z.string().nullable(), walletAddress: z.string(), amount: solAmountSchema })
  .meta({ id: 'DareBacker' });
export type DareBacker = z.infer<typeof dareBackerSchema>;
export const DARE_BACKERS_LIMIT = 50;
