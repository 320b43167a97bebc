import type { Address } from '@solana/kit';
import { DARE_LIMITS } from '#contract/dares';
import type { VaultKind } from '#contract/payments';
import { DAY_MS } from '#contract/time';
import type { EscrowKeys } from '#server/chain/escrow-keys';

/** What a new vault is created with (decision 021). */
export interface VaultTerms {
  kind: VaultKind;
  /** Whole seconds, as the program keeps it. */
  deadline: Date;
  /** The client chose the deadline: the dare's must then be exactly this one. */
  deadlineRequested: boolean;
}

/**
 * The terms of a new vault from create-transaction's fields: without a kind, community. Without a
 * deadline, the longest a dare may run, marked not requested: create-transaction refuses such a
 * new vault (decision 037); vaults built that way before keep their old rule at step 7.
 */
export function vaultTerms(body: { deadline?: string; kind?: VaultKind }, now: Date): VaultTerms {
  const requested = body.deadline === undefined ? null : new Date(body.deadline);
  const deadline = requested ?? new Date(now.getTime() + DARE_LIMITS.deadlineMaxDays * DAY_MS);
  return { kind: body.kind ?? 'community', deadline: wholeSeconds(deadline), deadlineRequested: !!requested };
}

/** The program keeps unix seconds; a deadline is compared at that precision. */
export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

export function unixSeconds(date: Date): bigint {
  return BigInt(Math.floor(date.getTime() / 1000));
}

/** The platform's two program keys: the moderator every vault names, the rent payer of every account. */
export interface PlatformKeys {
  moderator: Address;
  rentPayer: Awaited<ReturnType<EscrowKeys['feePayer']>>;
}

/** Derived once per process: each derivation imports a key. */
export function platformKeys(escrowKeys: EscrowKeys): () => Promise<PlatformKeys> {
  let keys: Promise<PlatformKeys> | undefined;
  return () => {
    keys ??= Promise.all([escrowKeys.moderator(), escrowKeys.feePayer()]).then(([moderator, rentPayer]) => ({
      moderator: moderator.address,
      rentPayer,
    }));
    return keys;
  };
}
