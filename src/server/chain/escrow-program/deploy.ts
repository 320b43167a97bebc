/**
 * Deploys a program through the upgradeable loader exactly as a cluster requires: a buffer
 * account, the bytes written in chunks, DeployWithMaxDataLen (which runs the loader's ELF checks
 * and verifier), and optionally SetAuthority(None) so nobody can ever replace the code.
 * The chain is reached through a small `DeployTarget`, so the same steps run on LiteSVM in tests,
 * on the embedded chain, and on a real cluster (`npm run program:deploy`).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  type Address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressDecoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getSignatureFromTransaction,
  type Instruction,
  pipe,
  type Rpc,
  type SolanaRpcApi,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Transaction,
  type TransactionSigner,
} from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import type { LiteSVM } from 'litesvm';
import { liteSvm } from '#server/chain/litesvm-native';
import { LAMPORTS_PER_SIGNATURE } from './entry-cost';
import { readKeypairFile, writeNewKeypairFile } from './keypair-file';
import {
  BUFFER_METADATA_SIZE,
  getDeployWithMaxDataLenInstruction,
  getInitializeBufferInstruction,
  getMakeImmutableInstruction,
  getProgramDataAddress,
  getSetUpgradeAuthorityInstruction,
  getUpgradeInstruction,
  getWriteInstruction,
  LOADER_V3_PROGRAM_ADDRESS,
  PROGRAM_ACCOUNT_SIZE,
  PROGRAMDATA_METADATA_SIZE,
} from './loader-v3';

/** Fits a Write transaction (two signatures' worth of room left) under the 1232-byte limit. */
const WRITE_CHUNK_BYTES = 900;

export interface DeployTarget {
  latestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: bigint }>;
  minimumBalanceForRentExemption(size: number): Promise<bigint>;
  /** Sends and waits until it is confirmed; throws with the chain's reason when it failed. */
  send(transaction: Transaction): Promise<void>;
  /** Programs deployed in slot N run from slot N+1: a local chain moves on here. */
  afterDeploy?(): Promise<void>;
}

export interface DeployResult {
  programId: Address;
  programDataAddress: Address;
  sha256: string;
  immutable: boolean;
}

export class DeployError extends Error {
  override name = 'DeployError';
}

async function sendInstructions(
  target: DeployTarget,
  payer: TransactionSigner,
  instructions: Instruction[],
): Promise<void> {
  const lifetime = await target.latestBlockhash();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        lifetime as Parameters<typeof setTransactionMessageLifetimeUsingBlockhash>[0],
        m,
      ),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  await target.send(await signTransactionMessageWithSigners(message));
}

/** A buffer account holding `bytes`, written in chunks, with `payer` as its authority. */
async function writeBuffer(
  target: DeployTarget,
  payer: TransactionSigner,
  bytes: Uint8Array,
  onProgress?: (written: number, total: number) => void,
): Promise<Address> {
  const buffer = await generateKeyPairSigner();
  const bufferSize = BUFFER_METADATA_SIZE + bytes.length;
  await sendInstructions(target, payer, [
    getCreateAccountInstruction({
      payer,
      newAccount: buffer,
      lamports: await target.minimumBalanceForRentExemption(bufferSize),
      space: BigInt(bufferSize),
      programAddress: LOADER_V3_PROGRAM_ADDRESS,
    }),
    getInitializeBufferInstruction(buffer.address, payer.address),
  ]);
  for (let offset = 0; offset < bytes.length; offset += WRITE_CHUNK_BYTES) {
    const chunk = bytes.subarray(offset, offset + WRITE_CHUNK_BYTES);
    await sendInstructions(target, payer, [getWriteInstruction(buffer.address, payer, offset, chunk)]);
    onProgress?.(offset + chunk.length, bytes.length);
  }
  return buffer.address;
}

/**
 * What `deployProgram` of `length` bytes (maxDataLen the same) takes from its payer: the
 * programdata's rent (the buffer's, smaller, is drained back into the payer just before it is
 * paid), the program account's rent, and every signature's fee (the buffer's creation and the
 * deploy carry two each).
 */
export async function deployCost(
  target: Pick<DeployTarget, 'minimumBalanceForRentExemption'>,
  length: number,
): Promise<bigint> {
  const programData = await target.minimumBalanceForRentExemption(PROGRAMDATA_METADATA_SIZE + length);
  const programAccount = await target.minimumBalanceForRentExemption(PROGRAM_ACCOUNT_SIZE);
  const signatures = BigInt(Math.ceil(length / WRITE_CHUNK_BYTES) + 4);
  return programData + programAccount + signatures * LAMPORTS_PER_SIGNATURE;
}

/**
 * `payer` pays rent and fees and is the upgrade authority until `final` makes the program
 * immutable, or `upgradeAuthority` takes it over, in the deploy's own transaction; `program` is
 * the keypair whose address becomes the program id. `maxDataLen` (default: the program's length)
 * is how large a later upgrade may be.
 */
export async function deployProgram(input: {
  target: DeployTarget;
  payer: TransactionSigner;
  program: TransactionSigner;
  bytes: Uint8Array;
  final?: boolean;
  /** Hands the upgrade authority to this key (which need not sign); ignored with `final`. */
  upgradeAuthority?: Address;
  maxDataLen?: number;
  onProgress?: (written: number, total: number) => void;
}): Promise<DeployResult> {
  const { target, payer, program, bytes } = input;
  const programDataAddress = await getProgramDataAddress(program.address);
  const buffer = await writeBuffer(target, payer, bytes, input.onProgress);
  const deploy = [
    getCreateAccountInstruction({
      payer,
      newAccount: program,
      lamports: await target.minimumBalanceForRentExemption(PROGRAM_ACCOUNT_SIZE),
      space: BigInt(PROGRAM_ACCOUNT_SIZE),
      programAddress: LOADER_V3_PROGRAM_ADDRESS,
    }),
    getDeployWithMaxDataLenInstruction({
      payer,
      programData: programDataAddress,
      program: program.address,
      buffer,
      authority: payer,
      maxDataLen: BigInt(Math.max(input.maxDataLen ?? 0, bytes.length)),
    }),
  ];
  if (input.final) deploy.push(getMakeImmutableInstruction(programDataAddress, payer));
  else if (input.upgradeAuthority)
    deploy.push(getSetUpgradeAuthorityInstruction(programDataAddress, payer, input.upgradeAuthority));
  await sendInstructions(target, payer, deploy);
  await target.afterDeploy?.();
  return {
    programId: program.address,
    programDataAddress,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    immutable: input.final === true,
  };
}

/** Replaces the code of an upgradeable program; `authority` must be its upgrade authority. */
export async function upgradeProgram(input: {
  target: DeployTarget;
  authority: TransactionSigner;
  programId: Address;
  bytes: Uint8Array;
}): Promise<void> {
  const { target, authority } = input;
  const buffer = await writeBuffer(target, authority, input.bytes);
  await sendInstructions(target, authority, [
    getUpgradeInstruction({
      programData: await getProgramDataAddress(input.programId),
      program: input.programId,
      buffer,
      spill: authority.address,
      authority,
    }),
  ]);
  await target.afterDeploy?.();
}

/**
 * Makes sure `bytes` run at the program id kept in `keypairFile` (created there on first use):
 * deploys it the first time, upgrades it when the bytes changed, does nothing otherwise. For a
 * local chain whose state outlives the server (the embedded chain): the program id stays the
 * same across restarts and rebuilds. `authority` pays and keeps the upgrade authority.
 */
export async function ensureProgramDeployed(input: {
  rpc: Rpc<SolanaRpcApi>;
  target?: DeployTarget;
  authority: TransactionSigner;
  keypairFile: string | null;
  bytes: Uint8Array;
}): Promise<{ programId: Address; action: 'deployed' | 'upgraded' | 'unchanged' }> {
  const target = input.target ?? rpcDeployTarget(input.rpc, { pollMs: 5 });
  let program: TransactionSigner;
  if (input.keypairFile === null) program = await generateKeyPairSigner();
  else {
    if (!existsSync(input.keypairFile)) writeNewKeypairFile(input.keypairFile);
    program = await readKeypairFile(input.keypairFile);
  }
  const check = await checkDeployedProgram(input.rpc, program.address, input.bytes);
  if (check.same) return { programId: program.address, action: 'unchanged' };
  if (check.deployedSha256 === null) {
    // Room to grow: a rebuilt program replaces this one in place (upgrade), up to 4x the size.
    await deployProgram({
      target,
      payer: input.authority,
      program,
      bytes: input.bytes,
      maxDataLen: 4 * input.bytes.length,
    });
    return { programId: program.address, action: 'deployed' };
  }
  await upgradeProgram({
    target,
    authority: input.authority,
    programId: program.address,
    bytes: input.bytes,
  });
  return { programId: program.address, action: 'upgraded' };
}

/** Removes the upgrade authority of a deployed program: nobody can ever change its code again. */
export async function makeProgramImmutable(input: {
  target: DeployTarget;
  authority: TransactionSigner;
  programId: Address;
}): Promise<void> {
  const programData = await getProgramDataAddress(input.programId);
  await sendInstructions(input.target, input.authority, [
    getMakeImmutableInstruction(programData, input.authority),
  ]);
}

export interface DeployedProgramCheck {
  deployedSha256: string | null;
  expectedSha256: string;
  same: boolean;
  /** The key that can still replace the code, or null when the program is immutable. */
  upgradeAuthority: Address | null;
}

/**
 * Compares the bytes deployed at `programId` with `expected`: the programdata account holds
 * 45 bytes of metadata, then the program padded with zeros to the deploy's max length.
 */
export async function checkDeployedProgram(
  rpc: Rpc<SolanaRpcApi>,
  programId: Address,
  expected: Uint8Array,
): Promise<DeployedProgramCheck> {
  const expectedSha256 = createHash('sha256').update(expected).digest('hex');
  const programData = await getProgramDataAddress(programId);
  const { value } = await rpc.getAccountInfo(programData, { encoding: 'base64' }).send();
  if (!value) return { deployedSha256: null, expectedSha256, same: false, upgradeAuthority: null };
  const data = new Uint8Array(getBase64Encoder().encode(value.data[0]));
  const deployed = data.subarray(PROGRAMDATA_METADATA_SIZE, PROGRAMDATA_METADATA_SIZE + expected.length);
  const padding = data.subarray(PROGRAMDATA_METADATA_SIZE + expected.length);
  const deployedSha256 = createHash('sha256').update(deployed).digest('hex');
  // Metadata: u32 state tag, u64 slot, then Option<Pubkey> (1 byte tag + 32 bytes).
  const upgradeAuthority = data[12] === 1 ? getAddressDecoder().decode(data.subarray(13, 45)) : null;
  return {
    deployedSha256,
    expectedSha256,
    same: deployedSha256 === expectedSha256 && padding.every((byte) => byte === 0),
    upgradeAuthority,
  };
}

/** LiteSVM in-process: each transaction lands at once. */
export function liteSvmDeployTarget(svm: LiteSVM): DeployTarget {
  return {
    async latestBlockhash() {
      return { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n };
    },
    async minimumBalanceForRentExemption(size) {
      return svm.minimumBalanceForRentExemption(BigInt(size));
    },
    async send(transaction) {
      const result = svm.sendTransaction(transaction);
      if (result instanceof liteSvm().FailedTransactionMetadata) {
        throw new DeployError(`${result.err().toString()}\n${result.meta().logs().join('\n')}`);
      }
    },
    async afterDeploy() {
      svm.warpToSlot(svm.getClock().slot + 1n);
    },
  };
}

/** A JSON-RPC node (a cluster, or the embedded chain's RPC): send, then poll until confirmed. */
export function rpcDeployTarget(rpc: Rpc<SolanaRpcApi>, options: { pollMs?: number } = {}): DeployTarget {
  const pollMs = options.pollMs ?? 500;
  return {
    async latestBlockhash() {
      const { value } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
      return value;
    },
    async minimumBalanceForRentExemption(size) {
      return rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();
    },
    async send(transaction) {
      const signature = getSignatureFromTransaction(transaction);
      await rpc
        .sendTransaction(getBase64EncodedWireTransaction(transaction), {
          encoding: 'base64',
          preflightCommitment: 'confirmed',
        })
        .send();
      for (let attempt = 0; attempt < 120; attempt++) {
        const { value } = await rpc.getSignatureStatuses([signature]).send();
        const status = value[0];
        if (status?.err)
          throw new DeployError(
            `transaction ${signature} failed: ${JSON.stringify(status.err, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`,
          );
        if (status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized') return;
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
      throw new DeployError(`transaction ${signature} was not confirmed in time`);
    },
  };
}
