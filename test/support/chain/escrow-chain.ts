/**
 * The escrow test chain: an escrow program on a ProgramRuntime (LiteSVM in process, solana-bankrun,
 * or the embedded chain behind its JSON-RPC: embedded-runtime.ts), with the keys every dare has:
 * the platform (fee payer and rent payer, as DarePool's is) and the moderator (v2 calls it the
 * canceller). One way to fund wallets, to sign and send instructions with every fee counted, and
 * to read the program's accounts back. What v1 and v2 do differently is in escrow-v1-chain.ts and
 * escrow-v2-chain.ts. For the program's tests and its benchmark; not used by the server.
 */
import {
  type Address,
  generateKeyPairSigner,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  type Signature,
  type Transaction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  getCloseEntryInstruction,
  getCloseReceiptInstruction,
  getRefundInstruction,
} from '#server/chain/escrow-program/instructions';
import { decodeReceipt, type Entry, type Receipt, type VaultHead } from '#server/chain/escrow-program/layout';
import { findEntryAddress, findReceiptAddress } from '#server/chain/escrow-program/pda';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import {
  deployPrograms,
  type ProgramRuntime,
  type RuntimeAccount,
  type RuntimeResult,
  signInstructions,
} from '#server/chain/escrow-program/runtimes/runtime';
import { getDepositV2Instruction } from '#server/chain/escrow-program/v2/instructions';

export const SOL = 1_000_000_000n;
export const HOUR = 3600n;
export const DAY = 86_400n;
/** Where every test dare's clock starts on a runtime whose clock the test sets. */
export const START_TIME = 1_000_000n;
/** What every runtime here (and mainnet) charges: 5,000 lamports a signature. */
export const SIGNATURE_FEE = 5000n;

/** A runtime's result, with the signature the transaction is known by. */
export type Sent = RuntimeResult & { signature: Signature };
export type Landed = Extract<Sent, { ok: true }>;

/** The keys of every dare, whichever the version. */
export interface DareKeys {
  platform: KeyPairSigner;
  moderator: KeyPairSigner;
}

/** The platform with 1,000 SOL; the moderator with 1 SOL, as it signs alone in some tests and pays its fee. */
export async function fundedDareKeys(runtime: ProgramRuntime): Promise<DareKeys> {
  const [platform, moderator] = [await generateKeyPairSigner(), await generateKeyPairSigner()];
  await runtime.fund(platform.address, 1_000n * SOL);
  await runtime.fund(moderator.address, SOL);
  return { platform, moderator };
}

/**
 * `bytes` deployed through the upgradeable loader (once, first: bankrun moves on one slot per
 * runtime), the keys of a dare, and the clock at START_TIME.
 */
export async function deployForTests(
  runtime: ProgramRuntime,
  bytes: Uint8Array,
): Promise<{ programId: Address; keys: DareKeys }> {
  const [programId] = await deployPrograms(runtime, [{ bytes }]);
  const keys = await fundedDareKeys(runtime);
  await runtime.setTime(START_TIME);
  return { programId: programId!, keys };
}

export abstract class EscrowChain<R extends ProgramRuntime = ProgramRuntime> {
  /** Fees each fee payer has paid so far. */
  readonly fees = new Map<Address, bigint>();
  readonly platform: KeyPairSigner;
  readonly moderator: KeyPairSigner;

  protected constructor(
    readonly runtime: R,
    readonly programId: Address,
    keys: DareKeys,
  ) {
    this.platform = keys.platform;
    this.moderator = keys.moderator;
  }

  abstract vault(address: Address): Promise<VaultHead | null>;
  abstract entry(address: Address): Promise<Entry | null>;
  /** Who lends an entry's rent when the entrant enters through this chain's instruction. */
  protected abstract entryRentPayerOf(entrant: Address): Address;
  abstract cancelInstruction(vault: Address): Instruction;

  async wallet(sol = 10n): Promise<KeyPairSigner> {
    const signer = await generateKeyPairSigner();
    if (sol > 0n) await this.fund(signer.address, sol * SOL);
    return signer;
  }

  /** Exactly `lamports` more for `address`, from the runtime's faucet (no fee). */
  fund(address: Address, lamports: bigint): Promise<void> {
    return this.runtime.fund(address, lamports);
  }

  /** Unix seconds: the time the next transaction executes at. */
  now(): Promise<bigint> {
    return this.runtime.now();
  }

  setTime(unixTimestamp: bigint): Promise<void> {
    return this.runtime.setTime(unixTimestamp);
  }

  async tick(seconds: bigint): Promise<void> {
    await this.setTime((await this.now()) + seconds);
  }

  balance(address: Address): Promise<bigint> {
    return this.runtime.getBalance(address);
  }

  feesPaidBy(address: Address): bigint {
    return this.fees.get(address) ?? 0n;
  }

  account(address: Address): Promise<RuntimeAccount | null> {
    return this.runtime.getAccount(address);
  }

  async data(address: Address): Promise<Uint8Array | null> {
    return (await this.account(address))?.data ?? null;
  }

  async exists(address: Address): Promise<boolean> {
    return (await this.account(address)) !== null;
  }

  /** The account decoded, when this chain's program owns it. */
  protected async ours<T>(address: Address, decode: (data: Uint8Array) => T | null): Promise<T | null> {
    const account = await this.account(address);
    return account && account.owner === this.programId ? decode(account.data) : null;
  }

  receipt(address: Address): Promise<Receipt | null> {
    return this.ours(address, decodeReceipt);
  }

  async receiptAddress(vault: Address, payer: Address): Promise<Address> {
    return (await findReceiptAddress(this.programId, vault, payer)).address;
  }

  async entryAddress(vault: Address, entrant: Address): Promise<Address> {
    return (await findEntryAddress(this.programId, vault, entrant)).address;
  }

  /** One transaction, signed by the instructions' signers and `feePayer` (default the platform). */
  signed(instructions: Instruction[], feePayer: KeyPairSigner = this.platform): Promise<Transaction> {
    return signInstructions(this.runtime, instructions, feePayer);
  }

  /** Sends one transaction; `feePayer` (default the platform) pays its fee, counted in `fees`. */
  async send(instructions: Instruction[], feePayer: KeyPairSigner = this.platform): Promise<Sent> {
    const transaction = await this.signed(instructions, feePayer);
    const result = await this.runtime.sendTransaction(transaction);
    const fee = SIGNATURE_FEE * BigInt(Object.keys(transaction.signatures).length);
    this.fees.set(feePayer.address, this.feesPaidBy(feePayer.address) + fee);
    return { ...result, signature: getSignatureFromTransaction(transaction) };
  }

  /** Sends and throws with the logs when it fails. */
  async must(instructions: Instruction[], feePayer?: KeyPairSigner): Promise<Landed> {
    const result = await this.send(instructions, feePayer);
    if (!result.ok) throw new Error(`transaction failed: ${result.error}\n${result.logs.join('\n')}`);
    return result;
  }

  /** Each step in a transaction of its own, in order, whatever the one before did. */
  async sendEach(
    steps: readonly { instructions: Instruction[] }[],
    feePayer?: KeyPairSigner,
  ): Promise<Sent[]> {
    const results = [];
    for (const step of steps) results.push(await this.send(step.instructions, feePayer));
    return results;
  }

  /** Sends lamports with the System program (a stranger's gift, a pre-funded address). */
  async gift(from: KeyPairSigner, to: Address, amount: bigint): Promise<void> {
    await this.must([getTransferSolInstruction({ source: from, destination: to, amount })], from);
  }

  /**
   * Turns `wallet` into an executable account for real: emptied into `sink` (the platform pays
   * the fee), so that the account is gone, then a program deployed at its address that nobody calls.
   */
  async makeExecutable(wallet: KeyPairSigner, sink: Address): Promise<void> {
    const balance = await this.balance(wallet.address);
    if (balance > 0n)
      await this.must([getTransferSolInstruction({ source: wallet, destination: sink, amount: balance })]);
    if (await this.exists(wallet.address)) throw new Error(`${wallet.address} is not gone once emptied`);
    await deployPrograms(this.runtime, [{ bytes: readEscrowProgram(), program: wallet }], { invoked: false });
  }

  /** deposit (alike in both versions): `rentPayer` (default the platform) lends a new receipt's rent. */
  depositInstruction(
    vault: Address,
    payer: KeyPairSigner,
    amount: bigint,
    rentPayer: KeyPairSigner | Address = this.platform,
  ): Promise<Instruction> {
    return getDepositV2Instruction({ programId: this.programId, vault, payer, rentPayer, amount });
  }

  /** refund (alike in both versions) of `payer`'s receipt, the platform its and the vault's rent payer. */
  refundInstruction(vault: Address, payer: Address): Promise<Instruction> {
    return getRefundInstruction({ ...this.rentBack(vault), payer, receiptRentPayer: this.platform.address });
  }

  closeReceiptInstruction(vault: Address, payer: Address): Promise<Instruction> {
    return getCloseReceiptInstruction({
      ...this.rentBack(vault),
      payer,
      receiptRentPayer: this.platform.address,
    });
  }

  /** close_entry; the entry's rent goes to `entryRentPayer` (default: whoever this version makes lend it). */
  closeEntryInstruction(
    vault: Address,
    entrant: Address,
    entryRentPayer = this.entryRentPayerOf(entrant),
  ): Promise<Instruction> {
    return getCloseEntryInstruction({ ...this.rentBack(vault), entrant, entryRentPayer });
  }

  /** What every close names: the program, the vault and its rent payer (the platform). */
  protected rentBack(vault: Address) {
    return { programId: this.programId, vault, vaultRentPayer: this.platform.address };
  }
}
