import { type Address, isAddress } from '@solana/kit';
import type { EscrowKeys } from '../escrow-keys';
import type { ChainPort } from '../port';
import { checkDeployedProgram, ensureProgramDeployed } from './deploy';
import { readEscrowProgram } from './program';

/** Enough test SOL for the program's rent (about 4x its size, so a rebuilt one can replace it) and fees. */
const DEPLOY_FUNDING_LAMPORTS = 2_000_000_000n;

export class EscrowProgramError extends Error {}

/**
 * The embedded chain runs the committed escrow program, deployed through the real upgradeable
 * loader (its ELF checks and verifier included) at a program id kept in `keypairFile` beside the
 * chain state: the first start deploys it, a rebuilt program is upgraded in place, otherwise
 * nothing is sent. `keypairFile` null (a chain kept only in memory): a new program id each time.
 * The platform fee payer, funded with test SOL, is its upgrade authority here.
 */
export async function deployOnEmbeddedChain(
  chain: ChainPort,
  escrowKeys: EscrowKeys,
  keypairFile: string | null,
) {
  if (!chain.embedded) throw new EscrowProgramError('Only the embedded chain deploys the program itself');
  const authority = await escrowKeys.feePayer();
  const { value: balance } = await chain.rpc
    .getBalance(authority.address, { commitment: 'confirmed' })
    .send();
  if (balance < DEPLOY_FUNDING_LAMPORTS) await chain.airdrop(authority.address, DEPLOY_FUNDING_LAMPORTS);
  return ensureProgramDeployed({ rpc: chain.rpc, authority, keypairFile, bytes: readEscrowProgram() });
}

/**
 * A real cluster must already run exactly the committed build at the configured id: the server
 * refuses to start otherwise, saying how to deploy it, rather than take money it cannot hold.
 */
export async function requireDeployedProgram(chain: ChainPort, programId: string): Promise<Address> {
  if (!isAddress(programId))
    throw new EscrowProgramError(`ESCROW_PROGRAM_ID is not an address: ${programId}`);
  const check = await checkDeployedProgram(chain.rpc, programId, readEscrowProgram());
  const howTo =
    'deploy program/build/darepool_escrow.so with `npm run program:deploy -- --keypair <authority.json> --program-keypair <program.json> --final` and set ESCROW_PROGRAM_ID to its id (docs/program.md)';
  if (check.deployedSha256 === null)
    throw new EscrowProgramError(
      `The escrow program is not deployed at ${programId} on ${chain.cluster}: ${howTo}`,
    );
  if (!check.same)
    throw new EscrowProgramError(
      `The program at ${programId} on ${chain.cluster} is not this build (sha256 ${check.deployedSha256}, expected ${check.expectedSha256}): ${howTo}`,
    );
  return programId;
}
