/**
 * A LiteSVM chain with the escrow program deployed through the upgradeable loader, for the
 * program's tests and its benchmark. Not used by the server.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  type Instruction,
  type KeyPairSigner,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { LiteSVM } from 'litesvm';
import { deployProgram, liteSvmDeployTarget } from '#server/chain/escrow-program/deploy';
import {
  type DareKind,
  decodeEntry,
  decodeReceipt,
  decodeVault,
  type Entry,
  type Receipt,
  type Vault,
} from '#server/chain/escrow-program/layout';
import { findVaultAddress } from '#server/chain/escrow-program/pda';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import { liteSvmResult } from '#server/chain/escrow-program/runtimes/litesvm';
import type { RuntimeResult } from '#server/chain/escrow-program/runtimes/runtime';
import { getCreateVaultInstruction } from '#test/support/chain/v1-vaults';

export const SOL = 1_000_000_000n;

/** A dare on the test chain: its id, vault and the creator who staked. */
export interface TestDare {
  dareId: Uint8Array;
  vault: Address;
  creator: KeyPairSigner;
  stake: bigint;
  deadline: bigint;
  refundAfter: bigint;
}

export type SendResult = RuntimeResult;

export class EscrowTestChain {
  /** Fees each fee payer has paid so far (5000 lamports a signature on LiteSVM). */
  readonly fees = new Map<Address, bigint>();

  private constructor(
    readonly svm: LiteSVM,
    readonly programId: Address,
    /** The platform: pays fees and rent, as DarePool's fee payer does. */
    readonly platform: KeyPairSigner,
    readonly moderator: KeyPairSigner,
  ) {}

  static async start(options: { bytes?: Uint8Array } = {}): Promise<EscrowTestChain> {
    const svm = new LiteSVM();
    const platform = await generateKeyPairSigner();
    svm.airdrop(platform.address, lamports(1_000n * SOL));
    const program = await generateKeyPairSigner();
    const { programId } = await deployProgram({
      target: liteSvmDeployTarget(svm),
      payer: platform,
      program,
      bytes: options.bytes ?? readEscrowProgram(),
    });
    const chain = new EscrowTestChain(svm, programId, platform, await generateKeyPairSigner());
    chain.setTime(1_000_000n);
    return chain;
  }

  async wallet(sol = 10n): Promise<KeyPairSigner> {
    const signer = await generateKeyPairSigner();
    if (sol > 0n) this.svm.airdrop(signer.address, lamports(sol * SOL));
    return signer;
  }

  now(): bigint {
    return this.svm.getClock().unixTimestamp;
  }

  setTime(unixTimestamp: bigint): void {
    const clock = this.svm.getClock();
    clock.unixTimestamp = unixTimestamp;
    this.svm.setClock(clock);
  }

  balance(address: Address): bigint {
    return this.svm.getBalance(address) ?? 0n;
  }

  feesPaidBy(address: Address): bigint {
    return this.fees.get(address) ?? 0n;
  }

  data(address: Address): Uint8Array | null {
    const account = this.svm.getAccount(address);
    return account.exists ? new Uint8Array(account.data) : null;
  }

  owner(address: Address): Address | null {
    const account = this.svm.getAccount(address);
    return account.exists ? account.programAddress : null;
  }

  vault(address: Address): Vault | null {
    const data = this.data(address);
    return data && this.owner(address) === this.programId ? decodeVault(data) : null;
  }

  receipt(address: Address): Receipt | null {
    const data = this.data(address);
    return data && this.owner(address) === this.programId ? decodeReceipt(data) : null;
  }

  entry(address: Address): Entry | null {
    const data = this.data(address);
    return data && this.owner(address) === this.programId ? decodeEntry(data) : null;
  }

  /** One transaction; `feePayer` (default the platform) signs and pays the fee. */
  async send(instructions: Instruction[], feePayer: KeyPairSigner = this.platform): Promise<SendResult> {
    this.svm.expireBlockhash();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(feePayer, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: 0n },
          m,
        ),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const transaction = await signTransactionMessageWithSigners(message);
    const fee = 5000n * BigInt(Object.keys(transaction.signatures).length);
    const result = this.svm.sendTransaction(transaction);
    this.fees.set(feePayer.address, (this.fees.get(feePayer.address) ?? 0n) + fee);
    return liteSvmResult(result);
  }

  /** Sends and throws with the logs when it fails. */
  async must(instructions: Instruction[], feePayer?: KeyPairSigner): Promise<bigint> {
    const result = await this.send(instructions, feePayer);
    if (!result.ok) throw new Error(`transaction failed: ${result.error}\n${result.logs.join('\n')}`);
    return result.computeUnits;
  }

  /** Creates a vault with `stake` from a new creator; deadline in an hour, refunds a day later. */
  async createDare(
    options: { kind?: DareKind; stake?: bigint; creator?: KeyPairSigner } = {},
  ): Promise<TestDare> {
    const creator = options.creator ?? (await this.wallet());
    const dareId = crypto.getRandomValues(new Uint8Array(32));
    const stake = options.stake ?? SOL / 10n;
    const deadline = this.now() + 3600n;
    const refundAfter = deadline + 86_400n;
    await this.must([
      await getCreateVaultInstruction({
        programId: this.programId,
        creator,
        rentPayer: this.platform,
        dareId,
        moderator: this.moderator.address,
        deadline,
        refundAfter,
        amount: stake,
        kind: options.kind ?? 'community',
      }),
    ]);
    const vault = (await findVaultAddress(this.programId, dareId)).address;
    return { dareId, vault, creator, stake, deadline, refundAfter };
  }

  /** Sends lamports with the System program (a stranger's gift, a pre-funded address). */
  async gift(from: KeyPairSigner, to: Address, amount: bigint): Promise<void> {
    await this.must([getTransferSolInstruction({ source: from, destination: to, amount })], from);
  }
}
