import { z } from 'zod';
import { idParam } from './ids';
import { signedTransactionSchema } from './transactions';
import { solAmountSchema } from './users';

/**
 * Judging on escrow program v2 (docs/decisions/036-judges-guardian-window.md): winners are named
 * by judges' own wallets signing `propose` (M of N), and paid by `execute` once a public window
 * has passed without the guardian's veto. Vaults of program v1 keep their old rules (the
 * moderator key settles them), so every shape here is null or absent for them.
 */
export const JUDGING_MESSAGES = {
  notJudge: 'Only a judge of this dare can name its winner',
  /** The signed transaction is not the propose the server prepared for this dare (or has expired). */
  wrongTransaction: 'This is not the transaction prepared for naming this winner; ask for a new one',
  unreadableTransaction: 'The signed transaction could not be read',
  /** A propose already stands (in its window or executed): judging starts again only after a veto. */
  proposalStanding:
    'A winner of this dare is already named; judging starts again only if the guardian vetoes it',
  /** Cancel / Delete while a proposal stands: the program refuses it, so the panel says why first. */
  cannotCancelProposed:
    'A winner of this dare is named and waiting for its payout window: it cannot be cancelled unless the guardian vetoes it',
  vetoed: 'Vetoed by the guardian',
  judgedBy: (threshold: number, judges: number) =>
    `Judged by ${threshold} of ${judges} DarePool ${judges === 1 ? 'admin' : 'admins'}`,
  /** 409 of POST /api/claims/prize before the window ends; `date` as the web formats it. */
  paysOn: (date: string) => `This prize is paid on ${date}, when the guardian's window ends`,
  /** A payment still ahead (issue 37, item 7): 'will be paid', never 'paid', before it is. */
  winnerNamed: (date: string) => `Winner named — will be paid on ${date}`,
  noJudgeWallet: 'Connect the wallet that judges this dare to name its winner',
} as const;

/** A winner of a proposal: the submission, the wallet the program pays, and what it will get. */
export const proposalWinnerSchema = z
  .object({
    submissionId: z.number().int().nullable(),
    walletAddress: z.string(),
    amount: solAmountSchema,
  })
  .meta({ id: 'ProposalWinner' });
export type ProposalWinner = z.infer<typeof proposalWinnerSchema>;

/** A proposal that landed on chain: it pays at `executesAt` (ISO) unless vetoed. */
export const landedProposalSchema = z
  .object({
    winners: z.array(proposalWinnerSchema),
    executesAt: z.string(),
    /** The `propose` transaction's signature. */
    signature: z.string(),
  })
  .meta({ id: 'LandedProposal' });
export type LandedProposal = z.infer<typeof landedProposalSchema>;

/** GET /api/dares/{id}/outcome `proposal`: the latest proposal of the dare, vetoed or not. */
export const dareProposalSchema = landedProposalSchema
  .extend({
    vetoed: z.boolean(),
    /**
     * (Addition) whether the guardian's window is still running by the chain's clock (the one the
     * program judges it by): Profile shows when it pays instead of Claim Prize until then. The
     * server always answers it; optional only for older clients' fixtures.
     */
    inWindow: z.boolean().optional(),
  })
  .meta({ id: 'DareProposal' });
export type DareProposal = z.infer<typeof dareProposalSchema>;

/** Who judges a dare's vault ("Judged by 2 of 3 DarePool admins"); null for a v1 vault. */
export const dareJudgingSchema = z
  .object({
    judges: z.array(z.string()),
    threshold: z.number().int(),
    guardian: z.string(),
    /** The payout window in seconds. */
    payoutWindowSeconds: z.number().int(),
  })
  .meta({ id: 'DareJudging' });
export type DareJudging = z.infer<typeof dareJudgingSchema>;

/** `signedTransaction`: the propose, signed by the calling judge's wallet (base64 wire format). */
const signedPropose = signedTransactionSchema(JUDGING_MESSAGES.unreadableTransaction).optional();

/** POST /api/admin/submissions/{id}/mark-winner. */
export const markWinnerRequestSchema = z
  .object({ dareId: idParam('Dare not found'), signedTransaction: signedPropose })
  .meta({ id: 'MarkWinnerRequest' });
export type MarkWinnerRequest = z.infer<typeof markWinnerRequestSchema>;

/** The propose transaction for the calling judge's wallet to sign (its fee payer is the platform). */
export const proposeTransactionSchema = z
  .object({
    /** base64 wire format, with every signature gathered so far in place. */
    transaction: z.string(),
    /** What the confirmation tells the judge: who gets what, and when it pays if nobody vetoes. */
    winners: z.array(proposalWinnerSchema),
    executesAt: z.string(),
  })
  .meta({ id: 'ProposeTransaction' });
export type ProposeTransaction = z.infer<typeof proposeTransactionSchema>;

/** Relayed: the proposal is on chain. */
export const proposalRelayedSchema = z
  .object({ proposal: landedProposalSchema })
  .meta({ id: 'ProposalRelayed' });

/** Signed by this judge, stored for the next ones: `signaturesNeeded` more judges must sign. */
export const signaturesNeededSchema = z
  .object({ signaturesNeeded: z.number().int(), transaction: z.string() })
  .meta({ id: 'SignaturesNeeded' });

/** 200 of mark-winner (and of a major dare pick completing the pair) on a v2 vault. */
export const markWinnerResponseSchema = z
  .union([proposalRelayedSchema, signaturesNeededSchema, proposeTransactionSchema])
  .meta({ id: 'MarkWinnerResponse' });
export type MarkWinnerResponse = z.infer<typeof markWinnerResponseSchema>;

/**
 * GET /api/admin/proposals: proposals being signed (`collecting`) and in their window
 * (`window`), soonest payout first, so judges sign and everyone sees what will pay.
 */
export const adminProposalSchema = z
  .object({
    dareId: z.number().int(),
    dareTitle: z.string(),
    vault: z.string(),
    state: z.enum(['collecting', 'window']),
    winners: z.array(proposalWinnerSchema),
    executesAt: z.string().nullable(),
    signature: z.string().nullable(),
    /** collecting: the judges who signed so far, and how many more must. */
    signedBy: z.array(z.string()),
    signaturesNeeded: z.number().int(),
    /** collecting: the partly signed transaction, for the next judge to sign. */
    transaction: z.string().nullable(),
  })
  .meta({ id: 'AdminProposal' });
export type AdminProposal = z.infer<typeof adminProposalSchema>;
export const adminProposalListSchema = z.array(adminProposalSchema).meta({ id: 'AdminProposalList' });

/** 409 of POST /api/claims/prize before the window ends. */
export const claimNotYetSchema = z
  .object({ error: z.string(), executesAt: z.string() })
  .meta({ id: 'ClaimNotYet' });
