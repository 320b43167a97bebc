/**
 * A confirmation wait on a real cluster's client hears the cluster's WebSocket: with polls a
 * minute apart it still ends as soon as the transaction lands; with no WebSocket it polls.
 */
import {
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForConfirmation } from './confirmation';
import { createEmbeddedChain } from './embedded/index';
import type { ChainPort } from './port';
import { createRpcChain } from './rpc-chain';
import { pubSubUrlOf } from './signature-watch';

let served: ChainPort;
let httpUrl: string;
let wsUrl: string;
beforeAll(async () => {
  served = await createEmbeddedChain({ stateDir: null, rpcServer: { host: '127.0.0.1', port: 0 } });
  if (!served.rpcServer?.serving) throw new Error('the chain RPC did not start');
  ({ httpUrl, wsUrl } = served.rpcServer);
});
afterAll(() => served.close());

async function signedTransfer() {
  const payer = await generateKeyPairSigner();
  await served.airdrop(payer.address, 1_000_000_000n);
  const { value: lifetime } = await served.rpc.getLatestBlockhash().send();
  const transaction = await signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) =>
        appendTransactionMessageInstructions(
          [getTransferSolInstruction({ source: payer, destination: payer.address, amount: 1n })],
          m,
        ),
    ),
  );
  return {
    wire: getBase64EncodedWireTransaction(transaction),
    signature: getSignatureFromTransaction(transaction),
  };
}

describe('confirmations heard on the WebSocket', () => {
  it('names the PubSub beside an RPC URL', () => {
    expect(pubSubUrlOf('http://127.0.0.1:8899')).toBe('ws://127.0.0.1:8900/');
    expect(pubSubUrlOf('https://api.devnet.solana.com')).toBe('wss://api.devnet.solana.com/');
  });

  it('ends a wait as soon as the cluster notifies, long before the next poll', {
    timeout: 15_000,
  }, async () => {
    // SOLANA_WS_URL: port 0 serves PubSub on a port of its own, not the next one.
    const chain = createRpcChain({ url: httpUrl, cluster: 'localnet', wsUrl });
    const { wire, signature } = await signedTransfer();
    // The next poll would come an hour after the first, long past this test's timeout: the wait can
    // only end on the notification.
    const waiting = waitForConfirmation(chain.rpc, signature, {
      intervalMs: 3_600_000,
      timeoutMs: 7_200_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await served.rpc.sendTransaction(wire, { encoding: 'base64' }).send();
    expect(await waiting).toMatchObject({ commitment: expect.any(String) });
  });

  it('polls when the WebSocket is not there', async () => {
    const chain = createRpcChain({ url: httpUrl, cluster: 'localnet', wsUrl: 'ws://127.0.0.1:9/' });
    const { wire, signature } = await signedTransfer();
    const started = Date.now();
    const waiting = waitForConfirmation(chain.rpc, signature, { intervalMs: 1_000, timeoutMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await served.rpc.sendTransaction(wire, { encoding: 'base64' }).send();
    await waiting;
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});
