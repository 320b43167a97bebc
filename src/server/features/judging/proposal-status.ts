/** What a dare's proposal means to the rest of the app: its outcome, the admin's list, a cancel. */
import { address } from '@solana/kit';
import { type AdminProposal, type DareJudging, type DareProposal, JUDGING_MESSAGES } from '#contract/judging';
import { fetchChainTime } from '#server/chain/escrow-program/chain-clock';
import { fetchVaultV2 } from '#server/chain/escrow-program/v2';
import { conflict } from '#server/errors';
import { type Judging, vaultOf } from './judged-vaults';
import { syncAll, syncDare } from './proposal-sync';
import { landed, toWinners } from './proposal-view';
import { findDareForNaming, findLatestLandedProposal, findLiveProposal, listAdminProposals } from './repo';

/** GET /api/dares/{id}/outcome's `proposal` and `judging` (null for v1 vaults). */
export async function outcomeOf(
  judging: Judging,
  dareId: number,
): Promise<{ proposal: DareProposal | null; judging: DareJudging | null }> {
  const { db, chain, terms } = judging;
  const dare = await findDareForNaming(db, dareId);
  if (dare?.programVersion !== 2 || !dare.escrowWallet) return { proposal: null, judging: null };
  await syncDare(judging, dareId);
  const latest = await findLatestLandedProposal(db, dareId);
  let vaultTerms = terms.get(dare.escrowWallet) ?? null;
  if (!vaultTerms) {
    await vaultOf(judging, dare.escrowWallet).catch(() => null);
    vaultTerms = terms.get(dare.escrowWallet) ?? null;
  }
  const vetoed = latest?.status === 'vetoed';
  const proposal = latest ? landed(latest).proposal : null;
  // Asked of the chain only while it can matter: a standing proposal not yet executed.
  const inWindow =
    proposal !== null && !vetoed && latest?.status !== 'executed'
      ? BigInt(Math.floor(new Date(proposal.executesAt).getTime() / 1000)) >
        (await fetchChainTime(chain.rpc).catch(() => 0n))
      : false;
  return { proposal: proposal ? { ...proposal, vetoed, inWindow } : null, judging: vaultTerms };
}

/** GET /api/admin/proposals. */
export async function adminProposals(judging: Judging): Promise<AdminProposal[]> {
  await syncAll(judging);
  const rows = await listAdminProposals(judging.db, judging.clock());
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
}

/** Cancel / Delete: refused while a proposal stands (the program refuses cancel anyway). */
export async function assertCancellable(judging: Judging, dareId: number): Promise<void> {
  const { db, chain, escrowProgramV2Id } = judging;
  const dare = await findDareForNaming(db, dareId);
  if (dare?.programVersion !== 2 || !dare.escrowWallet) return;
  await syncDare(judging, dareId);
  const live = await findLiveProposal(db, dareId);
  const vault = await fetchVaultV2(chain.rpc, escrowProgramV2Id, address(dare.escrowWallet));
  if (live?.status === 'proposed' || vault?.status === 'proposed')
    throw conflict(JUDGING_MESSAGES.cannotCancelProposed);
}
