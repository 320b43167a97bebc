import { randomBytes } from 'node:crypto';
import {
  address,
  blockhash,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Rpc,
  type SolanaRpcApi,
} from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { createEscrowKeys } from './escrow-keys';
import { signPayoutTransaction } from './payout-transactions';

const fakeRpc = {
  getLatestBlockhash: () => ({
    send: async () => ({
      value: { blockhash: blockhash(getBase58Decoder().decode(randomBytes(32))), lastValidBlockHeight: 150n },
    }),
  }),
} as unknown as Rpc<SolanaRpcApi>;

describe('payout transactions', () => {
  const keys = createEscrowKeys(randomBytes(64));

  it('derives a fee payer that no escrow index produces', async () => {
    const feePayer = await keys.feePayer();
    expect((await keys.feePayer()).address).toBe(feePayer.address);
    for (let index = 0; index < 40; index++)
      expect((await keys.signerFor(index)).address).not.toBe(feePayer.address);
  });

  it('is paid for by the fee payer, moves exactly the amount from the escrow, and knows its signature before sending', async () => {
    const escrow = await keys.signerFor(3);
    const feePayer = await keys.feePayer();
    const recipient = address(getBase58Decoder().decode(randomBytes(32)));
    const signed = await signPayoutTransaction(fakeRpc, {
      escrow,
      feePayer,
      recipient,
      lamports: 123_456_789n,
    });
    expect(signed.lastValidBlockHeight).toBe(150n);
    const tx = getTransactionDecoder().decode(Buffer.from(signed.wire, 'base64'));
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    expect(message.staticAccounts.slice(0, 3)).toEqual([feePayer.address, escrow.address, recipient]);
    expect(message.header.numSignerAccounts).toBe(2);
    // The transaction's id is the fee payer's signature.
    expect(getBase58Decoder().decode(tx.signatures[feePayer.address]!)).toBe(signed.signature);
    expect(tx.signatures[escrow.address]).toBeTruthy();
    // A version-0 message: its one instruction is the System transfer (u32 tag, u64 lamports).
    const data = (message as unknown as { instructions: { data: Uint8Array }[] }).instructions[0]!.data;
    expect(Buffer.from(data.slice(4)).readBigUInt64LE()).toBe(123_456_789n);
  });
});
