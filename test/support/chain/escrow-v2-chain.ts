/**
 * Escrow v2 deployed on a ProgramRuntime, with the cast of a dare: the platform (fee payer and
 * rent payer of vaults, as DarePool's is), the canceller (the server's moderator key), three
 * judges and a guardian. For the program's tests and its benchmark; not used by the server.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import {
  blockhashLifetime,
  deployPrograms,
  type ProgramRuntime,
  type RuntimeResult,
} from '#server/chain/escrow-program/runtimes/runtime';
import { getCreateVaultV2Instruction, type VaultTerms } from '#server/chain/escrow-program/v2/instructions';
import {
  type DareKind,
  decodeEntryV2,
  decodeReceipt,
  decodeVaultV2,
  type EntryV2,
  type Receipt,
  type VaultV2,
} from '#server/chain/escrow-program/v2/layout';
import { readEscrowProgramV2 } from '#server/chain/escrow-program/v2/program';

export const SOL = 1_000_000_000n;
export const HOUR = 3600n;
export const DAY = 86_400n;
/** Where every test dare's clock starts. */
export const START_TIME = 1_000_000n;

export interface TestDareV2 extends VaultTerms {
  dareId: Uint8Array;
  vault: Address;
  creator: KeyPairSigner;
  stake: bigint;
}

export class EscrowV2Chain<R extends ProgramRuntime = ProgramRuntime> {
  /** Fees each fee payer has paid so far (5,000 lamports a signature). */
  readonly fees = new Map<Address, bigint>();

  private constructor(
    readonly runtime: R,
    readonly programId: Address,
    readonly platform: KeyPairSigner,
    readonly canceller: KeyPairSigner,
    readonly judges: KeyPairSigner[],
    readonly guardian: KeyPairSigner,
  ) {}

  static async start<R extends ProgramRuntime>(
    runtime: R,
    bytes = readEscrowProgramV2(),
  ): Promise<EscrowV2Chain<R>> {
    const platform = await generateKeyPairSigner();
    await runtime.fund(platform.address, 1_000n * SOL);
    const programId = (await deployPrograms(runtime, [{ bytes }]))[0]!;
    const judges = [
      await generateKeyPairSigner(),
      await generateKeyPairSigner(),
      await generateKeyPairSigner(),
    ];
    const chain = new EscrowV2Chain(
      runtime,
      programId,
      platform,
      await generateKeyPairSigner(),
      judges,
      await generateKeyPairSigner(),
    );
    // The keys that sign alone pay their own fees, as they would on a cluster.
    for (const key of [chain.canceller, chain.guardian, ...judges]) await runtime.fund(key.address, SOL);
    await runtime.setTime(START_TIME);
    return chain;
  }

  async wallet(sol = 10n): Promise<KeyPairSigner> {
    const signer = await generateKeyPairSigner();
    if (sol > 0n) await this.runtime.fund(signer.address, sol * SOL);
    return signer;
  }

  now(): Promise<bigint> {
    return this.runtime.now();
  }

  setTime(unixTimestamp: bigint): Promise<void> {
    return this.runtime.setTime(unixTimestamp);
  }

  balance(address: Address): Promise<bigint> {
    return this.runtime.getBalance(address);
  }

  feesPaidBy(address: Address): bigint {
    return this.fees.get(address) ?? 0n;
  }

  async data(address: Address): Promise<Uint8Array | null> {
    return (await this.runtime.getAccount(address))?.data ?? null;
  }

  private async ours<T>(address: Address, decode: (data: Uint8Array) => T | null): Promise<T | null> {
    const account = await this.runtime.getAccount(address);
    return account && account.owner === this.programId ? decode(account.data) : null;
  }

  vault(address: Address): Promise<VaultV2 | null> {
    return this.ours(address, decodeVaultV2);
  }

  receipt(address: Address): Promise<Receipt | null> {
    return this.ours(address, decodeReceipt);
  }

  entry(address: Address): Promise<EntryV2 | null> {
    return this.ours(address, decodeEntryV2);
  }

  /** One transaction; `feePayer` (default the platform) signs and pays the fee. */
  async send(instructions: Instruction[], feePayer: KeyPairSigner = this.platform): Promise<RuntimeResult> {
    const lifetime = await blockhashLifetime(this.runtime);
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const transaction = await signTransactionMessageWithSigners(message);
    const fee = 5000n * BigInt(Object.keys(transaction.signatures).length);
    const result = await this.runtime.sendTransaction(transaction);
    this.fees.set(feePayer.address, this.feesPaidBy(feePayer.address) + fee);
    return result;
  }

  /** Sends and throws with the logs when it fails; returns the compute units used. */
  async must(instructions: Instruction[], feePayer?: KeyPairSigner): Promise<bigint> {
    const result = await this.send(instructions, feePayer);
    if (!result.ok) throw new Error(`transaction failed: ${result.error}\n${result.logs.join('\n')}`);
    return result.computeUnits;
  }

  /** The terms a test dare gets unless told otherwise: deadline in a day, refunds 7 days later, 2 of 3 judges, a 24 h window. */
  async terms(overrides: Partial<VaultTerms> = {}): Promise<VaultTerms> {
    const deadline = overrides.deadline ?? (await this.now()) + DAY;
    return {
      kind: 'community',
      deadline,
      refundAfter: deadline + 7n * DAY,
      judges: this.judges.map((j) => j.address),
      threshold: 2,
      guardian: this.guardian.address,
      canceller: this.canceller.address,
      payoutWindow: DAY,
      ...overrides,
    };
  }

  /** Creates a vault with `stake` from a new (or given) creator; the platform pays its rent. */
  async createDare(
    options: Partial<VaultTerms> & { stake?: bigint; creator?: KeyPairSigner } = {},
  ): Promise<TestDareV2> {
    const creator = options.creator ?? (await this.wallet());
    const dareId = crypto.getRandomValues(new Uint8Array(32));
    const stake = options.stake ?? SOL / 10n;
    const terms = await this.terms(options);
    await this.must([
      await getCreateVaultV2Instruction({
        ...terms,
        programId: this.programId,
        creator,
        rentPayer: this.platform,
        dareId,
        amount: stake,
      }),
    ]);
    const vault = (await findVaultAddress(this.programId, dareId)).address;
    return { ...terms, dareId, vault, creator, stake };
  }

  /** Sends lamports with the System program (a stranger's gift, a pre-funded address). */
  async gift(from: KeyPairSigner, to: Address, amount: bigint): Promise<void> {
    await this.must([getTransferSolInstruction({ source: from, destination: to, amount })], from);
  }
}

export type { DareKind };
