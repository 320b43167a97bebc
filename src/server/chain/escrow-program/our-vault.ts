/**
 * The one definition of "our vault" (docs/decisions/048-our-vault.md). A vault's address is known
 * before it exists, so anyone can create a vault there first, with other judges, guardian, window
 * or canceller: the program's promises hold only for vaults whose every term is DarePool's. This
 * module says whether the account at a vault address is one, and if not, which term differs.
 * Nothing is built into, credited from or shown as a pool of a vault that is not.
 */
import { type Address, fetchEncodedAccount, type GetAccountInfoApi, type Rpc } from '@solana/kit';
import type { Owned } from './accounts';
import { type AnyVault, decodeAnyVault, type EscrowPrograms } from './any-program';
import type { DareKind } from './layout';

const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address;

/** Every term of a DarePool vault: what a v2 vault at our address must hold, exactly. */
export interface OurVaultTerms {
  /** Escrow program v2: new vaults are its only (decision 046). */
  programId: Address;
  /** The server's moderator key: it may only cancel. */
  canceller: Address;
  /** Order-insensitive: the program counts signatures, not positions. */
  judges: readonly Address[];
  /** The threshold for the vault's kind. */
  threshold: number;
  guardian: Address;
  payoutWindow: bigint;
  kind: DareKind;
  /** Unix seconds: the dare's deadline. */
  deadline: bigint;
  /** Unix seconds: the deadline plus the refund grace. */
  refundAfter: bigint;
}

/** A term in which a vault differs from ours, in the order they are checked. */
export type VaultTerm =
  | 'program'
  | 'layout'
  | 'canceller'
  | 'judges'
  | 'threshold'
  | 'guardian'
  | 'payoutWindow'
  | 'kind'
  | 'deadline'
  | 'refundAfter';

/** Each term in words, for the answers that name it. */
export const VAULT_TERM_WORDS: Record<VaultTerm, string> = {
  program: 'program',
  layout: 'account layout',
  canceller: 'canceller',
  judges: 'judges',
  threshold: 'judge threshold',
  guardian: 'guardian',
  payoutWindow: 'payout window',
  kind: 'kind',
  deadline: 'deadline',
  refundAfter: 'refund date',
};

function sameJudges(a: readonly Address[], b: readonly Address[]): boolean {
  if (a.length !== b.length) return false;
  // Both free of repeats, so equal length and one inside the other make the same set.
  const wanted = new Set(b);
  return wanted.size === b.length && new Set(a).size === a.length && a.every((judge) => wanted.has(judge));
}

/**
 * The first term in which a decoded vault differs from ours (null: it is ours). A v1 vault differs
 * in its program: v1 takes no new vault and no new SOL.
 */
export function differingTerm(vault: Owned<AnyVault>, ours: OurVaultTerms): VaultTerm | null {
  if (vault.programId !== ours.programId || vault.version !== 2 || !vault.judging) return 'program';
  if (vault.moderator !== ours.canceller) return 'canceller';
  if (!sameJudges(vault.judging.judges, ours.judges)) return 'judges';
  if (vault.judging.threshold !== ours.threshold) return 'threshold';
  if (vault.judging.guardian !== ours.guardian) return 'guardian';
  if (vault.judging.payoutWindow !== ours.payoutWindow) return 'payoutWindow';
  if (vault.kind !== ours.kind) return 'kind';
  if (vault.deadline !== ours.deadline) return 'deadline';
  if (vault.refundAfter !== ours.refundAfter) return 'refundAfter';
  return null;
}

/**
 * The first term any of `candidates` differs in from the vault, or null when one of them matches.
 * No candidate (no create transaction was ever built for the address): no deadline of ours.
 */
export function differingFromAll(
  vault: Owned<AnyVault>,
  candidates: readonly OurVaultTerms[],
): VaultTerm | null {
  let first: VaultTerm | null = candidates.length === 0 ? 'deadline' : null;
  for (const ours of candidates) {
    const term = differingTerm(vault, ours);
    if (term === null) return null;
    first ??= term;
  }
  return first;
}

/** What is at a vault address: nothing yet, our vault, or a foreign account and the term that differs. */
export type VaultAtAddress =
  | { state: 'none' }
  | { state: 'ours'; vault: Owned<AnyVault> }
  | { state: 'foreign'; term: VaultTerm; vault: Owned<AnyVault> | null };

/**
 * Reads the account at `address` and judges it against our terms (any of `candidates`, e.g. the
 * create transactions built for one reservation). An account of another program, or of ours but
 * not a vault, is foreign ('program', 'layout'); a plain System account (lamports sent before the
 * vault exists) is no vault yet.
 */
export async function readVaultAt(
  rpc: Rpc<GetAccountInfoApi>,
  programs: EscrowPrograms,
  address: Address,
  candidates: readonly OurVaultTerms[],
): Promise<VaultAtAddress> {
  const account = await fetchEncodedAccount(rpc, address, { commitment: 'confirmed' });
  if (!account.exists || account.programAddress === SYSTEM_PROGRAM) return { state: 'none' };
  if (account.programAddress !== programs.v2 && account.programAddress !== programs.v1)
    return { state: 'foreign', term: 'program', vault: null };
  const decoded = decodeAnyVault(
    new Uint8Array(account.data),
    account.programAddress === programs.v2 ? 2 : 1,
  );
  if (!decoded) return { state: 'foreign', term: 'layout', vault: null };
  const vault: Owned<AnyVault> = {
    ...decoded,
    address,
    lamports: account.lamports,
    programId: account.programAddress,
  };
  const term = differingFromAll(vault, candidates);
  return term === null ? { state: 'ours', vault } : { state: 'foreign', term, vault };
}
