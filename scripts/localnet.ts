/**
 * npm run localnet -- [--rpc-port 8899] [--bind-address 127.0.0.1] [--ledger ./data/localnet] [--reset] [--memory] [--test-controls]
 *                      [--drop-rate 0.3] [--min-priority-fee <micro-lamports>]
 *   The embedded chain (LiteSVM, the one `npm start` runs in-process) on its own, served like
 *   `solana-test-validator`: JSON-RPC on --rpc-port, WebSocket PubSub on the next port. Test SOL
 *   through `requestAirdrop` (`solana airdrop`, kit's `rpc.requestAirdrop`). For several DarePool
 *   instances on one local chain (each with SOLANA_RPC_URL=http://127.0.0.1:8899 and the same
 *   ESCROW_MASTER_SEED), for wallets and tools without a server, and for the two-instance test tier.
 *   State is kept in --ledger (reloaded on the next start; --reset starts afresh) or, with
 *   --memory, nowhere (the default folder follows DATA_DIR). `--ledger DATA_DIR/chain` serves a
 *   stopped server's own chain (for `npm run refund-dare`), holding its data folder meanwhile. Flag names are solana-test-validator's.
 *   --rpc-port 0 picks free ports (printed). --test-controls (tests only): a parent process that
 *   started this with an IPC channel may move the chain's clock forward ({warp: seconds}).
 *   The committed escrow program v2 is deployed at start, at a program id kept in the ledger folder
 *   (printed: give it to each instance as ESCROW_PROGRAM_V2_ID), upgraded in place when rebuilt by
 *   the localnet's own upgrade authority (printed: each instance must accept it with
 *   ESCROW_PROGRAM_UPGRADE_AUTHORITY, as on any cluster where the program is not immutable). v1
 *   only where the ledger folder keeps its id (a ledger, or a server's chain folder, from before v1
 *   was retired, whose v1 vaults it keeps: ESCROW_PROGRAM_ID); a new ledger has none (decision 081).
 *   Stops on SIGTERM/SIGINT, saving the state.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateKeyPairSigner, type KeyPairSigner } from '@solana/kit';
import { createEmbeddedChain } from '#server/chain/embedded/index';
import { V1_PROGRAM_KEYPAIR_FILE } from '#server/chain/escrow-program/app-program';
import { ensureProgramDeployed } from '#server/chain/escrow-program/deploy';
import { readKeypairFile, writeNewKeypairFile } from '#server/chain/escrow-program/keypair-file';
import { readEscrowProgram } from '#server/chain/escrow-program/program';
import { readEscrowProgramV2 } from '#server/chain/escrow-program/v2/program';
import { lockDataDir } from '#server/data-dir-lock';

function fail(message: string): never {
  console.error(`localnet: ${message}`);
  process.exit(1);
}

const { values } = parseArgs({
  options: {
    'rpc-port': { type: 'string', default: '8899' },
    'bind-address': { type: 'string', default: '127.0.0.1' },
    ledger: { type: 'string', default: path.join(process.env.DATA_DIR || './data', 'localnet') },
    reset: { type: 'boolean', default: false },
    memory: { type: 'boolean', default: false },
    'test-controls': { type: 'boolean', default: false },
    // A busy cluster (src/server/chain/embedded/congestion.ts): that share of sent transactions,
    // and every one paying less per compute unit, is answered but never lands.
    'drop-rate': { type: 'string', default: '0' },
    'min-priority-fee': { type: 'string', default: '0' },
  },
});
const dropRate = Number(values['drop-rate']);
if (!(dropRate >= 0 && dropRate < 1))
  fail(`--drop-rate ${values['drop-rate']} is not a share from 0 to below 1`);
if (!/^\d+$/.test(values['min-priority-fee']))
  fail(
    `--min-priority-fee ${values['min-priority-fee']} is not a whole number of micro-lamports per compute unit`,
  );
const minPriorityFee = BigInt(values['min-priority-fee']);
const congested = dropRate > 0 || minPriorityFee > 0n;
const port = Number(values['rpc-port']);
if (!Number.isInteger(port) || port < 0 || port > 65534)
  fail(`--rpc-port ${values['rpc-port']} is not a port (0 to 65534; PubSub takes the next one)`);
const ledgerDir = values.memory ? null : path.resolve(values.ledger);

let unlock = () => {};
if (ledgerDir) {
  // One writer per chain folder, as for the server's data folder. A server's own chain folder
  // (DATA_DIR/chain, served so that `npm run refund-dare` can reach it while the server is stopped)
  // is written by the server, which locks DATA_DIR: that lock is taken too, so neither runs beside
  // the other.
  try {
    const serverDataDir = path.basename(ledgerDir) === 'chain' ? path.dirname(ledgerDir) : null;
    const unlockServer = serverDataDir ? lockDataDir(serverDataDir) : () => {};
    try {
      const unlockLedger = lockDataDir(ledgerDir);
      unlock = () => {
        unlockLedger();
        unlockServer();
      };
    } catch (error) {
      unlockServer();
      throw error;
    }
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.reset) {
    // Only the chain folder is emptied; the server's data folder, if locked, stays locked.
    rmSync(ledgerDir, { recursive: true, force: true });
    const unlockServer = unlock;
    const unlockLedger = lockDataDir(ledgerDir);
    unlock = () => {
      unlockLedger();
      unlockServer();
    };
  }
}

let chain: Awaited<ReturnType<typeof createEmbeddedChain>>;
try {
  chain = await createEmbeddedChain({
    stateDir: ledgerDir,
    rpcServer: { host: values['bind-address'], port },
    testControls: values['test-controls'],
    ...(congested ? { congestion: { dropRate, minPriorityFee } } : {}),
  });
} catch (error) {
  unlock();
  fail((error as Error).message);
}
const served = chain.rpcServer;
if (!served?.serving) {
  await chain.close();
  unlock();
  fail(`cannot serve the chain: ${served?.reason ?? 'unknown reason'}`);
}

/** The localnet's own upgrade authority, kept with the ledger so a rebuilt program can replace it. */
async function upgradeAuthority(): Promise<KeyPairSigner> {
  if (!ledgerDir) return generateKeyPairSigner();
  const file = path.join(ledgerDir, 'upgrade-authority-keypair.json');
  if (!existsSync(file)) writeNewKeypairFile(file);
  return readKeypairFile(file);
}

let programId: string | null = null;
let programV2Id: string;
let authority: KeyPairSigner;
try {
  authority = await upgradeAuthority();
  await chain.airdrop(authority.address, 4_000_000_000n);
  // v1 only where this ledger already runs it (its id kept here): a new one never had a v1 vault.
  const v1Keypair = ledgerDir && path.join(ledgerDir, V1_PROGRAM_KEYPAIR_FILE);
  if (v1Keypair && existsSync(v1Keypair))
    ({ programId } = await ensureProgramDeployed({
      rpc: chain.rpc,
      authority,
      keypairFile: v1Keypair,
      bytes: readEscrowProgram(),
    }));
  ({ programId: programV2Id } = await ensureProgramDeployed({
    rpc: chain.rpc,
    authority,
    keypairFile: ledgerDir && path.join(ledgerDir, 'escrow-program-v2-keypair.json'),
    bytes: readEscrowProgramV2(),
  }));
} catch (error) {
  await chain.close();
  unlock();
  fail(`cannot deploy the escrow program: ${(error as Error).message}`);
}

console.log(`Localnet JSON-RPC: ${served.httpUrl}`);
console.log(`Localnet PubSub:   ${served.wsUrl}`);
console.log(
  programId
    ? `Escrow program:    ${programId} (ESCROW_PROGRAM_ID)`
    : 'Escrow program v1: none on this ledger (leave ESCROW_PROGRAM_ID unset)',
);
console.log(`Escrow program v2: ${programV2Id} (ESCROW_PROGRAM_V2_ID)`);
console.log(`Upgrade authority: ${authority.address} (ESCROW_PROGRAM_UPGRADE_AUTHORITY)`);
console.log(ledgerDir ? `State: ${ledgerDir}` : 'State: in memory only (--memory)');
if (congested)
  console.log(
    `Congested:         ${dropRate * 100}% of sent transactions dropped, none below ${minPriorityFee} micro-lamports per CU lands`,
  );
// A parent that started this with an IPC channel (the test tier) is told where it listens, and
// its going away ends this process too.
process.send?.({
  httpUrl: served.httpUrl,
  wsUrl: served.wsUrl,
  escrowProgramId: programId,
  escrowProgramV2Id: programV2Id,
  upgradeAuthority: authority.address,
});
process.on('disconnect', () => void stop());
// --test-controls: the parent (the two-instance test tier) moves the chain's clock past a payout
// window with {warp: seconds} over its IPC channel, never over the network.
const controls = chain.testControls;
if (values['test-controls'] && controls && process.send) {
  process.on('message', (message: { warp?: unknown }) => {
    if (typeof message?.warp !== 'number') return;
    controls.warp(message.warp).then(
      ({ unixTimestamp }) => process.send?.({ warped: Number(unixTimestamp) }),
      (error: unknown) => process.send?.({ warpFailed: (error as Error).message }),
    );
  });
}

let stopping: Promise<void> | null = null;
function stop(): Promise<void> {
  stopping ??= chain
    .close()
    .catch((error: unknown) => {
      console.error(`localnet: could not save the chain: ${(error as Error).message}`);
      process.exitCode = 1;
    })
    .finally(() => {
      unlock();
      process.exit();
    });
  return stopping;
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
