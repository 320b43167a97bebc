import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AccountRole,
  type Address,
  type AddressesByLookupTableAddress,
  address,
  appendTransactionMessageInstruction,
  appendTransactionMessageInstructions,
  type Base64EncodedWireTransaction,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getProgramDerivedAddress,
  getSignatureFromTransaction,
  getU32Encoder,
  getU64Encoder,
  type Instruction,
  isSolanaError,
  type KeyPairSigner,
  lamports,
  pipe,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__METHOD_NOT_FOUND,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_RENT,
  type SolanaError,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfirmationError, waitForConfirmation } from '#server/chain/confirmation';
import type { ChainPort } from '#server/chain/port';
import { describeTransactionError } from '#server/features/payments/explorer/transaction-errors';
import { ChainStateError, createEmbeddedChain } from '.';
import { SNAPSHOT_EVERY } from './embedded-ledger';

const SOL = 1_000_000_000n;
const RENT_EXEMPT_MINIMUM = 890_880n;
const FEE = 5_000n;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const START = new Date('2026-11-22T10:00:00.000Z');

type Lifetime = { blockhash: string; lastValidBlockHeight: bigint };

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'darepool-chain-'));
  dirs.push(dir);
  return dir;
}

/** A clock the test moves by hand, so block times are exact. */
function manualClock() {
  const clock = {
    now: START,
    tick: (seconds: number) => (clock.now = new Date(clock.now.getTime() + seconds * 1000)),
  };
  return clock;
}

/** A System transfer with a read-only reference key appended, signed by `from` as a wallet would. */
async function signedTransfer(
  chain: ChainPort,
  from: KeyPairSigner,
  to: Address,
  amount: bigint,
  options: { reference?: Address; lifetime?: Lifetime } = {},
) {
  const lifetime = options.lifetime ?? (await chain.rpc.getLatestBlockhash().send()).value;
  const reference = options.reference ?? (await generateKeyPairSigner()).address;
  const transfer = getTransferSolInstruction({ source: from, destination: to, amount });
  const instruction = {
    ...transfer,
    accounts: [...transfer.accounts, { address: reference, role: AccountRole.READONLY }],
  };
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(from.address, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        lifetime as Parameters<typeof setTransactionMessageLifetimeUsingBlockhash>[0],
        m,
      ),
    (m) => appendTransactionMessageInstruction(instruction, m),
  );
  const transaction = await signTransaction([from.keyPair], compileTransaction(message));
  return {
    wire: getBase64EncodedWireTransaction(transaction),
    signature: getSignatureFromTransaction(transaction),
    reference,
  };
}

function send(chain: ChainPort, wire: Base64EncodedWireTransaction, skipPreflight = false) {
  return chain.rpc.sendTransaction(wire, { encoding: 'base64', skipPreflight }).send();
}

async function rpcError(promise: Promise<unknown>): Promise<SolanaError> {
  try {
    await promise;
  } catch (error) {
    if (isSolanaError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

async function balance(chain: ChainPort, of: Address): Promise<bigint> {
  return (await chain.rpc.getBalance(of).send()).value;
}

async function funded(chain: ChainPort, amount: bigint): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  await chain.airdrop(signer.address, amount);
  return signer;
}

describe('embedded chain over JSON-RPC', () => {
  it('answers the read methods with the shapes kit expects', async () => {
    // A clock standing still: slots follow time, and this compares slots across calls.
    const clock = manualClock();
    const chain = await createEmbeddedChain({ stateDir: null, clock: () => clock.now });
    expect(await chain.rpc.getHealth().send()).toBe('ok');
    expect((await chain.rpc.getVersion().send())['solana-core']).toMatch(/^2\.\d+\.\d+$/);
    const slot = await chain.rpc.getSlot().send();
    expect(typeof slot).toBe('bigint');
    expect(await chain.rpc.getBlockHeight().send()).toBe(slot);
    expect(await chain.health()).toEqual({ ok: true, slot });
    expect(await chain.rpc.getMinimumBalanceForRentExemption(0n).send()).toBe(RENT_EXEMPT_MINIMUM);

    const { context, value } = await chain.rpc.getLatestBlockhash().send();
    expect(context.slot).toBe(slot);
    expect(value.lastValidBlockHeight).toBe(slot + 150n);
    expect((await chain.rpc.isBlockhashValid(value.blockhash).send()).value).toBe(true);

    const nobody = (await generateKeyPairSigner()).address;
    expect((await chain.rpc.getAccountInfo(nobody, { encoding: 'base64' }).send()).value).toBeNull();
    expect(await balance(chain, nobody)).toBe(0n);
    const owner = await funded(chain, SOL);
    expect((await chain.rpc.getAccountInfo(owner.address, { encoding: 'base64' }).send()).value).toEqual({
      data: ['', 'base64'],
      executable: false,
      lamports: SOL,
      owner: SYSTEM_PROGRAM,
      rentEpoch: 2n ** 64n - 1n,
      space: 0n,
    });

    const unknownMethod = (chain.rpc as unknown as Record<string, () => { send(): Promise<unknown> }>)
      .getStakeMinimumDelegation!().send();
    expect((await rpcError(unknownMethod)).context.__code).toBe(SOLANA_ERROR__JSON_RPC__METHOD_NOT_FOUND);
  });

  it('airdrops through a recorded faucet transfer, and identical airdrops both land', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const wallet = (await generateKeyPairSigner()).address;
    const first = await chain.airdrop(wallet, SOL);
    const second = await chain.rpc.requestAirdrop(wallet, lamports(SOL)).send();
    expect(second).not.toBe(first);
    expect(await balance(chain, wallet)).toBe(2n * SOL);

    const tx = await chain.rpc
      .getTransaction(second, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 })
      .send();
    const [transfer] = tx!.transaction.message.instructions;
    expect(transfer).toMatchObject({
      program: 'system',
      parsed: { type: 'transfer', info: { destination: wallet, lamports: SOL } },
    });
    const index = tx!.transaction.message.accountKeys.findIndex((key) => key.pubkey === wallet);
    expect(tx!.meta!.postBalances[index]! - tx!.meta!.preBalances[index]!).toBe(SOL);
    const found = await chain.rpc.getSignaturesForAddress(wallet).send();
    expect(found.map((entry) => entry.signature)).toEqual([second, first]);
  });

  it('records a transfer with a reference key and answers getTransaction like a node', async () => {
    const clock = manualClock();
    const chain = await createEmbeddedChain({ stateDir: null, clock: () => clock.now });
    const payer = await funded(chain, 2n * SOL);
    const escrow = (await generateKeyPairSigner()).address;
    clock.tick(30);

    const { wire, signature, reference } = await signedTransfer(chain, payer, escrow, SOL / 4n);
    expect(await send(chain, wire)).toBe(signature);
    expect(await balance(chain, escrow)).toBe(SOL / 4n);
    expect(await balance(chain, payer.address)).toBe(2n * SOL - SOL / 4n - FEE);

    const [status] = (
      await chain.rpc.getSignatureStatuses([signature], { searchTransactionHistory: true }).send()
    ).value;
    expect(status).toMatchObject({ err: null, confirmationStatus: 'finalized', confirmations: null });
    const slot = await chain.rpc.getSlot().send();
    expect(status!.slot).toBe(slot);

    const tx = await chain.rpc
      .getTransaction(signature, {
        encoding: 'jsonParsed',
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(tx).not.toBeNull();
    expect(tx!.slot).toBe(slot);
    expect(tx!.blockTime).toBe(BigInt(START.getTime() / 1000 + 30));
    expect(tx!.version).toBe(0);
    expect(tx!.transaction.signatures).toEqual([signature]);
    expect(tx!.meta).toMatchObject({ err: null, fee: FEE, status: { Ok: null } });
    expect(tx!.meta!.logMessages).toContain(`Program ${SYSTEM_PROGRAM} success`);

    const keys = tx!.transaction.message.accountKeys;
    expect(keys).toHaveLength(4);
    expect(keys).toContainEqual({
      pubkey: payer.address,
      signer: true,
      writable: true,
      source: 'transaction',
    });
    expect(keys).toContainEqual({ pubkey: escrow, signer: false, writable: true, source: 'transaction' });
    expect(keys).toContainEqual({ pubkey: reference, signer: false, writable: false, source: 'transaction' });
    expect(tx!.transaction.message.instructions).toEqual([
      {
        program: 'system',
        programId: SYSTEM_PROGRAM,
        parsed: {
          type: 'transfer',
          info: { source: payer.address, destination: escrow, lamports: SOL / 4n },
        },
        stackHeight: null,
      },
    ]);
    const at = (key: Address) => keys.findIndex((entry) => entry.pubkey === key);
    const { preBalances, postBalances } = tx!.meta!;
    expect(postBalances[at(escrow)]! - preBalances[at(escrow)]!).toBe(SOL / 4n);
    expect(preBalances[at(payer.address)]! - postBalances[at(payer.address)]!).toBe(SOL / 4n + FEE);
    expect(postBalances[at(reference)]).toBe(0n);

    // The raw encodings carry the same transaction.
    const raw = await chain.rpc
      .getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
      .send();
    expect(raw!.transaction.message.accountKeys).toEqual(keys.map((key) => key.pubkey));
    expect(raw!.meta!.loadedAddresses).toEqual({ writable: [], readonly: [] });
    const base64 = await chain.rpc
      .getTransaction(signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 })
      .send();
    expect(base64!.transaction).toEqual([wire, 'base64']);
    const unversioned = chain.rpc.getTransaction(signature, { encoding: 'jsonParsed' }).send();
    expect((await rpcError(unversioned)).context.__code).toBe(
      SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION,
    );

    const found = await chain.rpc.getSignaturesForAddress(reference).send();
    expect(found).toEqual([
      {
        signature,
        slot,
        err: null,
        memo: null,
        blockTime: tx!.blockTime,
        confirmationStatus: 'finalized',
      },
    ]);
  });

  it('moves the slot and the Clock sysvar with time (a slot per 400 ms) and with every transaction', async () => {
    const clock = manualClock();
    const chain = await createEmbeddedChain({ stateDir: null, clock: () => clock.now });
    const readClock = async () => {
      const sysvar = address('SysvarC1ock11111111111111111111111111111111');
      const { value } = await chain.rpc.getAccountInfo(sysvar, { encoding: 'base64' }).send();
      const view = new DataView(new Uint8Array(getBase64Encoder().encode(value!.data[0])).buffer);
      return { slot: view.getBigUint64(0, true), unixTimestamp: view.getBigInt64(32, true) };
    };
    const before = await chain.rpc.getSlot().send();
    expect(await readClock()).toEqual({ slot: before, unixTimestamp: BigInt(START.getTime() / 1000) });
    clock.tick(90);
    // Idle for 90 s: 225 slots passed, and the Clock sysvar says so without any transaction.
    expect(await chain.rpc.getSlot().send()).toBe(before + 225n);
    expect(await readClock()).toEqual({
      slot: before + 225n,
      unixTimestamp: BigInt(START.getTime() / 1000 + 90),
    });
    await chain.airdrop((await generateKeyPairSigner()).address, SOL);
    await chain.airdrop((await generateKeyPairSigner()).address, SOL);
    // Two transactions within one 400 ms: one slot each, as this chain holds one per slot.
    expect(await chain.rpc.getSlot().send()).toBe(before + 227n);
    expect(await readClock()).toEqual({
      slot: before + 227n,
      unixTimestamp: BigInt(START.getTime() / 1000 + 90),
    });
  });

  it('refuses an unaffordable transfer at preflight with a readable reason and records nothing', async () => {
    const clock = manualClock();
    const chain = await createEmbeddedChain({ stateDir: null, clock: () => clock.now });
    const payer = await funded(chain, SOL);
    const slot = await chain.rpc.getSlot().send();
    const { wire, signature, reference } = await signedTransfer(
      chain,
      payer,
      (await generateKeyPairSigner()).address,
      5n * SOL,
    );
    const error = await rpcError(send(chain, wire));
    expect(error.context.__code).toBe(
      SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
    );
    expect(isSolanaError(error.cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true);
    expect((error.cause as SolanaError).context).toMatchObject({ code: 1, index: 0 });
    expect((error.context as { logs: string[] }).logs.join('\n')).toMatch(/insufficient lamports/);
    expect(describeTransactionError(error)).toMatch(/^Insufficient funds/);

    expect(await balance(chain, payer.address)).toBe(SOL);
    expect(await chain.rpc.getSlot().send()).toBe(slot);
    expect((await chain.rpc.getSignatureStatuses([signature]).send()).value).toEqual([null]);
    expect(
      await chain.rpc
        .getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
        .send(),
    ).toBeNull();
    expect(await chain.rpc.getSignaturesForAddress(reference).send()).toEqual([]);
  });

  it('refuses transfers that leave 1..890879 lamports behind, and allows draining to 0', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await funded(chain, SOL);
    const elsewhere = await funded(chain, SOL);
    for (const leftover of [1n, RENT_EXEMPT_MINIMUM - 1n]) {
      const { wire } = await signedTransfer(chain, payer, elsewhere.address, SOL - FEE - leftover);
      const error = await rpcError(send(chain, wire));
      expect(isSolanaError(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_RENT)).toBe(
        true,
      );
      expect(describeTransactionError(error)).toMatch(/rent-exempt/);
    }
    // Below the minimum into a fresh account fails the same way, naming that account.
    const { wire: dust } = await signedTransfer(
      chain,
      payer,
      (await generateKeyPairSigner()).address,
      1_000n,
    );
    expect((await rpcError(send(chain, dust))).cause).toMatchObject({ context: { accountIndex: 1 } });
    expect(await balance(chain, payer.address)).toBe(SOL);

    const { wire } = await signedTransfer(chain, payer, elsewhere.address, SOL - FEE);
    await send(chain, wire);
    expect(await balance(chain, payer.address)).toBe(0n);
  });

  it('records a failed transaction that was executed (skipPreflight), fee charged, like a cluster', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await funded(chain, SOL);
    const { wire, signature, reference } = await signedTransfer(
      chain,
      payer,
      (await generateKeyPairSigner()).address,
      2n * SOL,
    );
    expect(await send(chain, wire, true)).toBe(signature);
    expect(await balance(chain, payer.address)).toBe(SOL - FEE);
    const failure = await waitForConfirmation(chain.rpc, signature).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfirmationError);
    expect(failure).toMatchObject({
      reason: 'failed',
      transactionError: { InstructionError: [0n, { Custom: 1n }] },
    });
    const tx = await chain.rpc
      .getTransaction(signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 })
      .send();
    expect(tx!.meta).toMatchObject({ fee: FEE, err: { InstructionError: [0n, { Custom: 1n }] } });
    const [found] = await chain.rpc.getSignaturesForAddress(reference).send();
    expect(found).toMatchObject({ signature, err: { InstructionError: [0n, { Custom: 1n }] } });
  });

  it('refuses a replay of the same signed transaction, also without preflight', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await funded(chain, SOL);
    const other = (await generateKeyPairSigner()).address;
    const first = await signedTransfer(chain, payer, other, SOL / 10n);
    await send(chain, first.wire);

    const replay = await rpcError(send(chain, first.wire));
    expect(isSolanaError(replay.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)).toBe(true);
    expect(describeTransactionError(replay)).toBe('This transaction was already sent');
    // Without preflight a cluster drops the duplicate silently; it must still not execute twice.
    expect(await send(chain, first.wire, true)).toBe(first.signature);
    expect(await balance(chain, other)).toBe(SOL / 10n);

    // The same transfer built again after the first landed is a new transaction and lands.
    const second = await signedTransfer(chain, payer, other, SOL / 10n);
    expect(second.signature).not.toBe(first.signature);
    await send(chain, second.wire);
    expect(await balance(chain, other)).toBe(SOL / 5n);
  });

  it('refuses a transaction whose signature does not match its message', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await funded(chain, SOL);
    const { wire } = await signedTransfer(chain, payer, (await generateKeyPairSigner()).address, SOL / 2n);
    const bytes = new Uint8Array(getBase64Encoder().encode(wire));
    // A v0 message ends with the transfer's 8-byte amount and the lookup-table count: bump the amount.
    bytes[bytes.length - 9]! ^= 1;
    const tampered = Buffer.from(bytes).toString('base64') as Base64EncodedWireTransaction;
    expect((await rpcError(send(chain, tampered))).context.__code).toBe(
      SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
    );
    expect(await balance(chain, payer.address)).toBe(SOL);
  });

  it('keeps a fetched blockhash valid while 20 other transactions land', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await funded(chain, 3n * SOL);
    const busy = await funded(chain, 3n * SOL);
    const { value: early } = await chain.rpc.getLatestBlockhash().send();
    // The user signs while others transact: airdrops and transfers, 20 slots in all.
    for (let i = 0; i < 10; i += 1) {
      await chain.airdrop(busy.address, SOL);
      const { wire } = await signedTransfer(chain, busy, payer.address, SOL / 100n);
      await send(chain, wire);
    }
    expect(await chain.rpc.getSlot().send()).toBe(early.lastValidBlockHeight - 150n + 20n);
    const late = await signedTransfer(chain, payer, busy.address, SOL, { lifetime: early });
    expect(await send(chain, late.wire)).toBe(late.signature);
  });

  it('expires a blockhash once the block height passes its lastValidBlockHeight', async () => {
    // Time stands still here: only the 150 transactions move the chain.
    const clock = manualClock();
    const chain = await createEmbeddedChain({ stateDir: null, clock: () => clock.now });
    const payer = await funded(chain, 3n * SOL);
    const { value: lifetime } = await chain.rpc.getLatestBlockhash().send();
    const other = (await generateKeyPairSigner()).address;
    for (let i = 0; i < 150; i += 1) await chain.airdrop(other, SOL);
    // At lastValidBlockHeight kit still waits for the transaction, so it must still be able to land.
    expect(await chain.rpc.getBlockHeight().send()).toBe(lifetime.lastValidBlockHeight);
    const lastChance = await signedTransfer(chain, payer, other, SOL, { lifetime });
    await send(chain, lastChance.wire);

    expect((await chain.rpc.isBlockhashValid(lifetime.blockhash).send()).value).toBe(false);
    const tooLate = await signedTransfer(chain, payer, other, SOL / 2n, { lifetime });
    const error = await rpcError(send(chain, tooLate.wire));
    expect(isSolanaError(error.cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND)).toBe(true);
    const expired = await waitForConfirmation(chain.rpc, tooLate.signature, {
      lastValidBlockHeight: lifetime.lastValidBlockHeight,
      timeoutMs: 2_000,
    }).catch((caught: unknown) => caught);
    expect(expired).toMatchObject({ reason: 'expired' });
  });

  it('resolves lookup-table addresses into account keys and balances', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await funded(chain, 10n * SOL);
    const [escrow, reference] = [
      (await generateKeyPairSigner()).address,
      (await generateKeyPairSigner()).address,
    ];
    const build = async (instructions: Instruction[], lookups?: AddressesByLookupTableAddress) => {
      const { value } = await chain.rpc.getLatestBlockhash().send();
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayer(payer.address, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(value, m),
        (m) => appendTransactionMessageInstructions(instructions, m),
      );
      const compressed = lookups
        ? compressTransactionMessageUsingAddressLookupTables(message, lookups)
        : message;
      const transaction = await signTransaction([payer.keyPair], compileTransaction(compressed));
      return send(chain, getBase64EncodedWireTransaction(transaction));
    };
    // CreateLookupTable and ExtendLookupTable of the builtin program, encoded by hand.
    const lookupProgram = address('AddressLookupTab1e1111111111111111111111111');
    const recentSlot = (await chain.rpc.getSlot().send()) - 1n;
    const [table, bump] = await getProgramDerivedAddress({
      programAddress: lookupProgram,
      seeds: [getAddressEncoder().encode(payer.address), getU64Encoder().encode(recentSlot)],
    });
    const tableAccounts = [
      { address: table, role: AccountRole.WRITABLE },
      { address: payer.address, role: AccountRole.READONLY_SIGNER },
      { address: payer.address, role: AccountRole.WRITABLE_SIGNER },
      { address: address(SYSTEM_PROGRAM), role: AccountRole.READONLY },
    ];
    const u32 = (value: number) => getU32Encoder().encode(value);
    const create = new Uint8Array([...u32(0), ...getU64Encoder().encode(recentSlot), bump]);
    const extend = new Uint8Array([
      ...u32(2),
      ...getU64Encoder().encode(2n),
      ...getAddressEncoder().encode(escrow),
      ...getAddressEncoder().encode(reference),
    ]);
    await build([{ programAddress: lookupProgram, accounts: tableAccounts, data: create }]);
    await build([{ programAddress: lookupProgram, accounts: tableAccounts, data: extend }]);
    await chain.airdrop(payer.address, SOL); // a table serves addresses from the slot after extending

    const transfer = getTransferSolInstruction({ source: payer, destination: escrow, amount: SOL });
    const signature = await build(
      [{ ...transfer, accounts: [...transfer.accounts, { address: reference, role: AccountRole.READONLY }] }],
      { [table]: [escrow, reference] },
    );
    const tx = await chain.rpc
      .getTransaction(signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 })
      .send();
    const keys = tx!.transaction.message.accountKeys;
    expect(keys.slice(-2)).toEqual([
      { pubkey: escrow, signer: false, writable: true, source: 'lookupTable' },
      { pubkey: reference, signer: false, writable: false, source: 'lookupTable' },
    ]);
    expect(tx!.meta!.postBalances[keys.length - 2]! - tx!.meta!.preBalances[keys.length - 2]!).toBe(SOL);
    const raw = await chain.rpc
      .getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
      .send();
    expect(raw!.meta!.loadedAddresses).toEqual({ writable: [escrow], readonly: [reference] });
    expect((await chain.rpc.getSignaturesForAddress(reference).send())[0]?.signature).toBe(signature);
  });

  it('waits for confirmation by polling, and gives up at the timeout', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await funded(chain, SOL);
    const { wire, signature } = await signedTransfer(
      chain,
      payer,
      (await generateKeyPairSigner()).address,
      SOL / 2n,
    );
    await send(chain, wire);
    const landed = await waitForConfirmation(chain.rpc, signature, { commitment: 'finalized' });
    expect(landed).toEqual({ slot: await chain.rpc.getSlot().send(), commitment: 'finalized' });

    const { signature: neverSent } = await signedTransfer(chain, payer, payer.address, 1n);
    const timedOut = await waitForConfirmation(chain.rpc, neverSent, {
      timeoutMs: 100,
      intervalMs: 20,
    }).catch((error: unknown) => error);
    expect(timedOut).toMatchObject({ reason: 'timeout', signature: neverSent });
  });

  it('pages getSignaturesForAddress newest first with before, until and limit', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const wallet = (await generateKeyPairSigner()).address;
    const [a, b, c] = [
      await chain.airdrop(wallet, SOL),
      await chain.airdrop(wallet, SOL),
      await chain.airdrop(wallet, SOL),
    ];
    const list = async (config: Parameters<typeof chain.rpc.getSignaturesForAddress>[1]) =>
      (await chain.rpc.getSignaturesForAddress(wallet, config).send()).map((entry) => entry.signature);
    expect(await list({})).toEqual([c, b, a]);
    expect(await list({ limit: 2 })).toEqual([c, b]);
    expect(await list({ before: c })).toEqual([b, a]);
    expect(await list({ until: a })).toEqual([c, b]);
    expect(await list({ before: c, until: a })).toEqual([b]);
  });

  it('simulates without changing state, with or without signatures', async () => {
    const chain = await createEmbeddedChain({ stateDir: null });
    const payer = await funded(chain, SOL);
    const { wire } = await signedTransfer(chain, payer, (await generateKeyPairSigner()).address, SOL / 2n);
    const { value } = await chain.rpc
      .simulateTransaction(wire, { encoding: 'base64', sigVerify: true })
      .send();
    expect(value.err).toBeNull();
    expect(value.logs).toContain(`Program ${SYSTEM_PROGRAM} success`);
    const replaced = await chain.rpc
      .simulateTransaction(wire, { encoding: 'base64', replaceRecentBlockhash: true })
      .send();
    expect(replaced.value.replacementBlockhash?.blockhash).toBe(
      (await chain.rpc.getLatestBlockhash().send()).value.blockhash,
    );

    // A payout is simulated before anyone signs it (notes, section 4).
    const { value: lifetime } = await chain.rpc.getLatestBlockhash().send();
    const unsigned = getBase64EncodedWireTransaction(
      compileTransaction(
        pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayer(payer.address, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
          (m) =>
            appendTransactionMessageInstruction(
              getTransferSolInstruction({ source: payer, destination: payer.address, amount: 2n * SOL }),
              m,
            ),
        ),
      ),
    );
    const overdrawn = await chain.rpc.simulateTransaction(unsigned, { encoding: 'base64' }).send();
    expect(overdrawn.value.err).toEqual({ InstructionError: [0n, { Custom: 1n }] });
    const checked = chain.rpc.simulateTransaction(unsigned, { encoding: 'base64', sigVerify: true }).send();
    expect((await rpcError(checked)).context.__code).toBe(
      SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
    );
    expect(await balance(chain, payer.address)).toBe(SOL);
  });
});

describe('embedded chain state on disk', () => {
  it('survives a restart: balances, slot, history, blockhash validity and replay refusal', async () => {
    const stateDir = path.join(tempDir(), 'chain'); // not there yet: a fresh chain creates it
    const chain = await createEmbeddedChain({ stateDir });
    const payer = await funded(chain, 2n * SOL);
    const escrow = (await generateKeyPairSigner()).address;
    const transfer = await signedTransfer(chain, payer, escrow, SOL);
    await send(chain, transfer.wire);
    const { value: pending } = await chain.rpc.getLatestBlockhash().send();
    const slot = await chain.rpc.getSlot().send();
    const view = await chain.rpc
      .getTransaction(transfer.signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 })
      .send();
    await chain.close();
    expect(await chain.health()).toMatchObject({ ok: false });

    const reopened = await createEmbeddedChain({ stateDir });
    expect(await balance(reopened, escrow)).toBe(SOL);
    expect(await balance(reopened, payer.address)).toBe(SOL - FEE);
    expect(await reopened.rpc.getSlot().send()).toBeGreaterThanOrEqual(slot);
    expect(
      await reopened.rpc
        .getTransaction(transfer.signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 })
        .send(),
    ).toEqual(view);
    expect((await reopened.rpc.getSignaturesForAddress(transfer.reference).send())[0]?.signature).toBe(
      transfer.signature,
    );

    const replay = await rpcError(send(reopened, transfer.wire));
    expect(isSolanaError(replay.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)).toBe(true);
    // A transaction signed before the restart with a blockhash fetched then still lands.
    const signedEarlier = await signedTransfer(reopened, payer, escrow, SOL / 2n, { lifetime: pending });
    await send(reopened, signedEarlier.wire);
    expect(await balance(reopened, escrow)).toBe(SOL + SOL / 2n);
    expect(await reopened.rpc.getSlot().send()).toBeGreaterThan(slot);
    await reopened.close();
  });

  it('keeps slots following time across a crash: empty slots between logged transactions, a warp saved', async () => {
    const stateDir = tempDir();
    const clock = manualClock();
    const chain = await createEmbeddedChain({ stateDir, clock: () => clock.now, testControls: true });
    const wallet = (await generateKeyPairSigner()).address;
    const first = await chain.airdrop(wallet, SOL);
    clock.tick(10); // 25 slots pass; the next transaction opens the slot after them
    const second = await chain.airdrop(wallet, SOL);
    const statuses = async (port: ChainPort) =>
      (await port.rpc.getSignatureStatuses([first, second]).send()).value.map((status) => status?.slot);
    const [firstSlot, secondSlot] = await statuses(chain);
    expect(secondSlot! - firstSlot!).toBe(25n);
    const { value: handedOut } = await chain.rpc.getLatestBlockhash().send();
    clock.tick(4);
    const slotBeforeCrash = await chain.rpc.getSlot().send();

    // Not closed (a crash): both transactions replay from the log, each in its own slot.
    const copy = await createEmbeddedChain({ stateDir, clock: () => clock.now, testControls: true });
    expect(await balance(copy, wallet)).toBe(2n * SOL);
    expect(await statuses(copy)).toEqual([firstSlot, secondSlot]);
    expect(await copy.rpc.getSlot().send()).toBe(slotBeforeCrash);
    expect((await copy.rpc.isBlockhashValid(handedOut.blockhash).send()).value).toBe(true);

    // A warp moves slots and the Clock sysvar, expires the blockhash, and survives a restart.
    const warped = await copy.testControls!.warp(60);
    expect(warped.slot).toBe(slotBeforeCrash + 150n);
    expect(warped.unixTimestamp).toBe(BigInt(START.getTime() / 1000 + 14 + 60));
    expect((await copy.rpc.isBlockhashValid(handedOut.blockhash).send()).value).toBe(false);
    await copy.close();
    const restarted = await createEmbeddedChain({ stateDir, clock: () => clock.now });
    expect(await restarted.rpc.getSlot().send()).toBe(warped.slot);
    expect((await restarted.rpc.getEpochInfo().send()).absoluteSlot).toBe(warped.slot);
    expect(restarted.testControls).toBeUndefined();
    const sysvar = address('SysvarC1ock11111111111111111111111111111111');
    const { value } = await restarted.rpc.getAccountInfo(sysvar, { encoding: 'base64' }).send();
    const view = new DataView(new Uint8Array(getBase64Encoder().encode(value!.data[0])).buffer);
    expect(view.getBigInt64(32, true)).toBe(warped.unixTimestamp);
    // The Clock's epoch is the epoch getEpochInfo reports.
    expect(view.getBigUint64(16, true)).toBe((await restarted.rpc.getEpochInfo().send()).epoch);
    await restarted.close();
    await chain.close();
  });

  it('saves each change before answering, without waiting for close()', async () => {
    const stateDir = tempDir();
    const chain = await createEmbeddedChain({ stateDir });
    const wallet = (await generateKeyPairSigner()).address;
    const signature = await chain.airdrop(wallet, SOL);
    // A second process start (as after a crash) sees the airdrop, though the first never closed.
    const copy = await createEmbeddedChain({ stateDir });
    expect(await balance(copy, wallet)).toBe(SOL);
    expect((await copy.rpc.getSignatureStatuses([signature]).send()).value[0]).not.toBeNull();
    await chain.close();
  });

  it('drops a history record cut off halfway: it was never answered for', async () => {
    const stateDir = tempDir();
    const chain = await createEmbeddedChain({ stateDir });
    const wallet = (await generateKeyPairSigner()).address;
    await chain.airdrop(wallet, SOL);
    await chain.close();
    // A crash in the middle of an append leaves this behind.
    const history = path.join(stateDir, 'history.jsonl');
    const saved = readFileSync(history);
    appendFileSync(history, '{"signature":"half-writ');

    const reopened = await createEmbeddedChain({ stateDir });
    expect(readFileSync(history)).toEqual(saved);
    expect(await reopened.rpc.getSignaturesForAddress(wallet).send()).toHaveLength(1);
    await reopened.airdrop(wallet, SOL);
    expect(await balance(reopened, wallet)).toBe(2n * SOL);
    await reopened.close();
  });

  it('snapshots every SNAPSHOT_EVERY transactions and replays the log past the snapshot', async () => {
    const stateDir = tempDir();
    const chain = await createEmbeddedChain({ stateDir });
    const wallet = (await generateKeyPairSigner()).address;
    const extra = 3;
    const signatures = [];
    for (let i = 0; i < SNAPSHOT_EVERY + extra; i++) signatures.push(await chain.airdrop(wallet, SOL));
    const slot = await chain.rpc.getSlot().send();
    const header = (file: string) => JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!);
    // Not closed (a crash): the snapshot covers the first SNAPSHOT_EVERY, the log the rest.
    expect(header(path.join(stateDir, 'state.bin')).historyCount).toBe(SNAPSHOT_EVERY);
    expect(readFileSync(path.join(stateDir, 'history.jsonl'), 'utf8').split('\n')).toHaveLength(
      SNAPSHOT_EVERY + extra + 1,
    );

    const copy = await createEmbeddedChain({ stateDir });
    expect(await balance(copy, wallet)).toBe(BigInt(SNAPSHOT_EVERY + extra) * SOL);
    expect(await copy.rpc.getSlot().send()).toBeGreaterThanOrEqual(slot);
    expect((await copy.rpc.getSignatureStatuses([signatures.at(-1)!]).send()).value[0]?.slot).toBe(slot);
    // The replayed state is snapshotted at once, so the next start replays nothing.
    expect(header(path.join(stateDir, 'state.bin')).historyCount).toBe(SNAPSHOT_EVERY + extra);
    await copy.airdrop(wallet, SOL);
    expect(await balance(copy, wallet)).toBe(BigInt(SNAPSHOT_EVERY + extra + 1) * SOL);
    await copy.close();
    await chain.close().catch(() => {});
  });

  it('refuses to start when a logged transaction replays differently', async () => {
    const stateDir = tempDir();
    const chain = await createEmbeddedChain({ stateDir });
    const wallet = (await generateKeyPairSigner()).address;
    await chain.airdrop(wallet, SOL);
    const history = path.join(stateDir, 'history.jsonl');
    const [line] = readFileSync(history, 'utf8').split('\n');
    const record = JSON.parse(line!);
    record.postBalances[1] = String(2n * SOL);
    writeFileSync(history, `${JSON.stringify(record)}\n`);

    const error = await createEmbeddedChain({ stateDir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainStateError);
    expect((error as Error).message).toContain(`transaction ${record.signature}`);
    expect((error as Error).message).toMatch(/ends differently when replayed/);
    await chain.close();
  });

  it('refuses to start on damaged state with one clear line', async () => {
    const stateDir = tempDir();
    const chain = await createEmbeddedChain({ stateDir });
    await chain.airdrop((await generateKeyPairSigner()).address, SOL);
    await chain.close();
    const state = path.join(stateDir, 'state.bin');
    const bytes = readFileSync(state);
    bytes[bytes.length - 100]! ^= 0xff;
    writeFileSync(state, bytes);

    const error = await createEmbeddedChain({ stateDir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainStateError);
    expect((error as Error).message).toContain(stateDir);
    expect((error as Error).message).toMatch(/checksum/);
    expect((error as Error).message).not.toContain('\n');

    writeFileSync(state, 'not a chain');
    await expect(createEmbeddedChain({ stateDir })).rejects.toThrow(ChainStateError);
    rmSync(state);
    // History without the state it belongs to is not a fresh start either.
    await expect(createEmbeddedChain({ stateDir })).rejects.toThrow(/history\.jsonl without state\.bin/);
    expect(existsSync(path.join(stateDir, 'history.jsonl'))).toBe(true);
  });
});
