/**
 * Tokens on the embedded chain as Solana's RPC documentation shapes them: a mint, associated token
 * accounts, checked and unchecked transfers made with @solana-program/token, read back through
 * getTokenAccountBalance, getTokenSupply, getTokenLargestAccounts, jsonParsed transactions with
 * their token balances, and getBlock's "accounts" details. @solana/web3.js checks each answer
 * against its own schema on the way.
 */

import {
  type Address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { Connection, PublicKey } from '@solana/web3.js';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintToCheckedInstruction,
  getTransferCheckedInstruction,
  getTransferInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainPort } from '#server/chain/port';
import { createEmbeddedChain } from '.';
import { EMBEDDED_IDENTITY } from './cluster-methods';

const SOL = 1_000_000_000n;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const MINT_SIZE = 82n;

let chain: ChainPort;
let rpc: ReturnType<typeof createSolanaRpc>;
let connection: Connection;
let payer: KeyPairSigner;
let mint: KeyPairSigner;
let receiver: Address;
let payerAta: Address;
let receiverAta: Address;
let setupSignature: string;
let transferSignature: string;

const ui = (amount: string, uiAmountString: string) => ({
  amount,
  decimals: 6,
  uiAmount: Number(uiAmountString),
  uiAmountString,
});
/** The same as kit reads it inside a parsed instruction, where it turns every number into a bigint. */
const uiInInstruction = (amount: string, uiAmountString: string) => ({
  ...ui(amount, uiAmountString),
  decimals: 6n,
});

/** Sends the instructions paid by `payer`; the signers they name sign through the instructions. */
async function send(instructions: Instruction[]): Promise<string> {
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  await rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64' }).send();
  return getSignatureFromTransaction(transaction);
}

beforeAll(async () => {
  chain = await createEmbeddedChain({ stateDir: null, rpcServer: { host: '127.0.0.1', port: 0 } });
  const served = chain.rpcServer;
  if (!served?.serving) throw new Error('the chain RPC is not served');
  rpc = createSolanaRpc(served.httpUrl);
  connection = new Connection(served.httpUrl, 'confirmed');
  payer = await generateKeyPairSigner();
  mint = await generateKeyPairSigner();
  receiver = (await generateKeyPairSigner()).address;
  await chain.airdrop(payer.address, 10n * SOL);
  [payerAta] = await findAssociatedTokenPda({
    owner: payer.address,
    mint: mint.address,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  [receiverAta] = await findAssociatedTokenPda({
    owner: receiver,
    mint: mint.address,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const rent = await rpc.getMinimumBalanceForRentExemption(MINT_SIZE).send();
  setupSignature = await send([
    getCreateAccountInstruction({
      payer,
      newAccount: mint,
      lamports: rent,
      space: MINT_SIZE,
      programAddress: TOKEN_PROGRAM_ADDRESS,
    }),
    getInitializeMint2Instruction({ mint: mint.address, decimals: 6, mintAuthority: payer.address }),
    getCreateAssociatedTokenIdempotentInstruction({
      payer,
      ata: payerAta,
      owner: payer.address,
      mint: mint.address,
    }),
    getCreateAssociatedTokenIdempotentInstruction({
      payer,
      ata: receiverAta,
      owner: receiver,
      mint: mint.address,
    }),
    getMintToCheckedInstruction({
      mint: mint.address,
      token: payerAta,
      mintAuthority: payer,
      amount: 2_500_000n,
      decimals: 6,
    }),
  ]);
  transferSignature = await send([
    getTransferCheckedInstruction({
      source: payerAta,
      mint: mint.address,
      destination: receiverAta,
      authority: payer,
      amount: 1_500_000n,
      decimals: 6,
    }),
    getTransferInstruction({
      source: payerAta,
      destination: receiverAta,
      authority: payer,
      amount: 250_000n,
    }),
  ]);
}, 60_000);

afterAll(async () => {
  await chain?.close();
});

describe('tokens on the embedded chain', () => {
  it('answers getTokenAccountBalance, getTokenSupply and getTokenLargestAccounts', async () => {
    const slot = await rpc.getSlot().send();
    const balance = await rpc.getTokenAccountBalance(receiverAta).send();
    expect(balance.context.slot).toBeGreaterThanOrEqual(slot);
    expect(balance.value).toEqual(ui('1750000', '1.75'));
    expect((await rpc.getTokenAccountBalance(payerAta).send()).value).toEqual(ui('750000', '0.75'));
    expect((await rpc.getTokenSupply(mint.address).send()).value).toEqual(ui('2500000', '2.5'));
    expect((await rpc.getTokenLargestAccounts(mint.address).send()).value).toEqual([
      { address: receiverAta, ...ui('1750000', '1.75') },
      { address: payerAta, ...ui('750000', '0.75') },
    ]);

    // web3.js reads the same answers through its own schemas.
    expect((await connection.getTokenAccountBalance(new PublicKey(payerAta))).value).toEqual(
      ui('750000', '0.75'),
    );
    expect((await connection.getTokenSupply(new PublicKey(mint.address))).value.uiAmountString).toBe('2.5');
    const largest = await connection.getTokenLargestAccounts(new PublicKey(mint.address));
    expect(largest.value.map((entry) => [entry.address.toBase58(), entry.amount])).toEqual([
      [receiverAta, '1750000'],
      [payerAta, '750000'],
    ]);
  });

  it('refuses what is not a token account or mint with -32602, as agave words it', async () => {
    const invalid = async (method: string, params: unknown[]) => {
      const response = await fetch(chain.rpcServer!.serving ? chain.rpcServer!.httpUrl : '', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return ((await response.json()) as { error: unknown }).error;
    };
    const nobody = (await generateKeyPairSigner()).address;
    expect(await invalid('getTokenAccountBalance', [mint.address])).toEqual({
      code: -32602,
      message: 'Invalid param: not a Token account',
    });
    expect(await invalid('getTokenAccountBalance', [nobody])).toEqual({
      code: -32602,
      message: 'Invalid param: could not find account',
    });
    expect(await invalid('getTokenSupply', [payerAta])).toEqual({
      code: -32602,
      message: 'Invalid param: not a Token mint',
    });
    expect(await invalid('getTokenLargestAccounts', [payer.address])).toEqual({
      code: -32602,
      message: 'Invalid param: not a Token mint',
    });
  });

  it('parses token instructions and lists token balances in jsonParsed transactions', async () => {
    const parsed = await rpc
      .getTransaction(transferSignature as Parameters<typeof rpc.getTransaction>[0], {
        encoding: 'jsonParsed',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(parsed!.transaction.message.instructions).toEqual([
      {
        program: 'spl-token',
        programId: TOKEN_PROGRAM_ADDRESS,
        parsed: {
          type: 'transferChecked',
          info: {
            source: payerAta,
            mint: mint.address,
            destination: receiverAta,
            authority: payer.address,
            tokenAmount: uiInInstruction('1500000', '1.5'),
          },
        },
        stackHeight: null,
      },
      {
        program: 'spl-token',
        programId: TOKEN_PROGRAM_ADDRESS,
        parsed: {
          type: 'transfer',
          info: { source: payerAta, destination: receiverAta, authority: payer.address, amount: '250000' },
        },
        stackHeight: null,
      },
    ]);
    const keys = parsed!.transaction.message.accountKeys.map((key) => key.pubkey);
    const balance = (account: Address, owner: Address, amount: string, uiAmountString: string) => ({
      accountIndex: keys.indexOf(account),
      mint: mint.address,
      owner,
      programId: TOKEN_PROGRAM_ADDRESS,
      uiTokenAmount: ui(amount, uiAmountString),
    });
    // In the order of the transaction's account keys, as agave lists them.
    const inKeyOrder = (balances: ReturnType<typeof balance>[]) =>
      balances.sort((a, b) => a.accountIndex - b.accountIndex);
    expect(parsed!.meta!.preTokenBalances).toEqual(
      inKeyOrder([
        balance(payerAta, payer.address, '2500000', '2.5'),
        balance(receiverAta, receiver, '0', '0'),
      ]),
    );
    expect(parsed!.meta!.postTokenBalances).toEqual(
      inKeyOrder([
        balance(payerAta, payer.address, '750000', '0.75'),
        balance(receiverAta, receiver, '1750000', '1.75'),
      ]),
    );
    // The json encoding carries the same balances.
    const raw = await rpc
      .getTransaction(transferSignature as Parameters<typeof rpc.getTransaction>[0], {
        encoding: 'json',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(raw!.meta!.postTokenBalances).toEqual(parsed!.meta!.postTokenBalances);

    // The set-up: mint initialised, associated accounts created (their inner Token calls parsed),
    // tokens minted; web3.js's getParsedTransaction accepts every one of them.
    const setup = await connection.getParsedTransaction(setupSignature, {
      maxSupportedTransactionVersion: 0,
    });
    const outer = setup!.transaction.message.instructions.map((instruction) =>
      'parsed' in instruction ? [instruction.program, instruction.parsed.type] : ['raw'],
    );
    expect(outer).toEqual([
      ['system', 'createAccount'],
      ['spl-token', 'initializeMint2'],
      ['spl-associated-token-account', 'createIdempotent'],
      ['spl-associated-token-account', 'createIdempotent'],
      ['spl-token', 'mintToChecked'],
    ]);
    expect(setup!.transaction.message.instructions[1]).toMatchObject({
      parsed: { info: { mint: mint.address, decimals: 6, mintAuthority: payer.address } },
    });
    expect(setup!.transaction.message.instructions[2]).toMatchObject({
      programId: new PublicKey(ASSOCIATED_TOKEN_PROGRAM_ADDRESS),
      parsed: {
        info: {
          source: payer.address,
          account: payerAta,
          wallet: payer.address,
          mint: mint.address,
          systemProgram: SYSTEM_PROGRAM,
          tokenProgram: TOKEN_PROGRAM_ADDRESS,
        },
      },
    });
    expect(setup!.transaction.message.instructions[4]).toMatchObject({
      parsed: {
        type: 'mintToChecked',
        info: {
          mint: mint.address,
          account: payerAta,
          mintAuthority: payer.address,
          tokenAmount: ui('2500000', '2.5'),
        },
      },
    });
    const inner = setup!.meta!.innerInstructions!.find((group) => group.index === 2)!.instructions;
    expect(inner.map((instruction) => ('parsed' in instruction ? instruction.parsed.type : 'raw'))).toEqual([
      'getAccountDataSize',
      'createAccount',
      'initializeImmutableOwner',
      'initializeAccount3',
    ]);
    expect(inner[0]).toMatchObject({
      program: 'spl-token',
      parsed: { info: { mint: mint.address, extensionTypes: ['immutableOwner'] } },
      stackHeight: 2,
    });
    // A token account created in the transaction shows up only after it.
    expect(setup!.meta!.preTokenBalances).toEqual([]);
    const setupKeys = setup!.transaction.message.accountKeys.map((key) => key.pubkey.toBase58());
    expect(
      Object.fromEntries(
        setup!.meta!.postTokenBalances!.map((entry) => [
          setupKeys[entry.accountIndex],
          entry.uiTokenAmount.amount,
        ]),
      ),
    ).toEqual({ [payerAta]: '2500000', [receiverAta]: '0' });
  });

  it('answers getBlock with transactionDetails "accounts"', async () => {
    const [status] = (
      await rpc.getSignatureStatuses([transferSignature as Parameters<typeof rpc.getTransaction>[0]]).send()
    ).value;
    const block = await rpc
      .getBlock(status!.slot, {
        transactionDetails: 'accounts',
        maxSupportedTransactionVersion: 0,
        rewards: false,
      })
      .send();
    const full = await rpc
      .getTransaction(transferSignature as Parameters<typeof rpc.getTransaction>[0], {
        encoding: 'jsonParsed',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    expect(block!.transactions).toEqual([
      {
        transaction: {
          signatures: [transferSignature],
          accountKeys: full!.transaction.message.accountKeys,
        },
        meta: {
          err: null,
          status: { Ok: null },
          fee: 5_000n,
          preBalances: full!.meta!.preBalances,
          postBalances: full!.meta!.postBalances,
          preTokenBalances: full!.meta!.preTokenBalances,
          postTokenBalances: full!.meta!.postTokenBalances,
        },
        version: 0,
      },
    ]);
    expect(block).not.toHaveProperty('rewards');
    const withRewards = await rpc
      .getBlock(status!.slot, { transactionDetails: 'accounts', maxSupportedTransactionVersion: 0 })
      .send();
    expect(withRewards!.transactions[0]!.meta).toMatchObject({ rewards: [] });
  });

  it('names the one validator leader of every slot of the epoch in getLeaderSchedule', async () => {
    const { slotsInEpoch, absoluteSlot, slotIndex } = await rpc.getEpochInfo().send();
    const schedule = await connection.getLeaderSchedule();
    expect(Object.keys(schedule)).toEqual([EMBEDDED_IDENTITY]);
    const slots = schedule[EMBEDDED_IDENTITY]!;
    expect(slots).toHaveLength(Number(slotsInEpoch));
    expect([slots[0], slots[1], slots.at(-1)]).toEqual([0, 1, Number(slotsInEpoch) - 1]);

    const post = async (params: unknown[]) => {
      const response = await fetch(chain.rpcServer!.serving ? chain.rpcServer!.httpUrl : '', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getLeaderSchedule', params }),
      });
      return ((await response.json()) as { result: unknown }).result;
    };
    expect(await post([null, { identity: (await generateKeyPairSigner()).address }])).toEqual({});
    const own = (await post([{ identity: EMBEDDED_IDENTITY }])) as Record<string, number[]>;
    expect(own[EMBEDDED_IDENTITY]).toHaveLength(Number(slotsInEpoch));
    // The next epoch is known (the leader-schedule epoch); the one after is not yet.
    const nextEpochSlot = Number(absoluteSlot - slotIndex + slotsInEpoch);
    expect(Object.keys((await post([nextEpochSlot])) as object)).toEqual([EMBEDDED_IDENTITY]);
    expect(await post([nextEpochSlot + Number(slotsInEpoch)])).toBeNull();
  });
});
