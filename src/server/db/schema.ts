import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { CLAIM_TYPES, type ClaimType } from '#contract/claims';
import { DARE_CANCEL_REASONS, type DareCancelReason } from '#contract/dare-status';
import {
  CATEGORIES,
  CLAIM_STATUSES,
  type ClaimStatus,
  DARE_STATUSES,
  type DareStatus,
  DIFFICULTIES,
  type Difficulty,
  SUBMISSION_STATUSES,
  type SubmissionStatus,
} from '#contract/limits';

/** SOL amounts: numeric(18,9) (docs/product.md#records-and-fields); drizzle hands them over as exact decimal strings. */
const sol = (name: string) => numeric(name, { precision: 18, scale: 9 });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();

const inList = (column: string, values: readonly string[]) =>
  sql.raw(`${column} in (${values.map((value) => `'${value}'`).join(', ')})`);

export const users = pgTable(
  'users',
  {
    id: id(),
    username: text('username').notNull(),
    /** scrypt hash (never the password itself); the column keeps its name from docs/product.md#records-and-fields. */
    password: text('password').notNull(),
    walletAddress: text('wallet_address'),
    isAdmin: boolean('is_admin').notNull().default(false),
    totalEarnings: sol('total_earnings').notNull().default('0'),
    dareWins: integer('dare_wins').notNull().default(0),
    reputation: integer('reputation').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_username_unique').on(sql`lower(${t.username})`),
    uniqueIndex('users_wallet_address_unique').on(t.walletAddress),
    check('users_total_earnings_non_negative', sql`${t.totalEarnings} >= 0`),
    check('users_dare_wins_non_negative', sql`${t.dareWins} >= 0`),
    check('users_username_length', sql`char_length(${t.username}) between 3 and 32`),
  ],
);

export const dares = pgTable(
  'dares',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => users.id),
    stakeAmount: sol('stake_amount').notNull(),
    totalPool: sol('total_pool').notNull().default('0'),
    difficulty: text('difficulty').$type<Difficulty>().notNull().default('medium'),
    category: text('category').notNull().default('creative'),
    deadline: timestamp('deadline', { withTimezone: true }),
    maxParticipants: integer('max_participants').notNull().default(10),
    isPublic: boolean('is_public').notNull().default(true),
    isMajor: boolean('is_major').notNull().default(false),
    status: text('status').$type<DareStatus>().notNull().default('active'),
    /** Why a cancelled dare was cancelled when not by an admin or its expiry (#contract/dare-status). */
    cancelReason: text('cancel_reason').$type<DareCancelReason>(),
    escrowWallet: text('escrow_wallet'),
    /** The signature of the stake that funded this dare; one signature funds one dare. */
    transactionSignature: text('transaction_signature'),
    network: text('network'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    imageUrl: text('image_url'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('dares_transaction_signature_unique').on(t.transactionSignature),
    uniqueIndex('dares_escrow_wallet_unique').on(t.escrowWallet),
    index('dares_status_created_idx').on(t.status, t.createdAt),
    index('dares_creator_idx').on(t.creatorId),
    check('dares_status_valid', inList('status', DARE_STATUSES)),
    check(
      'dares_cancel_reason_valid',
      sql`cancel_reason is null or ${inList('cancel_reason', DARE_CANCEL_REASONS)}`,
    ),
    check('dares_difficulty_valid', inList('difficulty', DIFFICULTIES)),
    // Major dares take a free-text category (docs/product.md#major-dare-form-rules); community dares one of the five.
    check('dares_category_valid', sql`is_major or ${inList('category', CATEGORIES)}`),
    check('dares_stake_non_negative', sql`${t.stakeAmount} >= 0`),
    check('dares_total_pool_non_negative', sql`${t.totalPool} >= 0`),
    check('dares_max_participants_positive', sql`${t.maxParticipants} >= 1`),
  ],
);

export const dareSubmissions = pgTable(
  'dare_submissions',
  {
    id: id(),
    dareId: integer('dare_id')
      .notNull()
      .references(() => dares.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    videoUrl: text('video_url').notNull(),
    thumbnailUrl: text('thumbnail_url'),
    description: text('description'),
    votes: integer('votes').notNull().default(0),
    status: text('status').$type<SubmissionStatus>().notNull().default('pending'),
    isFeatured: boolean('is_featured').notNull().default(false),
    /**
     * The proof's fingerprint its on-chain entry holds (SHA-256 hex of the uploaded bytes, or of
     * the link's exact URL); null for an entry of program v1 (docs/decisions/038-proof-fingerprints.md).
     */
    proofHash: text('proof_hash'),
    /** Whether the stored video's bytes hashed to `proof_hash` when last checked; null: never checked (links). */
    proofMatches: boolean('proof_matches'),
    proofCheckedAt: timestamp('proof_checked_at', { withTimezone: true }),
    /** Why an admin rejected it (at most 500 characters), shown to its author; null otherwise. */
    rejectionReason: text('rejection_reason'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('dare_submissions_one_per_user').on(t.dareId, t.userId),
    index('dare_submissions_status_idx').on(t.status, t.createdAt),
    check('dare_submissions_status_valid', inList('status', SUBMISSION_STATUSES)),
    check('dare_submissions_votes_non_negative', sql`${t.votes} >= 0`),
  ],
);

export const submissionVotes = pgTable(
  'submission_votes',
  {
    id: id(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => dareSubmissions.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** Denormalised so the 3-votes-per-dare rule is one indexed count. */
    dareId: integer('dare_id')
      .notNull()
      .references(() => dares.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('submission_votes_one_per_user').on(t.submissionId, t.userId),
    index('submission_votes_user_dare_idx').on(t.userId, t.dareId),
  ],
);

/**
 * The program transactions DarePool built for a user's wallet to sign (docs/decisions/025-entering-and-refund-me.md): an
 * `enter` or a 'Refund me' `refund`, each paid and signed by the user's wallet alone (decision
 * 034). The relay sends only these exact messages for their user. One per kind, vault and
 * wallet: while it can still land the same one is handed out again, and a new one replaces it only
 * once its blockhash expired, so two that could both land never exist.
 */
export const preparedTransactions = pgTable(
  'prepared_transactions',
  {
    id: id(),
    kind: text('kind').$type<'enter' | 'refund'>().notNull(),
    dareId: integer('dare_id')
      .notNull()
      .references(() => dares.id, { onDelete: 'cascade' }),
    /** Null for a wallet with no account taking its own refund (decision 066). */
    userId: integer('user_id').references(() => users.id),
    /** The user's wallet: the entrant, or the payer refunded. */
    wallet: text('wallet').notNull(),
    vault: text('vault').notNull(),
    /** SHA-256 (hex) of the message bytes the server built: the relay sends nothing else. */
    messageHash: text('message_hash').notNull(),
    /** The wire transaction handed out (the server's signatures in place, the wallet's slot empty). */
    wireTransaction: text('wire_transaction').notNull(),
    lastValidBlockHeight: bigint('last_valid_block_height', { mode: 'bigint' }).notNull(),
    /** The proof fingerprint a v2 `enter` carries (hex): asked for another video, a new one is built. */
    proofHash: text('proof_hash'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('prepared_transactions_one_per_wallet').on(t.kind, t.vault, t.wallet),
    index('prepared_transactions_dare_idx').on(t.dareId),
    check('prepared_transactions_kind_valid', inList('kind', ['enter', 'refund'])),
  ],
);

export const claims = pgTable(
  'claims',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    amount: sol('amount').notNull(),
    claimType: text('claim_type').$type<ClaimType>().notNull(),
    status: text('status').$type<ClaimStatus>().notNull().default('pending'),
    transactionHash: text('transaction_hash'),
    /** Why the last payout attempt failed, shown to the winner; cleared on success. */
    failureReason: text('failure_reason'),
    dareId: integer('dare_id').references(() => dares.id, { onDelete: 'set null' }),
    submissionId: integer('submission_id').references(() => dareSubmissions.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // A major dare's one settle pays both its winners: both claims record its signature.
    uniqueIndex('claims_transaction_hash_type_unique').on(t.transactionHash, t.claimType),
    uniqueIndex('claims_one_per_submission_type').on(t.submissionId, t.claimType),
    // One winner of each kind per dare: a second mark-winner loses the race at the database.
    uniqueIndex('claims_one_per_dare_type').on(t.dareId, t.claimType),
    index('claims_user_idx').on(t.userId),
    check('claims_status_valid', inList('status', CLAIM_STATUSES)),
    check('claims_type_valid', inList('claim_type', CLAIM_TYPES)),
    check('claims_amount_positive', sql`${t.amount} > 0`),
  ],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    dareId: integer('dare_id').references(() => dares.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    messageType: text('message_type').notNull().default('user'),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_room_idx').on(t.dareId, t.id),
    check('chat_messages_type_valid', inList('message_type', ['user', 'system'])),
    check('chat_messages_length', sql`char_length(${t.message}) between 1 and 500`),
  ],
);

/** A vault's judging terms as recorded on its reservation (amounts as decimal strings: JSON has no u64). */
export interface RecordedVaultTerms {
  canceller: string;
  judges: string[];
  threshold: number;
  majorThreshold: number;
  guardian: string;
  payoutWindowSeconds: string;
}

/**
 * One escrow per dare: the dare's vault of the escrow program (docs/program.md), the PDA
 * ["vault", vaultSeed] at its canonical bump, `publicKey` being that address (decision 021). No key
 * exists for it. Rows from before the program kept `derivationIndex` (a custodial key derived from
 * the master seed) and `privateKey` (its derivation path, never a key); new rows leave both null.
 */
export const dareWallets = pgTable(
  'dare_wallets',
  {
    id: id(),
    dareId: integer('dare_id').references(() => dares.id, { onDelete: 'set null' }),
    publicKey: text('public_key').notNull(),
    privateKey: text('private_key'),
    derivationIndex: integer('derivation_index'),
    /** The vault's 32-byte seed (the program's dare_id), hex; null only on pre-program rows. */
    vaultSeed: text('vault_seed'),
    /**
     * Which escrow program holds the vault: 1 (the moderator settles it: vaults created before
     * judging) or 2 (judges propose, the guardian may veto, anyone executes after the window;
     * docs/decisions/036-judges-guardian-window.md). Each vault keeps its program's rules for life.
     */
    programVersion: smallint('program_version').notNull().default(1),
    /**
     * The judging terms a v2 vault at this address must carry, fixed when it was reserved (the
     * configuration then; docs/decisions/048-our-vault.md). Null on rows from before: the current
     * configuration is their terms.
     */
    vaultTerms: jsonb('vault_terms').$type<RecordedVaultTerms>(),
    /** The term in which the vault found at this address differs from ours: a foreign vault, never a pool. */
    foreignTerm: text('foreign_term'),
    reservedBy: integer('reserved_by').references(() => users.id),
    balance: sol('balance').notNull().default('0'),
    status: text('status').notNull().default('active'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('dare_wallets_public_key_unique').on(t.publicKey),
    uniqueIndex('dare_wallets_derivation_index_unique').on(t.derivationIndex),
    uniqueIndex('dare_wallets_vault_seed_unique').on(t.vaultSeed),
    uniqueIndex('dare_wallets_dare_unique').on(t.dareId),
    check('dare_wallets_status_valid', inList('status', ['reserved', 'active', 'expired', 'closed'])),
    check('dare_wallets_balance_non_negative', sql`${t.balance} >= 0`),
    check('dare_wallets_index_non_negative', sql`${t.derivationIndex} >= 0`),
    check('dare_wallets_no_raw_key', sql`${t.privateKey} is null or ${t.privateKey} like 'm/%'`),
    check('dare_wallets_vault_seed_hex', sql`${t.vaultSeed} is null or ${t.vaultSeed} ~ '^[0-9a-f]{64}$'`),
    check('dare_wallets_vault_or_key', sql`${t.vaultSeed} is not null or ${t.derivationIndex} is not null`),
    check('dare_wallets_program_version_valid', sql`${t.programVersion} in (1, 2)`),
    index('dare_wallets_reserved_by_idx').on(t.reservedBy, t.status),
  ],
);

/** Kept because the product's records include token launches (docs/product.md#records-and-fields), though no screen or call uses them. */
export const tokenLaunches = pgTable('token_launches', {
  id: id(),
  dareId: integer('dare_id').references(() => dares.id, { onDelete: 'cascade' }),
  tokenMint: text('token_mint'),
  poolAddress: text('pool_address'),
  currentPrice: sol('current_price').notNull().default('0'),
  totalSupply: numeric('total_supply', { precision: 30, scale: 0 }).notNull().default('0'),
  status: text('status').notNull().default('active'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const systemSettings = pgTable(
  'system_settings',
  {
    id: id(),
    settingKey: text('setting_key').notNull(),
    settingValue: text('setting_value').notNull(),
    description: text('description'),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('system_settings_key_unique').on(t.settingKey)],
);

/** Kept because the product's records include bonding-curve tokens (docs/product.md#records-and-fields), though no screen or call uses them. */
export const bondingCurveTokens = pgTable(
  'bonding_curve_tokens',
  {
    id: id(),
    dareId: integer('dare_id')
      .notNull()
      .references(() => dares.id, { onDelete: 'cascade' }),
    tokenMint: text('token_mint'),
    tokenName: text('token_name'),
    tokenSymbol: text('token_symbol'),
    tokenDescription: text('token_description'),
    totalSupply: numeric('total_supply', { precision: 30, scale: 0 }).notNull().default('1000000000'),
    availableSupply: numeric('available_supply', { precision: 30, scale: 0 }).notNull().default('800000000'),
    currentTokenSupply: numeric('current_token_supply', { precision: 30, scale: 0 })
      .notNull()
      .default('800000000'),
    virtualSolReserve: sol('virtual_sol_reserve').notNull().default('30'),
    currentSolReserve: sol('current_sol_reserve').notNull().default('0'),
    graduationThreshold: sol('graduation_threshold').notNull().default('85'),
    currentPrice: sol('current_price').notNull().default('0'),
    isGraduated: boolean('is_graduated').notNull().default(false),
    raydiumPoolAddress: text('raydium_pool_address'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('bonding_curve_tokens_dare_unique').on(t.dareId)],
);

/** Bearer sessions: only a SHA-256 of the token is stored, so a database leak yields no usable token. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('auth_sessions_token_hash_unique').on(t.tokenHash),
    index('auth_sessions_user_idx').on(t.userId),
  ],
);

/**
 * The client addresses an account signed in from (password or wallet), last time each: a failed-login
 * backoff over the whole account spares them, so strangers guessing elsewhere cannot lock the owner out.
 */
export const signInAddresses = pgTable(
  'sign_in_addresses',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    address: text('address').notNull(),
    lastSignedInAt: timestamp('last_signed_in_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.address] })],
);

/** A Sign-In With Solana challenge: issued once, consumed once, with the exact input and text it issued. */
export const signInNonces = pgTable(
  'sign_in_nonces',
  {
    nonce: text('nonce').primaryKey(),
    walletAddress: text('wallet_address').notNull(),
    input: jsonb('input').notNull(),
    message: text('message').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sign_in_nonces_expires_idx').on(t.expiresAt)],
);

/** Proof that a verified wallet may register: single use, short-lived, stored as a hash. */
export const registrationTokens = pgTable(
  'registration_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    walletAddress: text('wallet_address').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('registration_tokens_expires_idx').on(t.expiresAt)],
);

/** What the server expects a user to pay before it credits anything: the exact message it built (decision 021). */
export const paymentIntents = pgTable(
  'payment_intents',
  {
    id: id(),
    purpose: text('purpose').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    dareId: integer('dare_id').references(() => dares.id, { onDelete: 'set null' }),
    fromWallet: text('from_wallet').notNull(),
    escrowWallet: text('escrow_wallet').notNull(),
    amount: sol('amount').notNull(),
    /**
     * A random key tying one transaction to one intent: in a program transaction, the text of its
     * memo (every message the server builds is its own); in a pre-program transfer, a read-only account.
     */
    reference: text('reference').notNull(),
    /** Pre-program transfers: the slot the intent was issued at. Program payments: 0 (their message hash binds them). */
    minSlot: bigint('min_slot', { mode: 'bigint' }).notNull(),
    /** The escrow program instruction the server built: create_vault or deposit (null: a pre-program transfer). */
    programInstruction: text('program_instruction'),
    /** create_vault: the deadline (whole seconds) and kind the vault was built with. */
    vaultDeadline: timestamp('vault_deadline', { withTimezone: true }),
    vaultKind: text('vault_kind'),
    /** create_vault: the client sent that deadline (step 7 then wants the form's deadline equal to it). */
    deadlineRequested: boolean('deadline_requested').notNull().default(false),
    /** The transfer that paid it: set when the server first saw it confirmed (`paidAt`). */
    signature: text('signature'),
    /** SHA-256 (hex) of the message bytes the server built: the relay sends nothing else. */
    messageHash: text('message_hash'),
    /** The one relay of this intent (POST /api/send-transaction), set before sending. */
    relaySignature: text('relay_signature'),
    relayedAt: timestamp('relayed_at', { withTimezone: true }),
    /** When the confirmed transfer was booked on the ledger as money held for the payer. */
    paidAt: timestamp('paid_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Settled: credited (a dare, contribution or prize) or taken for a refund to the payer. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    usedFor: text('used_for'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundSignature: text('refund_signature'),
    /** When the job looked the expired intent's reference up on chain (once). */
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_intents_reference_unique').on(t.reference),
    uniqueIndex('payment_intents_signature_unique').on(t.signature),
    index('payment_intents_message_hash_idx').on(t.messageHash),
    index('payment_intents_expires_idx').on(t.expiresAt),
    check('payment_intents_purpose_valid', inList('purpose', ['stake', 'contribution'])),
    check(
      'payment_intents_used_for_valid',
      sql`used_for is null or used_for in ('credit', 'refund', 'lapsed')`,
    ),
    check('payment_intents_amount_positive', sql`${t.amount} > 0`),
    check(
      'payment_intents_program_instruction_valid',
      sql`program_instruction is null or program_instruction in ('create_vault', 'deposit')`,
    ),
    check(
      'payment_intents_vault_kind_valid',
      sql`vault_kind is null or vault_kind in ('community', 'major')`,
    ),
    check(
      'payment_intents_create_vault_terms',
      sql`program_instruction is distinct from 'create_vault' or (vault_deadline is not null and vault_kind is not null)`,
    ),
    index('payment_intents_user_escrow_idx').on(t.userId, t.escrowWallet),
  ],
);

/**
 * History: SOL a wallet sent straight to a custodial escrow that never became a dare, found,
 * booked and refunded by the sweep of decision 011 (stray SOL). Nothing writes it any more: with
 * the escrow program no key can move such SOL, and a vault's stray lamports leave with its settle
 * or last refund, booked as `surplus` (decision 021).
 */
export const strayPayments = pgTable(
  'stray_payments',
  {
    id: id(),
    escrowWallet: text('escrow_wallet').notNull(),
    /** The inbound transaction, and the wallet whose transfer(s) in it reached the escrow. */
    signature: text('signature').notNull(),
    fromWallet: text('from_wallet').notNull(),
    amount: sol('amount').notNull(),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull(),
    /** The transfer that returned it: its own refund, or the one that emptied the escrow (dust). */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundSignature: text('refund_signature'),
  },
  (t) => [
    uniqueIndex('stray_payments_movement_unique').on(t.signature, t.escrowWallet, t.fromWallet),
    index('stray_payments_escrow_idx').on(t.escrowWallet, t.refundedAt),
    check('stray_payments_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** Every SOL movement into or out of an escrow, append-only (a trigger refuses UPDATE and DELETE). */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    kind: text('kind').notNull(),
    escrowWallet: text('escrow_wallet').notNull(),
    /** The wallet on the other side of the movement (payer of a stake, receiver of a payout). */
    counterparty: text('counterparty').notNull(),
    /** +1 into the escrow, -1 out of it. */
    direction: integer('direction').notNull(),
    amount: sol('amount').notNull(),
    signature: text('signature').notNull(),
    dareId: integer('dare_id'),
    userId: integer('user_id'),
    claimId: integer('claim_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_entries_movement_unique').on(t.signature, t.escrowWallet, t.counterparty, t.kind),
    index('ledger_entries_escrow_idx').on(t.escrowWallet),
    check(
      'ledger_entries_kind_valid',
      inList('kind', ['stake', 'contribution', 'payout', 'refund', 'fee', 'surplus']),
    ),
    check('ledger_entries_direction_valid', sql`${t.direction} in (-1, 1)`),
    check('ledger_entries_amount_positive', sql`${t.amount} > 0`),
  ],
);

/** Who put how much into which dare; the refund source of truth. */
export const poolContributions = pgTable(
  'pool_contributions',
  {
    id: id(),
    dareId: integer('dare_id')
      .notNull()
      .references(() => dares.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    walletAddress: text('wallet_address').notNull(),
    kind: text('kind').notNull(),
    amount: sol('amount').notNull(),
    transactionSignature: text('transaction_signature').notNull(),
    refundSignature: text('refund_signature'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pool_contributions_signature_unique').on(t.transactionSignature),
    index('pool_contributions_dare_idx').on(t.dareId),
    check('pool_contributions_kind_valid', inList('kind', ['stake', 'contribution'])),
    check('pool_contributions_amount_positive', sql`${t.amount} > 0`),
  ],
);

/**
 * Every program transaction that moves a vault's pool out (a `settle` paying a prize, `refund`s
 * returning receipts), recorded with its signed bytes BEFORE it is sent: after a crash the
 * signature tells whether it landed, and while its blockhash is valid the same bytes can be re-sent
 * without any risk of a second payment. What it moved is booked from the landed transaction itself
 * (`amount` and `surplus` then hold what the chain moved). Rows from before issue 16 are custodial
 * transfers (contribution, intent and stray payment refunds).
 */
export const payoutTransfers = pgTable(
  'payout_transfers',
  {
    id: id(),
    purpose: text('purpose').notNull(),
    claimId: integer('claim_id').references(() => claims.id, { onDelete: 'set null' }),
    contributionId: integer('contribution_id').references(() => poolContributions.id, {
      onDelete: 'set null',
    }),
    /** A refund of money held for a payer whose payment never became a dare, contribution or prize. */
    intentId: integer('intent_id').references(() => paymentIntents.id),
    /** A refund of SOL sent straight to an escrow that never became a dare. */
    strayPaymentId: integer('stray_payment_id').references(() => strayPayments.id),
    /** No foreign key: the transfer history outlives a deleted dare, like the ledger. */
    dareId: integer('dare_id'),
    escrowWallet: text('escrow_wallet').notNull(),
    recipient: text('recipient').notNull(),
    amount: sol('amount').notNull(),
    /** SOL beyond the books swept along by the transfer that empties the escrow (sent on top of `amount`). */
    surplus: sol('surplus').notNull().default('0'),
    signature: text('signature').notNull(),
    wireTransaction: text('wire_transaction').notNull(),
    lastValidBlockHeight: bigint('last_valid_block_height', { mode: 'bigint' }).notNull(),
    status: text('status').notNull().default('sending'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payout_transfers_signature_unique').on(t.signature),
    // At most one live (sending or landed) transfer per claim and per contribution: exactly once.
    uniqueIndex('payout_transfers_one_live_per_claim')
      .on(t.claimId)
      .where(sql`status in ('sending', 'confirmed')`),
    uniqueIndex('payout_transfers_one_live_per_contribution')
      .on(t.contributionId)
      .where(sql`status in ('sending', 'confirmed')`),
    uniqueIndex('payout_transfers_one_live_per_intent')
      .on(t.intentId)
      .where(sql`status in ('sending', 'confirmed')`),
    uniqueIndex('payout_transfers_one_live_per_stray_payment')
      .on(t.strayPaymentId)
      .where(sql`status in ('sending', 'confirmed')`),
    // One transaction on its way per vault: settle, cancel and refunds of a vault go one at a time.
    uniqueIndex('payout_transfers_one_sending_per_escrow').on(t.escrowWallet).where(sql`status = 'sending'`),
    index('payout_transfers_escrow_idx').on(t.escrowWallet, t.status),
    index('payout_transfers_status_idx').on(t.status),
    check('payout_transfers_purpose_valid', inList('purpose', ['claim', 'refund'])),
    check('payout_transfers_status_valid', inList('status', ['sending', 'confirmed', 'failed', 'expired'])),
    check('payout_transfers_amount_positive', sql`${t.amount} > 0`),
    check('payout_transfers_surplus_non_negative', sql`${t.surplus} >= 0`),
  ],
);

/**
 * The chain this database's money lives on, recorded at the first start (one row): its genesis
 * hash, the escrow programs' ids and the platform fee payer's address. Every later start compares
 * and refuses to run on another chain, program or seed, whose vaults these rows do not describe
 * (docs/decisions/028).
 */
export const chainIdentity = pgTable(
  'chain_identity',
  {
    id: integer('id').primaryKey().default(1),
    genesisHash: text('genesis_hash').notNull(),
    /**
     * Escrow program v1; null while no start ran one (a chain that never had a v1 vault, decision
     * 081), recorded by the first start that does.
     */
    escrowProgramId: text('escrow_program_id'),
    /** Escrow program v2 (new vaults); null until the first start that runs it records it. */
    escrowProgramV2Id: text('escrow_program_v2_id'),
    feePayer: text('fee_payer').notNull(),
    recordedAt: createdAt(),
  },
  (t) => [check('chain_identity_one_row', sql`${t.id} = 1`)],
);

/**
 * How far the job that notices a vault's transactions has read its history (decision 037): the
 * newest signature mentioning the vault that was read and, if it paid something out, booked.
 * The next run asks the chain only for what is newer (`until`), so transactions that merely
 * mention a vault are read once, not at every run.
 */
export const vaultSignatureCursors = pgTable('vault_signature_cursors', {
  escrowWallet: text('escrow_wallet').primaryKey(),
  newestSignature: text('newest_signature').notNull(),
  updatedAt: updatedAt(),
});

/**
 * Every video uploaded here: who uploaded it, for which dare, and the submission it became. A
 * submission takes only its author's own upload for that dare, once; an upload no submission took
 * yet is pending, at most one per account and dare (a new one replaces it). docs/decisions/028.
 */
export const videoUploads = pgTable(
  'video_uploads',
  {
    /** The storage key (32 hex characters), as in `/uploads/videos/<key>`. */
    key: text('key').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dareId: integer('dare_id')
      .notNull()
      .references(() => dares.id, { onDelete: 'cascade' }),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** SHA-256 (hex) of the bytes as they were written, hashed on the way in; null on older rows. */
    sha256: text('sha256'),
    submissionId: integer('submission_id').references(() => dareSubmissions.id, { onDelete: 'cascade' }),
    /** The client address it came from: unapproved videos are limited per address too; null on older rows. */
    uploaderAddress: text('uploader_address'),
    createdAt: createdAt(),
  },
  (t) => [
    index('video_uploads_user_idx').on(t.userId),
    index('video_uploads_address_idx').on(t.uploaderAddress),
    uniqueIndex('video_uploads_one_pending_per_dare')
      .on(t.userId, t.dareId)
      .where(sql`submission_id is null`),
    uniqueIndex('video_uploads_submission_unique').on(t.submissionId),
    index('video_uploads_pending_idx').on(t.createdAt).where(sql`submission_id is null`),
    check('video_uploads_size_non_negative', sql`${t.size} >= 0`),
  ],
);

/** A winner named by a proposal, in the program's share order (the first gets 100%, or 70%). */
export interface ProposalWinnerRecord {
  submissionId: number;
  userId: number;
  walletAddress: string;
  claimType: ClaimType;
  /** What execute will pay this winner from the pool as it was when proposed (lamports, decimal). */
  lamports: string;
}

export const PROPOSAL_STATUSES = ['collecting', 'proposed', 'vetoed', 'executed'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/**
 * Payout proposals of escrow program v2 vaults (docs/decisions/042-naming-winners.md): a `propose`
 * transaction the judges' own wallets sign in turn (`collecting`, the partly signed wire
 * transaction kept for the next judge), relayed by the server once enough signed (`proposed`,
 * waiting for its window), then `vetoed` by the guardian or `executed`. At most one live
 * (collecting or proposed) proposal per dare.
 */
export const payoutProposals = pgTable(
  'payout_proposals',
  {
    id: id(),
    dareId: integer('dare_id')
      .notNull()
      .references(() => dares.id, { onDelete: 'cascade' }),
    vault: text('vault').notNull(),
    winners: jsonb('winners').$type<ProposalWinnerRecord[]>().notNull(),
    status: text('status').$type<ProposalStatus>().notNull().default('collecting'),
    /** The propose as wire bytes (base64), with every judge signature gathered so far. */
    wireTransaction: text('wire_transaction').notNull(),
    /** SHA-256 (hex) of the message bytes: the relay accepts nothing else. */
    messageHash: text('message_hash').notNull(),
    lastValidBlockHeight: bigint('last_valid_block_height', { mode: 'bigint' }).notNull(),
    /** The judges whose signature slots the transaction has, in order. */
    signers: text('signers').array().notNull(),
    signedBy: text('signed_by').array().notNull().default(sql`'{}'::text[]`),
    /** The vault's threshold: how many judges must sign. */
    signaturesNeeded: integer('signatures_needed').notNull(),
    /** The propose transaction's signature, once relayed. */
    signature: text('signature'),
    /** When the window ends: estimated while collecting, the program's once proposed. */
    executesAt: timestamp('executes_at', { withTimezone: true }).notNull(),
    /** The vault's veto count when proposed: a higher one on chain means this one was vetoed. */
    vetoCount: integer('veto_count').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    proposedAt: timestamp('proposed_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payout_proposals_one_live_per_dare')
      .on(t.dareId)
      .where(sql`status in ('collecting', 'proposed')`),
    uniqueIndex('payout_proposals_signature_unique').on(t.signature),
    index('payout_proposals_status_idx').on(t.status, t.executesAt),
    check('payout_proposals_status_valid', inList('status', PROPOSAL_STATUSES)),
  ],
);

/**
 * In-app notifications (issue 35, docs/decisions/074-notifications.md): one row per recipient,
 * written in the transaction of the event it reports. `data` holds what the kind carries beyond its
 * text (winners, amounts, transaction, reason).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    dareId: integer('dare_id'),
    title: text('title').notNull(),
    body: text('body').notNull(),
    link: text('link').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id),
    index('notifications_unread_idx').on(t.userId).where(sql`read_at is null`),
  ],
);

/**
 * Events notified once, whoever notices them first (a dare's `dare-ending`, a major dare's
 * `major-dare-started`): the key's row is the proof it was written.
 */
export const notificationOnce = pgTable('notification_once', {
  key: text('key').primaryKey(),
  createdAt: createdAt(),
});

/**
 * The outbox: one row per delivery over a channel (an email to a user, a webhook event to one
 * receiver), claimed by the delivery job (`claimed_until` is its lease), retried with backoff
 * until `expires_at`. `delivery_id` is what the receiver sees (X-DarePool-Delivery, the body's `id`).
 * A webhook event is written once (`channel` 'webhook', `target` null) and spread to the configured
 * receivers by the job, one row each, sharing its id.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: id(),
    deliveryId: text('delivery_id').notNull(),
    channel: text('channel').$type<'email' | 'webhook'>().notNull(),
    /** The email's kind (a notification kind or 'verify-email'), the webhook's event. */
    event: text('event').notNull(),
    notificationId: integer('notification_id').references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    dareId: integer('dare_id'),
    /** A webhook receiver's URL; null on a webhook event not spread yet and on emails (sent to the user's verified address). */
    target: text('target'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('notification_deliveries_once').on(t.deliveryId, sql`coalesce(${t.target}, '')`),
    index('notification_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`delivered_at is null and failed_at is null`),
    index('notification_deliveries_created_idx').on(t.createdAt),
    check('notification_deliveries_channel_valid', inList('channel', ['email', 'webhook'])),
  ],
);

/**
 * A user's notification settings: the email address (pending until its mail's link is opened;
 * only the SHA-256 of the link's token is kept), which kinds go by email, and the Major Dare opt-in.
 */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    pendingEmail: text('pending_email'),
    emailTokenHash: text('email_token_hash'),
    emailTokenExpiresAt: timestamp('email_token_expires_at', { withTimezone: true }),
    /** Kind → false turns its email off; a kind not named is on. */
    emailPreferences: jsonb('email_preferences')
      .$type<Record<string, boolean>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    majorDareOptIn: boolean('major_dare_opt_in').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [index('notification_settings_major_idx').on(t.userId).where(sql`major_dare_opt_in`)],
);
