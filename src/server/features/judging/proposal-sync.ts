/**
 * A stored proposal brought in line with its vault: what the chain did after it was recorded (a
 * veto, an execute, a relay that landed but was not recorded) is read back whenever it is looked at.
 */
import {
  address,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  partiallySignTransaction,
} from '@solana/kit';
import { fetchVaultV2 } from '#server/chain/escrow-program/v2';
import { decodeWire, transactionId } from '#server/chain/relay';
import type { Judging } from './judged-vaults';
import { fromSeconds } from './proposal-view';
import { currentNonce, NO_BLOCK_HEIGHT_LIMIT, proposeNonceAddress } from './propose-nonce';
import {
  findLiveProposal,
  listLiveProposals,
  markProposalExecuted,
  type ProposalRow,
  proposalClaimsPaid,
  recordProposed,
  recordVetoed,
} from './repo';

/**
 * Brings a live proposal in line with its vault: a propose that landed but was not recorded
 * (a relay cut short), a veto (the vault open again with a higher veto count), an execute.
 */
export async function syncProposal(
  { db, chain, clock, escrowKeys, escrowProgramV2Id }: Judging,
  row: ProposalRow,
): Promise<void> {
  const { rpc } = chain;
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

/** The dare's live proposal, if any, brought in line with its vault. */
export async function syncDare(judging: Judging, dareId: number): Promise<void> {
  const live = await findLiveProposal(judging.db, dareId);
  if (live) await syncProposal(judging, live);
}

/** Every live proposal read against its vault (the job; a veto is noticed here). */
export async function syncAll(judging: Judging): Promise<void> {
  for (const row of await listLiveProposals(judging.db)) await syncProposal(judging, row);
}

/** Whether a stored propose can still land: its blockhash is recent, or its nonce is current. */
export async function stillLands({ chain, escrowKeys }: Judging, row: ProposalRow): Promise<boolean> {
  const { rpc } = chain;
  if (row.lastValidBlockHeight !== NO_BLOCK_HEIGHT_LIMIT)
    return row.lastValidBlockHeight >= (await rpc.getBlockHeight({ commitment: 'confirmed' }).send());
  const message = getCompiledTransactionMessageDecoder().decode(decodeWire(row.wireTransaction).messageBytes);
  const feePayer = (await escrowKeys.feePayer()).address;
  const nonceAccount = await proposeNonceAddress(feePayer, address(row.vault));
  return (await currentNonce(rpc, nonceAccount)) === message.lifetimeToken;
}
