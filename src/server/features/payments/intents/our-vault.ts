/**
 * Which terms a dare vault of ours must carry, and the check every path runs before it builds a
 * transaction into a vault, credits a payment or shows a pool (docs/decisions/048-our-vault.md).
 * The comparison itself is src/server/chain/escrow-program/our-vault.ts; this module knows where
 * our terms come from:
 * - judges, thresholds, guardian, window and canceller: recorded on the reservation when it was
 *   made (the configuration then), so a restart with other JUDGE_WALLETS does not disown the
 *   vaults made before it; a row from before they were recorded takes today's configuration;
 * - kind and deadline: every create transaction the server built for the address (its payment
 *   intents) and the dare it funds; refund_after is the deadline plus the refund grace.
 */
import { type Address, address, type GetAccountInfoApi, type Rpc } from '@solana/kit';
import { REFUND_GRACE_MS } from '#contract/dare-status';
import { PAYMENT_MESSAGES } from '#contract/payments';
import type { EscrowKeys } from '#server/chain/escrow-keys';
import type { EscrowPrograms } from '#server/chain/escrow-program/any-program';
import type { DareKind } from '#server/chain/escrow-program/layout';
import {
  type OurVaultTerms,
  readVaultAt,
  VAULT_TERM_WORDS,
  type VaultAtAddress,
  type VaultTerm,
} from '#server/chain/escrow-program/our-vault';
import type { DbOrTx } from '#server/db/client';
import type { RecordedVaultTerms } from '#server/db/schema';
import { AppError } from '#server/errors';
import { findDareVaultTarget } from '#server/features/payments/repo/credits';
import {
  type EscrowWalletRow,
  findEscrowWallet,
  markForeignVault,
} from '#server/features/payments/repo/escrow-wallets';
import { vaultCreationTargets } from '#server/features/payments/repo/payment-intents';
import type { Judging } from '#server/judging-keys';

/** The kind and deadline a vault is made for. */
export interface VaultTarget {
  kind: DareKind;
  deadline: Date;
}

/** The judging terms a new reservation records: today's configuration and our canceller. */
export function recordedTermsOf(judging: Judging, canceller: Address): RecordedVaultTerms {
  return {
    canceller,
    judges: [...judging.judges],
    threshold: judging.threshold,
    majorThreshold: judging.majorThreshold,
    guardian: judging.guardian,
    payoutWindowSeconds: judging.payoutWindowSeconds.toString(),
  };
}

const seconds = (date: Date) => BigInt(Math.floor(date.getTime() / 1000));

/** Every term of a vault made under `recorded` for `target`, as create_vault takes them. */
export function vaultTermsFor(
  recorded: RecordedVaultTerms,
  programId: Address,
  target: VaultTarget,
): OurVaultTerms {
  const deadline = seconds(target.deadline);
  return {
    programId,
    canceller: address(recorded.canceller),
    judges: recorded.judges.map((judge) => address(judge)),
    threshold: target.kind === 'major' ? recorded.majorThreshold : recorded.threshold,
    guardian: address(recorded.guardian),
    payoutWindow: BigInt(recorded.payoutWindowSeconds),
    kind: target.kind,
    deadline,
    refundAfter: deadline + BigInt(REFUND_GRACE_MS / 1000),
  };
}

/** 409 naming the term in which the vault is not ours. */
export function foreignVaultError(term: VaultTerm): AppError {
  return new AppError('CONFLICT', PAYMENT_MESSAGES.foreignVault(VAULT_TERM_WORDS[term]), {
    foreignTerm: term,
  });
}

/** 409: a vault of program v1 takes no new SOL (decision 048). */
export function v1RetiredError(): AppError {
  return new AppError('CONFLICT', PAYMENT_MESSAGES.v1Retired, { foreignTerm: 'program' });
}

export interface OurVaultsDeps {
  db: DbOrTx;
  rpc: Rpc<GetAccountInfoApi>;
  programs: EscrowPrograms;
  escrowKeys: EscrowKeys;
  judging: Judging;
  clock: () => Date;
}

/** What is at a dare vault's address, judged: v1 (retired, still ours for refunds), or as readVaultAt says. */
export type CheckedVault = VaultAtAddress | { state: 'v1'; programId: Address };

/** A dare whose vault has no reservation row (made outside the app): judged by today's terms and its dare. */
const ROWLESS: Omit<EscrowWalletRow, 'publicKey' | 'dareId'> = {
  id: 0,
  privateKey: null,
  derivationIndex: null,
  vaultSeed: null,
  programVersion: 2,
  vaultTerms: null,
  foreignTerm: null,
  reservedBy: null,
  balance: '0',
  status: 'active',
  expiresAt: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
};

export function createOurVaults(deps: OurVaultsDeps) {
  const { db, rpc, programs } = deps;
  let configured: Promise<RecordedVaultTerms> | undefined;

  /** The judging terms a new reservation records now: today's configuration. */
  function termsToRecord(): Promise<RecordedVaultTerms> {
    configured ??= deps.escrowKeys
      .moderator()
      .then((moderator) => recordedTermsOf(deps.judging, moderator.address));
    return configured;
  }

  /** The judging terms of this reservation: recorded, or today's configuration for an older row. */
  function recordedOf(escrow: EscrowWalletRow): Promise<RecordedVaultTerms> {
    return escrow.vaultTerms ? Promise.resolve(escrow.vaultTerms) : termsToRecord();
  }

  /**
   * Reads and judges the vault at `escrow`'s address: our terms are every create transaction built
   * for it, its dare's kind and deadline, and `extra` (a stake about to be built). A foreign vault
   * is recorded on the row (a reservation it took is closed: it never funds a dare).
   */
  async function check(escrow: EscrowWalletRow, extra: VaultTarget[] = []): Promise<CheckedVault> {
    const targets = [...(await vaultCreationTargets(db, escrow.publicKey)), ...extra];
    if (escrow.dareId !== null) {
      const dare = await findDareVaultTarget(db, escrow.dareId);
      if (dare) targets.push(dare);
    }
    const recorded = await recordedOf(escrow);
    const candidates = targets.map((target) => vaultTermsFor(recorded, programs.v2, target));
    const found = await readVaultAt(rpc, programs, address(escrow.publicKey), candidates);
    // Made by v1 before v2 (a v1 vault cannot sit at a v2 address): ours for its refunds only
    // (decision 046); no new SOL goes in.
    if (found.state === 'foreign' && found.vault?.version === 1 && found.vault.programId === programs.v1)
      return { state: 'v1', programId: found.vault.programId };
    if (found.state === 'foreign' && escrow.foreignTerm === null)
      await markForeignVault(db, escrow.publicKey, found.term, deps.clock());
    return found;
  }

  /**
   * The vault as a payment or an entry may go into it: ours. Nothing there yet: null (only a stake
   * creates it). A foreign vault or one of v1: 409 saying why.
   */
  async function requireOurs(escrow: EscrowWalletRow) {
    const found = await check(escrow);
    if (found.state === 'v1') throw v1RetiredError();
    if (found.state === 'foreign') throw foreignVaultError(found.term);
    return found.state === 'none' ? null : found.vault;
  }

  return {
    recordedOf,
    termsToRecord,
    check,
    requireOurs,
    /** requireOurs for a dare's vault (its reservation row, or the dare alone for a row-less one). */
    async requireOursFor(dare: { id: number; escrowWallet: string }) {
      const escrow = (await findEscrowWallet(db, dare.escrowWallet)) ?? {
        ...ROWLESS,
        publicKey: dare.escrowWallet,
        dareId: dare.id,
      };
      return requireOurs(escrow);
    },
  };
}

export type OurVaults = ReturnType<typeof createOurVaults>;
