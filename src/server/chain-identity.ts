import type { EscrowKeys } from './chain/escrow-keys';
import type { EscrowPrograms } from './chain/escrow-program/any-program';
import type { ChainPort } from './chain/port';
import { type ChainIdentity, countV1Vaults, recordChainIdentity } from './db/chain-identity-repo';
import type { DbOrTx } from './db/client';

/** A database that belongs to another chain, program or seed: the start stops with this one line. */
export class ChainIdentityError extends Error {}

const SEVERAL_INSTANCES =
  'to run several instances on one database, serve one chain with `npm run localnet` and point every instance at it ' +
  '(the same SOLANA_RPC_URL, ESCROW_PROGRAM_ID if any, ESCROW_PROGRAM_V2_ID and ESCROW_MASTER_SEED); otherwise give this instance its own database (DATABASE_URL)';

function mismatch(recorded: ChainIdentity, current: ChainIdentity): string | null {
  if (recorded.genesisHash !== current.genesisHash)
    return `This database belongs to another chain: it was set up on the chain with genesis hash ${recorded.genesisHash}, but this instance's chain has ${current.genesisHash}. Point SOLANA_RPC_URL at the chain its dares live on; ${SEVERAL_INSTANCES}.`;
  // Either side null: a start without v1 (decision 081); whether it may run is told by the vaults.
  if (
    recorded.escrowProgramId !== null &&
    current.escrowProgramId !== null &&
    recorded.escrowProgramId !== current.escrowProgramId
  )
    return `This database belongs to another chain: its dares' SOL is held by escrow program ${recorded.escrowProgramId}, but this instance's chain runs ${current.escrowProgramId} (each embedded chain is its own). Use that chain and ESCROW_PROGRAM_ID; ${SEVERAL_INSTANCES}.`;
  // Recorded by a start before program v2 (null): this start records it.
  if (recorded.escrowProgramV2Id !== null && recorded.escrowProgramV2Id !== current.escrowProgramV2Id)
    return `This database belongs to another chain: its new dares' SOL is held by escrow program v2 ${recorded.escrowProgramV2Id}, but this instance's chain runs ${current.escrowProgramV2Id} (each embedded chain is its own). Use that chain and ESCROW_PROGRAM_V2_ID; ${SEVERAL_INSTANCES}.`;
  if (recorded.feePayer !== current.feePayer)
    return `This database belongs to another escrow master seed: its fee payer is ${recorded.feePayer}, but this instance's seed derives ${current.feePayer}. Use the same ESCROW_MASTER_SEED as the instance that set it up; ${SEVERAL_INSTANCES}.`;
  return null;
}

/**
 * A start without escrow program v1 (decision 081) runs only on a database that never held a v1
 * vault: one that did needs v1 to refund and close them, so the start stops naming the id.
 */
async function missingV1(db: DbOrTx, recorded: ChainIdentity): Promise<string | null> {
  const vaults = await countV1Vaults(db);
  if (vaults === 0) return null;
  const id = recorded.escrowProgramId ?? 'the id it was deployed at';
  return `This database holds ${vaults} dare vault(s) of escrow program v1, but this instance runs no v1 program: set ESCROW_PROGRAM_ID=${id} (its refunds and closes need it; on the embedded chain, the data folder's chain/escrow-program-keypair.json is missing).`;
}

/**
 * The first start records which chain the database's money lives on (genesis hash, escrow
 * programs, fee payer; a program's id from the first start that runs it); every later start, of any instance, must run on that same one. Two instances each
 * with its own embedded chain on one PostgreSQL database once started silently: a dare created on
 * one was dead on the other, and a cancel on one marked the other's dare refunded while its SOL
 * stayed in the vault (docs/decisions/028). A start without v1 runs only where the database holds
 * no v1 vault (decision 081). Throws a ChainIdentityError saying what differs.
 */
export async function requireSameChain(
  db: DbOrTx,
  chain: ChainPort,
  escrowKeys: EscrowKeys,
  programs: EscrowPrograms,
): Promise<void> {
  const current: ChainIdentity = {
    genesisHash: await chain.rpc.getGenesisHash().send(),
    escrowProgramId: programs.v1,
    escrowProgramV2Id: programs.v2,
    feePayer: (await escrowKeys.feePayer()).address,
  };
  const recorded = await recordChainIdentity(db, current);
  const problem =
    mismatch(recorded, current) ?? (programs.v1 === null ? await missingV1(db, recorded) : null);
  if (problem) throw new ChainIdentityError(problem);
}
