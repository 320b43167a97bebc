import { z } from 'zod';
import { walletAddressSchema } from './auth';
import { descriptionSchema, titleSchema } from './dare-text';
import { AIRDROP_MAX_SOL, POOL_ADD_MIN_SOL } from './limits';
import { isSolAmount, lamportsToSolRoundedUp, SOL_DECIMAL_PATTERN, solToLamports } from './money';

export const PAYMENT_MESSAGES = {
  invalidAmount: 'Please enter a valid amount',
  airdropMax: `At most ${AIRDROP_MAX_SOL} SOL per request`,
  notYourWallet: 'The paying wallet must be the wallet of your account',
  noWallet: 'Your account has no wallet; connect a wallet first',
  escrowNotFound: 'Dare escrow wallet not found',
  /**
   * Said in Add to Pool before the wallet signs (decision 058); `sol` is the receipt's rent rounded
   * up (receiptRentLabel). A later contribution adds to the same receipt and lends nothing more.
   */
  receiptRent: (sol: string) =>
    `Your first contribution to a dare also lends ${sol} SOL of rent for its receipt, returned to you when the dare ends`,
  escrowExpired: 'This escrow wallet reservation has expired; start again',
  dareNotActive: 'This dare no longer accepts contributions',
  notPrepared: 'This transaction was not prepared by DarePool for your account',
  notAsPrepared:
    'This is not the transaction DarePool prepared for this payment; sign the prepared transaction unchanged',
  badSignature: 'The transaction is not correctly signed by your wallet',
  alreadySent: 'This payment was already sent',
  invalidTransaction: 'The signed transaction could not be read',
  alreadyUsed: 'This transaction has already been used',
  testSolUnavailable: 'Test SOL is only available on the embedded chain',
  deadlineFormat: 'Deadline must be a date and time',
  vaultDeadlineRequired: "The dare's deadline is required: a new dare's vault is created with it",
  majorForAdmins: 'Only an admin can fund a Major Dare',
  vaultRefused: "This dare's vault does not match its payment request; the payment is being refunded",
  vaultNotOpen: "This dare's vault no longer takes payments",
  deadlineMismatch: 'The deadline does not match the one the payment was prepared with',
  kindMismatch: 'The kind of dare does not match the one the payment was prepared with',
  foreignVault: (term: string) =>
    `This vault is not a DarePool vault: its ${term} differs from DarePool's, so nothing is paid into it`,
  foreignReservation: (term: string) =>
    `Someone else created a vault at this address first (its ${term} differs from DarePool's); nothing of yours was taken. Start again with the new vault address`,
  v1Retired:
    "This dare's vault is on escrow program v1, which DarePool is retiring: it takes no new SOL, and its payers are refunded",
} as const;

/** A receipt's rent as Add to Pool says it: rounded up to 0.0001 SOL, never less than it is. */
export function receiptRentLabel(receiptRentSol: string): string {
  return lamportsToSolRoundedUp(solToLamports(receiptRentSol), 4);
}

/** The escrow program's two kinds of vault: 100% to one winner, or 70/30 (a Major Dare). */
export const VAULT_KINDS = ['community', 'major'] as const;
export type VaultKind = (typeof VAULT_KINDS)[number];

/** A positive SOL amount as a decimal string: exact, never a float. */
export const solAmountInputSchema = z
  .string({ error: PAYMENT_MESSAGES.invalidAmount })
  .trim()
  .regex(SOL_DECIMAL_PATTERN, PAYMENT_MESSAGES.invalidAmount)
  .refine((value) => /[1-9]/.test(value), PAYMENT_MESSAGES.invalidAmount);

/** At least POOL_ADD_MIN_SOL: a smaller refund could never land on a wallet that was emptied. */
export function isPoolAmount(value: string): boolean {
  return isSolAmount(value) && solToLamports(value) >= solToLamports(POOL_ADD_MIN_SOL);
}

/** A pool contribution's amount, checked by the server as by the form. */
export const poolAmountInputSchema = solAmountInputSchema.refine(
  isPoolAmount,
  PAYMENT_MESSAGES.invalidAmount,
);

/** A transaction signature: 64 bytes in base58 (87 or 88 characters). */
export const signatureSchema = z
  .string({ error: 'A transaction signature is required' })
  .trim()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/, 'Not a transaction signature');

/** Lamports as a decimal integer string: balances can pass 2^53. */
export const lamportsSchema = z.string().regex(/^\d+$/).meta({ description: 'Lamports, integer string' });

export const checkBalanceRequestSchema = z
  .object({ walletAddress: walletAddressSchema })
  .meta({ id: 'CheckBalanceRequest' });
export const checkBalanceResponseSchema = z
  .object({ balance: lamportsSchema })
  .meta({ id: 'CheckBalanceResponse' });

export const createEscrowWalletResponseSchema = z
  .object({ publicKey: z.string(), expiresAt: z.string() })
  .meta({ id: 'CreateEscrowWalletResponse' });

export const createTransactionRequestSchema = z
  .object({
    fromWallet: walletAddressSchema,
    toWallet: walletAddressSchema,
    amount: solAmountInputSchema,
    /**
     * Required for a new dare's vault (decisions 021, 037): the dare's deadline, fixed on chain when
     * the vault is created (refunds open 7 days later); the dare must then have exactly this
     * deadline. Not read for a deposit into a vault that exists.
     */
    deadline: z.iso.datetime({ offset: true, error: PAYMENT_MESSAGES.deadlineFormat }).optional(),
    /** A new dare's vault only: 'major' pays 70/30 to two winners (admins only). Default 'community'. */
    kind: z.enum(VAULT_KINDS).optional(),
    /**
     * A new dare's title and description, when the client sends them (the web app does): checked
     * with the dare's own rules here, so a dare that could not be recorded is refused (400) before
     * any SOL moves rather than after.
     */
    title: titleSchema.optional(),
    description: descriptionSchema.optional(),
  })
  .meta({ id: 'CreateTransactionRequest' });
export const createTransactionResponseSchema = z
  .object({
    /**
     * The escrow program transaction (base64 wire format): `create_vault` while the dare's vault
     * does not exist, `deposit` after. The fee payer and payer is `fromWallet`, whose signature slot
     * is empty; DarePool's rent payer has signed already (keep its signature: sign, do not rebuild).
     */
    transaction: z.string(),
    /** The payment's reference: the text of the transaction's memo, unique to this payment request. */
    reference: z.string(),
    /** The exact amount the transfer moves, in lamports. */
    lamports: lamportsSchema,
    lastValidBlockHeight: z.string(),
  })
  .meta({ id: 'CreateTransactionResponse' });

export const sendTransactionRequestSchema = z
  .object({
    signedTransaction: z
      .string({ error: PAYMENT_MESSAGES.invalidTransaction })
      .min(1, PAYMENT_MESSAGES.invalidTransaction)
      .max(2048, PAYMENT_MESSAGES.invalidTransaction)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, PAYMENT_MESSAGES.invalidTransaction),
  })
  .meta({ id: 'SendTransactionRequest' });
export const sendTransactionResponseSchema = z
  .object({ signature: z.string() })
  .meta({ id: 'SendTransactionResponse' });

export const airdropRequestSchema = z
  .object({ walletAddress: walletAddressSchema, amount: solAmountInputSchema })
  .meta({ id: 'AirdropRequest' });
export const airdropResponseSchema = z
  .object({ signature: z.string(), balance: lamportsSchema })
  .meta({ id: 'AirdropResponse' });

/** One transaction as the local explorer page shows it (embedded chain's `/tx/{signature}`). */
export const transactionViewSchema = z
  .object({
    signature: z.string(),
    slot: z.string(),
    blockTime: z.string().nullable(),
    status: z.enum(['success', 'failed']),
    error: z.string().nullable(),
    fee: lamportsSchema,
    accounts: z.array(
      z.object({
        address: z.string(),
        signer: z.boolean(),
        writable: z.boolean(),
        preBalance: lamportsSchema,
        postBalance: lamportsSchema,
      }),
    ),
    instructions: z.array(
      z.object({
        program: z.string(),
        programId: z.string(),
        type: z.string().nullable(),
        info: z.record(z.string(), z.unknown()).nullable(),
      }),
    ),
    logs: z.array(z.string()),
    /**
     * (Addition) What the transaction did for DarePool's users, one sentence per movement of the
     * escrow program ('alice put 0.2 SOL into dare "…"'), with the dare it concerns; empty for others.
     */
    summary: z.array(z.object({ text: z.string(), dareId: z.number().int().nullable() })),
  })
  .meta({ id: 'TransactionView' });

export type CheckBalanceRequest = z.infer<typeof checkBalanceRequestSchema>;
export type CreateTransactionRequest = z.infer<typeof createTransactionRequestSchema>;
export type CreateTransactionResponse = z.infer<typeof createTransactionResponseSchema>;
export type SendTransactionRequest = z.infer<typeof sendTransactionRequestSchema>;
export type AirdropRequest = z.infer<typeof airdropRequestSchema>;
export type TransactionView = z.infer<typeof transactionViewSchema>;
