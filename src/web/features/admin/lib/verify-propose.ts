/**
 * What a judge's wallet is about to sign, read by the web app itself (issue 33 item 7, decision
 * 054): the server's propose transaction is decoded here and checked against what this page knows
 * on its own — DarePool's program id (GET /api/config), the dare's vault (the dare itself), the
 * dare's judges (its outcome), the winners the judge picked (the panel's own state) and the shares
 * the rules give them (src/contract/propose-layout.ts). Anything else refuses it before a wallet
 * sees it. Loaded with the propose dialog only: kit's decoders stay out of the first load.
 */
import {
  AccountRole,
  type Address,
  decompileTransactionMessage,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Instruction,
  isAdvanceNonceAccountInstruction,
} from '@solana/kit';
import type { ProposalWinner } from '#contract/judging';
import { solToLamports } from '#contract/money';
import {
  PROPOSE_WINNER_COUNT,
  proposalSharePercents,
  proposalShares,
  proposeAccountIndex,
  readProposeData,
} from '#contract/propose-layout';
import { PROPOSE_CHECK_MESSAGES } from './propose-check-messages';

/** The SPL Memo programs (v2 and v1): a memo moves nothing, so a propose may carry one. */
const MEMO_PROGRAMS: ReadonlySet<string> = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]);

/**
 * Solana's Compute Budget program: the server sets a transaction's compute-unit limit (tag 2) and
 * price (tag 3) (decision 068). They touch no account and are paid by the fee payer, which is never
 * a judge (checked below), so a propose may carry them.
 */
const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
const isComputeBudget = (instruction: Instruction) =>
  instruction.programAddress === COMPUTE_BUDGET_PROGRAM &&
  (instruction.accounts ?? []).length === 0 &&
  (instruction.data?.[0] === 2 || instruction.data?.[0] === 3);

/** The facts the page knows apart from the answer carrying the transaction. */
export interface ProposeExpectations {
  /** Escrow program v2's id, from GET /api/config. */
  programId: string;
  /** The dare's vault, from the dare. */
  vault: string;
  isMajor: boolean;
  /** The vault's judges, from the dare's outcome. */
  judges: readonly string[];
  /**
   * The wallets the judge picked, in share order (admin's 70% first); null for a co-signer, who
   * signs winners another judge picked and reads them here before signing.
   */
  picked: readonly { wallet: string | null; name: string }[] | null;
}

/** A winner as the transaction pays it; `lamports` is its share of the stated pot, by the rules. */
export interface DecodedWinner {
  walletAddress: string;
  lamports: bigint;
  percent: number;
}

export interface CheckedPropose {
  winners: DecodedWinner[];
  /** The judges whose signatures the transaction asks for. */
  judgeSlots: string[];
}

export type ProposeCheck = { ok: true; propose: CheckedPropose } | { ok: false; reason: string };

class Refused extends Error {}

function refuse(reason: string): never {
  throw new Refused(reason);
}

function decode(transaction: string) {
  try {
    const wire = getTransactionDecoder().decode(getBase64Encoder().encode(transaction));
    return getCompiledTransactionMessageDecoder().decode(wire.messageBytes);
  } catch {
    return refuse(PROPOSE_CHECK_MESSAGES.unreadable);
  }
}

function signersOf(compiled: ReturnType<typeof decode>): string[] {
  return compiled.staticAccounts.slice(0, compiled.header.numSignerAccounts);
}

/**
 * Sorts the instructions: at most a leading nonce advance paid by the fee payer, the compute budget,
 * memos, one propose.
 */
function proposeInstruction(instructions: readonly Instruction[], feePayer: string, programId: string) {
  let propose: Instruction | null = null;
  for (const [index, instruction] of instructions.entries()) {
    if (isAdvanceNonceAccountInstruction(instruction)) {
      // The nonce's authority signs the advance: DarePool's fee payer, never a judge.
      if (index !== 0 || instruction.accounts[2].address !== feePayer)
        refuse(PROPOSE_CHECK_MESSAGES.misplacedNonce);
      continue;
    }
    if (MEMO_PROGRAMS.has(instruction.programAddress) && (instruction.accounts ?? []).length === 0) continue;
    if (isComputeBudget(instruction)) continue;
    if (instruction.programAddress !== programId || !instruction.data || !readProposeData(instruction.data)) {
      const isPropose = instruction.data && readProposeData(instruction.data);
      refuse(
        isPropose && !instructions.some((other) => other.programAddress === programId)
          ? PROPOSE_CHECK_MESSAGES.noProposal(instruction.programAddress, programId)
          : PROPOSE_CHECK_MESSAGES.extraInstruction(instruction.programAddress),
      );
    }
    if (propose) refuse(PROPOSE_CHECK_MESSAGES.twoProposals);
    propose = instruction;
  }
  return propose ?? refuse(PROPOSE_CHECK_MESSAGES.noProposal('(none)', programId));
}

function checkOrThrow(
  transaction: string,
  claimed: readonly ProposalWinner[],
  expected: ProposeExpectations,
): CheckedPropose {
  const compiled = decode(transaction);
  if (compiled.version !== 0 && compiled.version !== 'legacy') refuse(PROPOSE_CHECK_MESSAGES.unreadable);
  if ('addressTableLookups' in compiled && (compiled.addressTableLookups ?? []).length > 0)
    refuse(PROPOSE_CHECK_MESSAGES.lookupTables);
  let message: ReturnType<typeof decompileTransactionMessage>;
  try {
    message = decompileTransactionMessage(compiled);
  } catch {
    return refuse(PROPOSE_CHECK_MESSAGES.unreadable);
  }
  const feePayer = message.feePayer.address;
  const judges = new Set(expected.judges);
  if (judges.has(feePayer)) refuse(PROPOSE_CHECK_MESSAGES.feePayerIsJudge);
  const propose = proposeInstruction(message.instructions, feePayer, expected.programId);
  const accounts = propose.accounts ?? [];
  const winnerCount = readProposeData(propose.data!)!.winnerCount;
  const expectedCount = expected.isMajor ? PROPOSE_WINNER_COUNT.major : PROPOSE_WINNER_COUNT.community;
  if (winnerCount !== expectedCount) refuse(PROPOSE_CHECK_MESSAGES.winnerCount(winnerCount, expectedCount));
  const firstJudge = proposeAccountIndex.firstJudge(winnerCount);
  if (accounts.length <= firstJudge) refuse(PROPOSE_CHECK_MESSAGES.unreadable);

  const vault = accounts[proposeAccountIndex.vault]!.address;
  if (vault !== expected.vault) refuse(PROPOSE_CHECK_MESSAGES.wrongVault(vault, expected.vault));

  const percents = proposalSharePercents(winnerCount);
  const wallets = Array.from(
    { length: winnerCount },
    (_, i) => accounts[proposeAccountIndex.winner(i)]!.address,
  );
  for (const [index, wallet] of wallets.entries()) {
    if (!expected.picked) break;
    const pick = expected.picked[index];
    if (!pick?.wallet) refuse(PROPOSE_CHECK_MESSAGES.unknownWinner);
    if (wallet !== pick.wallet)
      refuse(PROPOSE_CHECK_MESSAGES.wrongWinner(percents[index]!, wallet, `${pick.name} (${pick.wallet})`));
  }

  // Every signature it asks for is DarePool's fee payer's or a judge's, and a judge only signs.
  const judgeSlots = accounts.slice(firstJudge).map((account) => account.address);
  for (const signer of signersOf(compiled)) {
    if (signer === feePayer) continue;
    if (!judges.has(signer) || !judgeSlots.includes(signer as Address))
      refuse(PROPOSE_CHECK_MESSAGES.notAJudge(signer));
  }
  for (const account of accounts.slice(firstJudge)) {
    if (!judges.has(account.address)) refuse(PROPOSE_CHECK_MESSAGES.notAJudge(account.address));
    if (account.role !== AccountRole.READONLY_SIGNER)
      refuse(PROPOSE_CHECK_MESSAGES.judgeWritable(account.address));
  }

  // The server's description must be the transaction's, in amounts that follow the rules.
  if (claimed.length !== winnerCount || claimed.some((winner, i) => winner.walletAddress !== wallets[i]))
    refuse(PROPOSE_CHECK_MESSAGES.misdescribed);
  const stated = claimed.map((winner) => solToLamports(winner.amount));
  const shares = proposalShares(
    stated.reduce((sum, lamports) => sum + lamports, 0n),
    winnerCount,
  );
  if (shares.some((share, i) => share !== stated[i])) refuse(PROPOSE_CHECK_MESSAGES.misdescribed);

  return {
    winners: wallets.map((walletAddress, i) => ({
      walletAddress,
      lamports: shares[i]!,
      percent: percents[i]!,
    })),
    judgeSlots,
  };
}

/** The propose, checked; or why it must not be signed. */
export function checkPropose(
  transaction: string,
  claimed: readonly ProposalWinner[],
  expected: ProposeExpectations,
): ProposeCheck {
  try {
    return { ok: true, propose: checkOrThrow(transaction, claimed, expected) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    return { ok: false, reason: PROPOSE_CHECK_MESSAGES.unreadable };
  }
}
