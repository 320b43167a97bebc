import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Address, isAddress, type KeyPairSigner } from '@solana/kit';
import type { EscrowKeys } from './chain/escrow-keys';
import { readKeypairFile, writeNewKeypairFile } from './chain/escrow-program/keypair-file';
import { type AppConfig, ConfigError, checkJudges } from './config';

/**
 * Who may name winners and who may stop a payout, as new vaults of escrow program v2 record them
 * (docs/decisions/036-judges-guardian-window.md). None of these keys is the server's: the server's
 * keys may only cancel (refunds) and pay fees.
 */
export interface Judging {
  judges: Address[];
  /** Judges who must sign a community dare's proposal. */
  threshold: number;
  /** Judges who must sign a Major Dare's proposal. */
  majorThreshold: number;
  guardian: Address;
  payoutWindowSeconds: bigint;
}

/**
 * On the embedded chain, the demo admin's wallet: a key the first start writes into DATA_DIR, so
 * an operator can load it into the browser's Connect Wallet dialog and judge as the demo admin.
 * It is read from disk only by the start (demo data) and by the operator; never served.
 */
export const DEMO_ADMIN_WALLET_FILE = 'demo-admin-wallet.json';
/** On the embedded chain, the guardian's key unless GUARDIAN_WALLET names one (npm run guardian -- veto --keypair). */
export const GUARDIAN_KEYPAIR_FILE = 'guardian-keypair.json';

async function keyInDataDir(dataDir: string, file: string): Promise<KeyPairSigner> {
  const at = path.join(dataDir, file);
  if (!existsSync(at)) writeNewKeypairFile(at);
  return readKeypairFile(at);
}

/** The embedded chain's demo admin wallet (created at the first call). */
export function demoAdminWallet(dataDir: string): Promise<KeyPairSigner> {
  return keyInDataDir(dataDir, DEMO_ADMIN_WALLET_FILE);
}

/**
 * The judges and guardian of new vaults. On a cluster both come from the configuration (required
 * there); on the embedded chain the defaults are the admins' wallets plus the demo admin's, and a
 * guardian key generated into DATA_DIR. Refuses, saying why, any of the server's own keys as a
 * judge or the guardian: then the server alone could name winners or wave a payout through.
 */
export async function resolveJudging(config: AppConfig, escrowKeys: EscrowKeys): Promise<Judging> {
  const settings = config.judging;
  const embedded = config.chain.embedded;
  let judges = settings.judgeWallets;
  if (!judges) {
    if (!embedded) throw new ConfigError('Invalid JUDGE_WALLETS: required with SOLANA_RPC_URL');
    const demo = (await demoAdminWallet(config.dataDir)).address;
    // ADMIN_WALLETS may also name accounts by username: only its addresses can judge.
    const adminWallets = config.adminWallets.filter((wallet): wallet is Address => isAddress(wallet));
    judges = [...new Set([...adminWallets, demo])].slice(0, 5);
  }
  checkJudges(judges, Math.max(settings.threshold, settings.majorThreshold));
  let guardian = settings.guardianWallet;
  if (!guardian) {
    if (!embedded) throw new ConfigError('Invalid GUARDIAN_WALLET: required with SOLANA_RPC_URL');
    guardian = (await keyInDataDir(config.dataDir, GUARDIAN_KEYPAIR_FILE)).address;
  }
  const serverKeys = escrowKeys.heldKeys();
  for (const judge of judges) {
    const key = serverKeys.get(judge);
    if (key)
      throw new ConfigError(
        `Invalid JUDGE_WALLETS: ${judge} is ${key}, derived from ESCROW_MASTER_SEED: a judge must be an admin's own wallet, or the server alone could name winners`,
      );
  }
  const guardianKey = serverKeys.get(guardian);
  if (guardianKey)
    throw new ConfigError(
      `Invalid GUARDIAN_WALLET: ${guardian} is ${guardianKey}, derived from ESCROW_MASTER_SEED: the guardian must be a key kept offline, apart from the server`,
    );
  if (judges.includes(guardian))
    throw new ConfigError(
      `Invalid GUARDIAN_WALLET: ${guardian} is also a judge; the guardian checks the judges, so it must be another key`,
    );
  return {
    judges,
    threshold: settings.threshold,
    majorThreshold: settings.majorThreshold,
    guardian,
    payoutWindowSeconds: settings.payoutWindowSeconds,
  };
}

/**
 * On a cluster, the key the operator accepts as the escrow programs' upgrade authority may not be
 * one the server holds (the fee payer, the canceller, any key derived from ESCROW_MASTER_SEED):
 * with it, whoever has the seed could replace the program's code and, with it, take every pool.
 */
export function checkUpgradeAuthority(config: AppConfig, escrowKeys: EscrowKeys): void {
  const accepted = config.chain.embedded ? null : config.chain.acceptedUpgradeAuthority;
  if (!accepted) return;
  const key = escrowKeys.heldKeys().get(accepted);
  if (key)
    throw new ConfigError(
      `Invalid ESCROW_PROGRAM_UPGRADE_AUTHORITY: ${accepted} is ${key}, derived from ESCROW_MASTER_SEED: whoever holds the seed could replace the escrow program's code and take every pool; name a key kept apart from the server (e.g. a multisig), or make the program immutable (docs/program.md)`,
    );
}
