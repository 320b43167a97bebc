import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Address, isAddress } from '@solana/kit';
import type { EscrowKeys } from '#server/chain/escrow-keys';
import type { ChainPort } from '#server/chain/port';
import { checkDeployedProgram, ensureProgramDeployed } from './deploy';
import { readEscrowProgram } from './program';
import { readEscrowProgramV2 } from './v2/program';

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
  /** The program's build: version 1 unless given (readEscrowProgramV2() for version 2). */
  bytes: Uint8Array = readEscrowProgram(),
) {
  if (!chain.embedded) throw new EscrowProgramError('Only the embedded chain deploys the program itself');
  const authority = await escrowKeys.feePayer();
  const { value: balance } = await chain.rpc
    .getBalance(authority.address, { commitment: 'confirmed' })
    .send();
  if (balance < DEPLOY_FUNDING_LAMPORTS) await chain.airdrop(authority.address, DEPLOY_FUNDING_LAMPORTS);
  return ensureProgramDeployed({ rpc: chain.rpc, authority, keypairFile, bytes });
}

/** Where a data folder's chain keeps escrow program v1's id: present only where v1 was deployed. */
export const V1_PROGRAM_KEYPAIR_FILE = 'escrow-program-keypair.json';

/**
 * The escrow programs on the embedded chain, each at the id kept in `stateDir` (null: new ids, a
 * chain kept only in memory): v2 (every new vault) always; v1 (it keeps the vaults made before v2)
 * only where this chain already has it, its id kept in `stateDir` by an earlier start (a data folder
 * from before v1 was retired, whose v1 vaults go on being refunded), or with `withV1` (tests of
 * the v1 paths). A new data folder never had a v1 vault, so it runs no v1 (decision 081).
 */
export async function deployEscrowProgramsOnEmbeddedChain(
  chain: ChainPort,
  escrowKeys: EscrowKeys,
  stateDir: string | null,
  { withV1 = false }: { withV1?: boolean } = {},
) {
  const keypair = (file: string) => (stateDir === null ? null : path.join(stateDir, file));
  const v1File = keypair(V1_PROGRAM_KEYPAIR_FILE);
  const keptV1 = v1File !== null && existsSync(v1File);
  const v1 = withV1 || keptV1 ? await deployOnEmbeddedChain(chain, escrowKeys, v1File) : null;
  const v2 = await deployOnEmbeddedChain(
    chain,
    escrowKeys,
    keypair('escrow-program-v2-keypair.json'),
    readEscrowProgramV2(),
  );
  return { v1, v2 };
}

/** A program the server relies on, as a cluster must run it. */
export interface RequiredProgram {
  programId: string;
  /** The committed build that must run there, and its file (named in the how-to-deploy line). */
  bytes: Uint8Array;
  file: string;
  /** What the start-up lines call it, capitalised: "Escrow program". */
  label: string;
  /** The variable that names its id. */
  idVariable: string;
}

export interface CheckedProgram {
  programId: Address;
  /** Who can still replace the code (the operator accepted it), or null: immutable. */
  upgradeAuthority: Address | null;
  /** One line for the start-up log saying who, if anyone, can replace the code. */
  notice: string;
}

const ESCROW_PROGRAM_FILE = 'program/build/darepool_escrow.so';

/** Escrow program v2 at `programId` (ESCROW_PROGRAM_V2_ID): every new vault is one of v2. */
export function escrowProgramV2Requirement(programId: string): RequiredProgram {
  return {
    programId,
    bytes: readEscrowProgramV2(),
    file: 'program/build/darepool_escrow_v2.so',
    label: 'Escrow program v2',
    idVariable: 'ESCROW_PROGRAM_V2_ID',
  };
}

/** Version 1 of the escrow program at `programId` (ESCROW_PROGRAM_ID): it keeps the vaults made before v2. */
export function escrowProgramRequirement(programId: string): RequiredProgram {
  return {
    programId,
    bytes: readEscrowProgram(),
    file: ESCROW_PROGRAM_FILE,
    label: 'Escrow program',
    idVariable: 'ESCROW_PROGRAM_ID',
  };
}

/**
 * A real cluster must already run exactly the committed build at the configured id, and nobody
 * but the key the operator named (`acceptedUpgradeAuthority`, e.g. a multisig) may be able to
 * replace it: the server refuses to start otherwise, saying how to fix it, rather than hold money
 * in code a stranger could swap. One program per call: call it for each program the app uses.
 */
export async function requireDeployedProgram(
  chain: ChainPort,
  program: RequiredProgram,
  acceptedUpgradeAuthority: Address | null,
): Promise<CheckedProgram> {
  const { programId, label } = program;
  if (!isAddress(programId))
    throw new EscrowProgramError(`${program.idVariable} is not an address: ${programId}`);
  const check = await checkDeployedProgram(chain.rpc, programId, program.bytes);
  const howTo = `deploy ${program.file} with \`npm run program:deploy -- --keypair <authority.json> --program-keypair <program.json> --final\` and set ${program.idVariable} to its id (docs/program.md)`;
  if (check.deployedSha256 === null)
    throw new EscrowProgramError(
      `The ${label.toLowerCase()} is not deployed at ${programId} on ${chain.cluster}: ${howTo}`,
    );
  if (!check.same)
    throw new EscrowProgramError(
      `The program at ${programId} on ${chain.cluster} is not this build (sha256 ${check.deployedSha256}, expected ${check.expectedSha256}): ${howTo}`,
    );
  const authority = check.upgradeAuthority;
  if (authority === null)
    return {
      programId,
      upgradeAuthority: null,
      notice: `${label} ${programId}: immutable, no key can replace its code`,
    };
  const makeImmutable = `make it immutable (\`npm run program:deploy -- --keypair <authority.json> --make-immutable ${programId}\`)`;
  if (acceptedUpgradeAuthority === null)
    throw new EscrowProgramError(
      `The program at ${programId} on ${chain.cluster} is upgradeable: ${authority} can replace its code. Either ${makeImmutable}, or accept that key (e.g. a multisig) with ESCROW_PROGRAM_UPGRADE_AUTHORITY=${authority} (docs/program.md)`,
    );
  if (authority !== acceptedUpgradeAuthority)
    throw new EscrowProgramError(
      `The program at ${programId} on ${chain.cluster} can be replaced by ${authority}, not by ESCROW_PROGRAM_UPGRADE_AUTHORITY=${acceptedUpgradeAuthority}: ${makeImmutable} or name its real authority (docs/program.md)`,
    );
  return {
    programId,
    upgradeAuthority: authority,
    notice: `${label} ${programId}: upgradeable, its code can be replaced by ${authority} (ESCROW_PROGRAM_UPGRADE_AUTHORITY)`,
  };
}
