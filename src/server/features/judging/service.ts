/**
 * Naming winners on escrow program v2 (docs/decisions/042-naming-winners.md): the judges' own
 * wallets sign `propose`; the server builds it (its fee payer pays the fee), keeps the partly
 * signed transaction while judges sign in turn, and relays it once the vault's threshold signed,
 * adding only its fee payer's signature. It never signs as a judge: the program would refuse it.
 * What the chain does afterwards (a veto, an execute, a relay that landed but was not recorded) is
 * read back from the vault whenever a dare's proposal is looked at.
 */
import {
  type Address,
  address,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  isSolanaError,
  partiallySignTransaction,
  type Signature,
  type SignatureBytes,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  type Transaction,
} from '@solana/kit';
import type { ClaimType } from '#contract/claims';
import {
  type AdminProposal,
  type DareJudging,
  type DareProposal,
  JUDGING_MESSAGES,
  type MarkWinnerResponse,
  type ProposalWinner,
  type ProposeTransaction,
} from '#contract/judging';
import { MAJOR_DARE_MESSAGES } from '#contract/major-dare';
import { lamportsToSol } from '#contract/money';
import { proposalShares } from '#contract/propose-layout';
import { priorityFeesOf } from '#server/chain/compute-budget';
import type { EscrowKeys } from '#server/chain/escrow-keys';
import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import {
  compileProposeTransaction,
  customErrorCode,
  escrowV2ErrorMessage,
  fetchEntryV2,
  fetchVaultV2,
  findEntryAddress,
  type ProposeLifetime,
  type VaultV2,
} from '#server/chain/escrow-program/v2';
import type { ChainPort } from '#server/chain/port';
import {
  decodeSigned,
  decodeWire,
  isValidSignature,
  messageHash,
  type RelayFailures,
  sendAndConfirm,
  transactionId,
} from '#server/chain/relay';
import type { Db } from '#server/db/client';
import type { Clock } from '#server/deps';
import { AppError, badRequest, conflict, forbidden, notFound } from '#server/errors';
import type { UserRow } from '#server/features/auth/user';
import { type Announce, announceAboutUser, noAnnouncements } from '#server/features/chat/announce';
import { currentNonce, NO_BLOCK_HEIGHT_LIMIT, proposeNonce, proposeNonceAddress } from './propose-nonce';
import type { ProposalWinnerRecord } from './repo';
import {
  findDareForNaming,
  findLatestLandedProposal,
  findLiveProposal,
  findMajorPicks,
  findSubmissionForNaming,
  insertCollecting,
  listAdminProposals,
  listLiveProposals,
  markProposalExecuted,
  type ProposalRow,
  proposalClaimsPaid,
  recordProposed,
  recordVetoed,
  replaceCollecting,
  saveSignatures,
} from './repo';

export { markProposalExecuted } from './repo';

const MESSAGES = {
  submissionNotFound: 'Submission not found',
  wrongDare: 'This submission does not belong to that dare',
  notApproved: 'Only an approved submission can be marked as the winner',
  notOpen: 'Only an active dare can get a winner',
  notEntered: 'This submission was not entered on chain: its author never signed the entry',
  noWallet: 'The winner has no wallet to be paid to',
  useMajorWinner: 'Use the major dare winner selection for major dares',
  noVault: "This dare's vault is not on chain",
  relayFailed: (reason: string) => `The proposal failed: ${reason}`,
  unconfirmed: 'The proposal was sent but is not confirmed yet; look again in a moment',
} as const;

const failedBecause = (code: number | null) =>
  MESSAGES.relayFailed(code === null ? 'the network refused it' : escrowV2ErrorMessage(code));

/** A relayed propose's failures: a propose that expired is one to sign again. */
const PROPOSE_FAILURES: RelayFailures = {
  refused(error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = isSolanaError(cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)
      ? Number(cause.context.code)
      : null;
    return new AppError('TRANSACTION_FAILED', failedBecause(code));
  },
  failed: (transactionError) => failedBecause(customErrorCode(transactionError)),
  expired: () => badRequest(JUDGING_MESSAGES.wrongTransaction),
  unconfirmed: MESSAGES.unconfirmed,
};

export interface JudgingDeps {
  db: Db;
  chain: ChainPort;
  clock: Clock;
  escrowKeys: EscrowKeys;
  escrowProgramV2Id: Address;
  /** Chat announcements of a community dare's named winner (a Major Dare's picks announce themselves). */
  announce?: Announce;
}

interface Winner {
  submissionId: number;
  userId: number;
  walletAddress: Address;
  claimType: ClaimType;
}

const fromSeconds = (seconds: bigint) => new Date(Number(seconds) * 1000);

function toWinners(records: ProposalWinnerRecord[]): ProposalWinner[] {
  return records.map((w) => ({
    submissionId: w.submissionId,
    walletAddress: w.walletAddress,
    amount: lamportsToSol(BigInt(w.lamports)),
  }));
}

export function createJudgingService({
  db,
  chain,
  clock,
  escrowKeys,
  escrowProgramV2Id,
  announce = noAnnouncements,
}: JudgingDeps) {
  const { rpc } = chain;
  /** A vault's judges, threshold, guardian and window never change: read once per vault. */
  const terms = new Map<string, DareJudging>();

  async function vaultOf(vault: string): Promise<VaultV2 & { lamports: bigint }> {
    const found = await fetchVaultV2(rpc, escrowProgramV2Id, address(vault));
    if (!found) throw conflict(MESSAGES.noVault);
    terms.set(vault, {
      judges: found.judges,
      threshold: found.threshold,
      guardian: found.guardian,
      payoutWindowSeconds: Number(found.payoutWindow),
    });
    return found;
  }

  /** The dare when its vault is a v2 one; null for v1 (and for a dare without a vault). */
  async function v2Dare(dareId: number) {
    const dare = await findDareForNaming(db, dareId);
    // No dare: the v1 path answers it as it always did.
    if (dare?.programVersion !== 2 || !dare.escrowWallet) return null;
    return { ...dare, vault: dare.escrowWallet };
  }

  function requireJudge(user: UserRow, vault: VaultV2): Address {
    const wallet = user.walletAddress;
    if (!wallet || !vault.judges.includes(wallet as Address)) throw forbidden(JUDGING_MESSAGES.notJudge);
    return wallet as Address;
  }

  /**
   * Brings a live proposal in line with its vault: a propose that landed but was not recorded
   * (a relay cut short), a veto (the vault open again with a higher veto count), an execute.
   */
  async function sync(row: ProposalRow): Promise<void> {
    const vault = await fetchVaultV2(rpc, escrowProgramV2Id, address(row.vault));
    const now = clock();
    if (!vault) {
      // Closed after its payout (every record closed): executed if its claims were paid. A vault
      // closed by refunds after a veto and a cancel leaves them unpaid, and this row as it is.
      if (row.status === 'proposed' && (await proposalClaimsPaid(db, row)))
        await markProposalExecuted(db, row.dareId, now);
      return;
    }
    if (row.status === 'proposed') {
      if (vault.status === 'open' && vault.vetoCount > row.vetoCount) await recordVetoed(db, row.id, now);
      else if (vault.status === 'settled') await markProposalExecuted(db, row.dareId, now);
      return;
    }
    const named = vault.proposal?.winners.join(',');
    if (vault.status === 'proposed' && named === row.winners.map((w) => w.walletAddress).join(',')) {
      const transaction = decodeWire(row.wireTransaction);
      const signed = await partiallySignTransaction([(await escrowKeys.feePayer()).keyPair], transaction);
      const signature = transactionId(signed);
      const landed = await rpc.getSignatureStatuses([signature]).send();
      if (!landed.value[0] || landed.value[0].err) return;
      await recordProposed(db, {
        proposalId: row.id,
        messageHash: row.messageHash,
        signature,
        executesAt: fromSeconds(vault.proposal!.executesAt),
        vetoCount: vault.vetoCount,
        wireTransaction: getBase64EncodedWireTransaction(signed),
        signedBy: row.signers,
        now,
      });
    }
  }

  async function syncDare(dareId: number): Promise<void> {
    const live = await findLiveProposal(db, dareId);
    if (live) await sync(live);
  }

  /** Whether a stored propose can still land: its blockhash is recent, or its nonce is current. */
  async function stillLands(row: ProposalRow): Promise<boolean> {
    if (row.lastValidBlockHeight !== NO_BLOCK_HEIGHT_LIMIT)
      return row.lastValidBlockHeight >= (await rpc.getBlockHeight({ commitment: 'confirmed' }).send());
    const message = getCompiledTransactionMessageDecoder().decode(
      decodeWire(row.wireTransaction).messageBytes,
    );
    const feePayer = (await escrowKeys.feePayer()).address;
    const nonceAccount = await proposeNonceAddress(feePayer, address(row.vault));
    return (await currentNonce(rpc, nonceAccount)) === message.lifetimeToken;
  }

  function offered(row: ProposalRow): ProposeTransaction {
    return {
      transaction: row.wireTransaction,
      winners: toWinners(row.winners),
      executesAt: row.executesAt.toISOString(),
    };
  }

  /**
   * The propose for `winners` (in share order), for the calling judge to sign: the live one when
   * it names the same winners and can still land, else a new one (replacing a collecting one: it
   * can never land, as only the server adds the fee payer's signature, to the stored message).
   */
  async function offer(user: UserRow, dare: { id: number; vault: string }, winners: Winner[]) {
    const vault = await vaultOf(dare.vault);
    const caller = requireJudge(user, vault);
    await syncDare(dare.id);
    const live = await findLiveProposal(db, dare.id);
    if (live?.status === 'proposed') throw conflict(JUDGING_MESSAGES.proposalStanding);
    if (vault.status === 'proposed') throw conflict(JUDGING_MESSAGES.proposalStanding);
    if (vault.status !== 'open') throw conflict(MESSAGES.notOpen);
    const same = live?.winners.map((w) => `${w.submissionId}:${w.walletAddress}`).join(',');
    if (
      live &&
      same === winners.map((w) => `${w.submissionId}:${w.walletAddress}`).join(',') &&
      live.signers.includes(caller) &&
      (await stillLands(live))
    )
      return offered(live);
    for (const winner of winners) {
      const entry = await findEntryAddress(escrowProgramV2Id, address(dare.vault), winner.walletAddress);
      if (!(await fetchEntryV2(rpc, escrowProgramV2Id, entry.address))) throw conflict(MESSAGES.notEntered);
    }
    const shares = proposalShares(
      vault.lamports > vault.rent ? vault.lamports - vault.rent : 0n,
      winners.length,
    );
    if (shares[0]! <= 0n) throw conflict('This dare has no prize pool to pay');
    // The caller first, then other judges in the vault's order, up to its threshold.
    const signers = [caller, ...vault.judges.filter((j) => j !== caller)].slice(0, vault.threshold);
    const feePayer = await escrowKeys.feePayer();
    // One judge signs at once (a blockhash); several sign in turn, over longer than one lives.
    const lifetime: ProposeLifetime =
      signers.length > 1
        ? await proposeNonce(rpc, feePayer, address(dare.vault))
        : (await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send()).value;
    const transaction = await compileProposeTransaction({
      programId: escrowProgramV2Id,
      vault: address(dare.vault),
      winners: winners.map((w) => w.walletAddress),
      judges: signers,
      feePayer: feePayer.address,
      lifetime,
      microLamports: await priorityFeesOf(rpc).microLamportsFor([feePayer.address, address(dare.vault)]),
    });
    const executesAt = fromSeconds((await fetchChainTime(rpc)) + vault.payoutWindow);
    const row = {
      dareId: dare.id,
      vault: dare.vault,
      winners: winners.map((w, i) => ({ ...w, lamports: shares[i]!.toString() })),
      wireTransaction: getBase64EncodedWireTransaction(transaction),
      messageHash: messageHash(new Uint8Array(transaction.messageBytes)),
      lastValidBlockHeight: 'nonce' in lifetime ? NO_BLOCK_HEIGHT_LIMIT : lifetime.lastValidBlockHeight,
      signers,
      signaturesNeeded: vault.threshold,
      executesAt,
      vetoCount: vault.vetoCount,
      createdBy: user.id,
      now: clock(),
    };
    const stored = live
      ? await replaceCollecting(db, live.id, live.messageHash, row)
      : await insertCollecting(db, row);
    if (!stored) throw conflict('This proposal is being prepared by another judge; try again in a moment');
    return offered(stored);
  }

  /**
   * A judge's signed propose: checked to be the stored message with valid signatures, kept while
   * more judges must sign, else signed by the fee payer, sent, confirmed and recorded (once, however
   * many relay it at the same time: the transaction has one id, and the record is conditional).
   */
  async function relay(user: UserRow, dareId: number, vaultAddress: string, signedBase64: string) {
    const vault = await vaultOf(vaultAddress);
    requireJudge(user, vault);
    const signed = decodeSigned(signedBase64, JUDGING_MESSAGES.unreadableTransaction);
    const hash = signed.messageHash;
    await syncDare(dareId);
    const live = await findLiveProposal(db, dareId);
    if (live?.status === 'proposed' && live.messageHash === hash) return landed(live);
    if (live?.status !== 'collecting' || live.messageHash !== hash)
      throw badRequest(JUDGING_MESSAGES.wrongTransaction);
    const stored = decodeWire(live.wireTransaction);
    const signatures: Record<string, SignatureBytes | null> = { ...stored.signatures };
    for (const [signer, signature] of Object.entries(signed.transaction.signatures)) {
      if (signature === null || !live.signers.includes(signer)) continue;
      if (!(await isValidSignature(signer, signature, signed.messageBytes)))
        throw badRequest(JUDGING_MESSAGES.wrongTransaction);
      signatures[signer] = signature;
    }
    const merged = { ...stored, signatures } as Transaction;
    const signedBy = live.signers.filter((judge) => signatures[judge]);
    if (signedBy.length < live.signaturesNeeded) {
      const wireTransaction = getBase64EncodedWireTransaction(merged);
      await saveSignatures(db, live.id, live.messageHash, { wireTransaction, signedBy, now: clock() });
      return { signaturesNeeded: live.signaturesNeeded - signedBy.length, transaction: wireTransaction };
    }
    if (!(await stillLands(live))) throw badRequest(JUDGING_MESSAGES.wrongTransaction);
    const complete = await partiallySignTransaction([(await escrowKeys.feePayer()).keyPair], merged);
    const signature = transactionId(complete);
    const wire = getBase64EncodedWireTransaction(complete);
    await send(wire, signature, live.lastValidBlockHeight);
    const after = await fetchVaultV2(rpc, escrowProgramV2Id, address(vaultAddress));
    if (!after?.proposal) throw new AppError('CHAIN_UNAVAILABLE', MESSAGES.unconfirmed);
    const recordedHere = await recordProposed(db, {
      proposalId: live.id,
      messageHash: live.messageHash,
      signature,
      executesAt: fromSeconds(after.proposal.executesAt),
      vetoCount: after.vetoCount,
      wireTransaction: wire,
      signedBy,
      now: clock(),
    });
    // Recorded by this call or by a parallel relay of the same transaction: the same proposal.
    const recorded = await findLatestLandedProposal(db, dareId);
    if (!recorded || recorded.signature !== signature)
      throw new AppError('CHAIN_UNAVAILABLE', MESSAGES.unconfirmed);
    // Announced once, by the relay that recorded it, as Mark Winner announced on program v1.
    if (recordedHere)
      for (const winner of recorded.winners)
        if (winner.claimType === 'dare_winner')
          announceAboutUser(db, announce, dareId, winner.userId, (name) => `${name} won this dare!`);
    return landed(recorded);
  }

  function landed(row: ProposalRow) {
    return {
      proposal: {
        winners: toWinners(row.winners),
        executesAt: row.executesAt.toISOString(),
        signature: row.signature!,
      },
    };
  }

  /** Sends a complete propose (a parallel relay of the very same one is waited for) and confirms it. */
  async function send(wire: string, signature: Signature, lastValidBlockHeight: bigint): Promise<void> {
    await sendAndConfirm(
      rpc,
      wire,
      signature,
      {
        sentBefore: 'wait',
        ...(lastValidBlockHeight === NO_BLOCK_HEIGHT_LIMIT ? {} : { lastValidBlockHeight }),
      },
      PROPOSE_FAILURES,
    );
  }

  async function winnerOf(submissionId: number, dareId: number, claimType: ClaimType): Promise<Winner> {
    const submission = await findSubmissionForNaming(db, submissionId);
    if (!submission) throw notFound(MESSAGES.submissionNotFound);
    if (submission.dareId !== dareId) throw badRequest(MESSAGES.wrongDare);
    if (submission.status !== 'approved' && submission.status !== 'winner')
      throw badRequest(MESSAGES.notApproved);
    if (!submission.walletAddress) throw conflict(MESSAGES.noWallet);
    return {
      submissionId,
      userId: submission.userId,
      walletAddress: address(submission.walletAddress),
      claimType,
    };
  }

  return {
    /**
     * POST /api/admin/submissions/{id}/mark-winner on a v2 vault (null for a v1 one: the caller
     * keeps today's behaviour).
     */
    async markWinner(
      user: UserRow,
      submissionId: number,
      body: { dareId: number; signedTransaction?: string },
    ): Promise<MarkWinnerResponse | null> {
      const dare = await v2Dare(body.dareId);
      if (!dare) return null;
      if (body.signedTransaction) return relay(user, dare.id, dare.vault, body.signedTransaction);
      const submission = await findSubmissionForNaming(db, submissionId);
      if (!submission) throw notFound(MESSAGES.submissionNotFound);
      if (submission.dareId !== dare.id) throw badRequest(MESSAGES.wrongDare);
      if (dare.isMajor) throw badRequest(MESSAGES.useMajorWinner);
      if (dare.status !== 'active') {
        await syncDare(dare.id);
        const again = await findDareForNaming(db, dare.id);
        if (again?.status === 'completed') throw conflict(JUDGING_MESSAGES.proposalStanding);
        if (again?.status !== 'active') throw conflict(MESSAGES.notOpen);
      }
      if (submission.status !== 'approved') throw badRequest(MESSAGES.notApproved);
      return offer(user, dare, [await winnerOf(submissionId, dare.id, 'dare_winner')]);
    },

    /** Whether the dare's vault is a v2 one (its winners are named through proposals). */
    isJudged: async (dareId: number) => (await v2Dare(dareId)) !== null,

    /** A major dare pick must come from a judge of its vault (before it is recorded). */
    async requireMajorJudge(user: UserRow, dareId: number): Promise<void> {
      const dare = await v2Dare(dareId);
      if (!dare) return;
      requireJudge(user, await vaultOf(dare.vault));
      await syncDare(dareId);
      if (await findLiveProposal(db, dareId).then((p) => p?.status === 'proposed'))
        throw conflict(JUDGING_MESSAGES.proposalStanding);
    },

    /** Whether this very pick (winner type and submission) is recorded already. */
    async isRecordedPick(dareId: number, winnerType: 'admin' | 'community', submissionId: number) {
      const claimType = winnerType === 'admin' ? 'major_admin' : 'major_community';
      const picks = await findMajorPicks(db, dareId);
      return picks.some((p) => p.claimType === claimType && p.submissionId === submissionId);
    },

    /**
     * After a major dare pick was recorded: once both picks are, the propose naming them (admin
     * pick first: 70%); null while one is missing.
     */
    async majorPicks(user: UserRow, dareId: number): Promise<ProposeTransaction | null> {
      const dare = await v2Dare(dareId);
      if (!dare) return null;
      const picks = await findMajorPicks(db, dareId);
      const admin = picks.find((p) => p.claimType === 'major_admin');
      const community = picks.find((p) => p.claimType === 'major_community');
      if (!admin?.submissionId || !community?.submissionId) return null;
      return offer(user, dare, [
        await winnerOf(admin.submissionId, dareId, 'major_admin'),
        await winnerOf(community.submissionId, dareId, 'major_community'),
      ]);
    },

    /**
     * POST /api/admin/major-dare/{id}/winners: the caller is a judge of this Major Dare's v2
     * vault (a v1 Major Dare's picks go one at a time through /winner).
     */
    async requireMajorPairJudge(user: UserRow, dareId: number): Promise<void> {
      const dare = await findDareForNaming(db, dareId);
      if (!dare) throw notFound(MAJOR_DARE_MESSAGES.noMajorDare);
      if (!dare.isMajor) throw badRequest(MAJOR_DARE_MESSAGES.notMajor);
      const judged = await v2Dare(dareId);
      if (!judged) throw badRequest(MAJOR_DARE_MESSAGES.pairOnJudgedOnly);
      requireJudge(user, await vaultOf(judged.vault));
    },

    /** The propose naming both picks (admin's 70% first), nothing recorded (the picks were checked). */
    async offerMajorPair(user: UserRow, dareId: number, picks: { admin: number; community: number }) {
      const dare = await v2Dare(dareId);
      if (!dare) throw badRequest(MAJOR_DARE_MESSAGES.pairOnJudgedOnly);
      return offer(user, dare, [
        await winnerOf(picks.admin, dareId, 'major_admin'),
        await winnerOf(picks.community, dareId, 'major_community'),
      ]);
    },

    /**
     * Before the picks are recorded for a signed pair: it must sign the dare's live propose, and
     * that propose must name these picks in share order; else nothing is recorded.
     */
    async requireMajorPairProposal(
      user: UserRow,
      dareId: number,
      picks: { admin: number; community: number },
      signedTransaction: string,
    ): Promise<void> {
      const signed = decodeSigned(signedTransaction, JUDGING_MESSAGES.unreadableTransaction);
      await syncDare(dareId);
      const live = await findLiveProposal(db, dareId);
      const named = live?.winners.map((w) => w.submissionId).join(',');
      if (live?.messageHash !== signed.messageHash || named !== `${picks.admin},${picks.community}`)
        throw badRequest(JUDGING_MESSAGES.wrongTransaction);
      // The picks are recorded only behind the calling judge's own valid signature of this very
      // propose: the unsigned propose handed back (or a junk signature) records nothing.
      const judge = user.walletAddress;
      if (
        !judge ||
        !(await isValidSignature(judge, signed.transaction.signatures[judge as Address], signed.messageBytes))
      )
        throw badRequest(JUDGING_MESSAGES.wrongTransaction);
    },

    /** POST /api/admin/major-dare/{id}/winner with `signedTransaction` on a v2 vault. */
    async relayMajor(user: UserRow, dareId: number, signedTransaction: string) {
      const dare = await v2Dare(dareId);
      if (!dare) return null;
      return relay(user, dare.id, dare.vault, signedTransaction);
    },

    /** GET /api/dares/{id}/outcome's `proposal` and `judging` (null for v1 vaults). */
    async outcomeOf(dareId: number): Promise<{ proposal: DareProposal | null; judging: DareJudging | null }> {
      const dare = await findDareForNaming(db, dareId);
      if (dare?.programVersion !== 2 || !dare.escrowWallet) return { proposal: null, judging: null };
      await syncDare(dareId);
      const latest = await findLatestLandedProposal(db, dareId);
      let judging = terms.get(dare.escrowWallet) ?? null;
      if (!judging) {
        await vaultOf(dare.escrowWallet).catch(() => null);
        judging = terms.get(dare.escrowWallet) ?? null;
      }
      const vetoed = latest?.status === 'vetoed';
      const proposal = latest ? landed(latest).proposal : null;
      // Asked of the chain only while it can matter: a standing proposal not yet executed.
      const inWindow =
        proposal !== null && !vetoed && latest?.status !== 'executed'
          ? BigInt(Math.floor(new Date(proposal.executesAt).getTime() / 1000)) >
            (await fetchChainTime(rpc).catch(() => 0n))
          : false;
      return { proposal: proposal ? { ...proposal, vetoed, inWindow } : null, judging };
    },

    /** GET /api/admin/proposals. */
    async adminProposals(): Promise<AdminProposal[]> {
      await this.syncAll();
      const rows = await listAdminProposals(db, clock());
      return rows.map(({ proposal: p, dareTitle }) => ({
        dareId: p.dareId,
        dareTitle,
        vault: p.vault,
        state: p.status === 'collecting' ? 'collecting' : 'window',
        winners: toWinners(p.winners),
        executesAt: p.executesAt.toISOString(),
        signature: p.signature,
        signedBy: p.signedBy,
        signaturesNeeded: p.status === 'collecting' ? p.signaturesNeeded - p.signedBy.length : 0,
        transaction: p.status === 'collecting' ? p.wireTransaction : null,
      }));
    },

    /** Every live proposal read against its vault (the job; a veto is noticed here). */
    async syncAll(): Promise<void> {
      for (const row of await listLiveProposals(db)) await sync(row);
    },

    /** Cancel / Delete: refused while a proposal stands (the program refuses cancel anyway). */
    async assertCancellable(dareId: number): Promise<void> {
      const dare = await findDareForNaming(db, dareId);
      if (dare?.programVersion !== 2 || !dare.escrowWallet) return;
      await syncDare(dareId);
      const live = await findLiveProposal(db, dareId);
      const vault = await fetchVaultV2(rpc, escrowProgramV2Id, address(dare.escrowWallet));
      if (live?.status === 'proposed' || vault?.status === 'proposed')
        throw conflict(JUDGING_MESSAGES.cannotCancelProposed);
    },
  };
}

export type JudgingService = ReturnType<typeof createJudgingService>;
