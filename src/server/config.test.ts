import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const SEED = 'ab'.repeat(64);
const PROGRAM_ID = 'BPFLoaderUpgradeab1e11111111111111111111111';
const PROGRAM_V2_ID = 'Vote111111111111111111111111111111111111111';
const JUDGE_A = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const JUDGE_B = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const GUARDIAN = '3Nxwena3JqFa8B8kyPsSh8oc6zDxdPvnfLhWYJ8FnMyu';
const JUDGING = {
  ESCROW_PROGRAM_V2_ID: PROGRAM_V2_ID,
  JUDGE_WALLETS: `${JUDGE_A},${JUDGE_B}`,
  GUARDIAN_WALLET: GUARDIAN,
};
const CLUSTER = {
  SOLANA_RPC_URL: 'https://api.devnet.solana.com',
  ESCROW_MASTER_SEED: SEED,
  ESCROW_PROGRAM_ID: PROGRAM_ID,
  ...JUDGING,
};

describe('loadConfig', () => {
  it('defaults to the embedded database and chain in ./data on port 5000', () => {
    const config = loadConfig({});
    expect(config.port).toBe(5000);
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.database).toEqual({ embedded: true, dataDir: path.resolve('data/pglite') });
    expect(config.chain).toEqual({
      embedded: true,
      cluster: 'localnet',
      stateDir: path.resolve('data/chain'),
      // A localnet wallet's default address, reachable from this machine only.
      rpcServer: { host: '127.0.0.1', port: 8899 },
      // Moving the chain's clock is for tests only, never on by default.
      testControls: false,
    });
    expect(config.storage.videoDir).toBe(path.resolve('data/videos'));
    expect(config.storage.tmpDir).toBe(path.resolve('data/tmp'));
  });

  it('moves the chain RPC with CHAIN_RPC_PORT and CHAIN_RPC_HOST, and turns it off with port 0', () => {
    expect(loadConfig({ CHAIN_RPC_PORT: '18899', CHAIN_RPC_HOST: '0.0.0.0' }).chain).toMatchObject({
      rpcServer: { host: '0.0.0.0', port: 18899 },
    });
    expect(loadConfig({ CHAIN_RPC_PORT: '0' }).chain).toMatchObject({ rpcServer: null });
    expect(loadConfig({ EMBEDDED_CHAIN_TEST_CONTROLS: '1' }).chain).toMatchObject({ testControls: true });
    expect(() =>
      loadConfig({
        EMBEDDED_CHAIN_TEST_CONTROLS: '1',
        SOLANA_RPC_URL: 'https://api.devnet.solana.com',
        ESCROW_MASTER_SEED: 'ab'.repeat(64),
        ESCROW_PROGRAM_ID: 'Escrow1111111111111111111111111111111111111',
        ESCROW_PROGRAM_V2_ID: 'Escrow1111111111111111111111111111111111111',
      }),
    ).toThrow(/^Invalid EMBEDDED_CHAIN_TEST_CONTROLS: only the embedded chain has test controls/);
  });

  it('switches to PostgreSQL and a real cluster from the environment', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgresql://u:p@db:5432/app',
      SOLANA_RPC_URL: 'https://api.devnet.solana.com',
      ESCROW_MASTER_SEED: SEED,
      ESCROW_PROGRAM_ID: PROGRAM_ID,
      ...JUDGING,
      ADMIN_WALLETS: ' a , b,,',
    });
    expect(config.database).toEqual({ embedded: false, url: 'postgresql://u:p@db:5432/app' });
    expect(config.chain).toEqual({
      embedded: false,
      cluster: 'devnet',
      rpcUrl: 'https://api.devnet.solana.com',
      escrowProgramId: PROGRAM_ID,
      escrowProgramV2Id: PROGRAM_V2_ID,
      acceptedUpgradeAuthority: null,
      maxRequestsPerSecond: 50,
      wsUrl: null,
    });
    expect(config.adminWallets).toEqual(['a', 'b']);
    // Without ESCROW_PROGRAM_ID (a cluster that never had a v1 vault): v2 alone (decision 081).
    for (const unset of [{}, { ESCROW_PROGRAM_ID: '' }]) {
      const { ESCROW_PROGRAM_ID: _, ...withoutV1 } = CLUSTER;
      expect(loadConfig({ ...withoutV1, ...unset }).chain).toMatchObject({
        escrowProgramId: null,
        escrowProgramV2Id: PROGRAM_V2_ID,
      });
    }
    expect(config.judging).toEqual({
      judgeWallets: [JUDGE_A, JUDGE_B],
      threshold: 1,
      majorThreshold: 1,
      guardianWallet: GUARDIAN,
      payoutWindowSeconds: 86_400n,
    });
  });

  it("takes the provider's WebSocket from SOLANA_WS_URL, a ws(s) URL", () => {
    const cluster = {
      SOLANA_RPC_URL: 'https://api.devnet.solana.com',
      ESCROW_MASTER_SEED: SEED,
      ESCROW_PROGRAM_ID: PROGRAM_ID,
      ...JUDGING,
    };
    expect(loadConfig({ ...cluster, SOLANA_WS_URL: 'wss://ws.example/key' }).chain).toMatchObject({
      wsUrl: 'wss://ws.example/key',
    });
    expect(() => loadConfig({ ...cluster, SOLANA_WS_URL: 'https://ws.example' })).toThrow(/SOLANA_WS_URL/);
  });

  it('accepts an upgradeable escrow program only by its named authority, and only on a cluster', () => {
    const cluster = {
      SOLANA_RPC_URL: 'https://api.devnet.solana.com',
      ESCROW_MASTER_SEED: SEED,
      ESCROW_PROGRAM_ID: PROGRAM_ID,
      ...JUDGING,
    };
    const authority = '11111111111111111111111111111112';
    expect(
      loadConfig({ ...cluster, ESCROW_PROGRAM_UPGRADE_AUTHORITY: ` ${authority} ` }).chain,
    ).toMatchObject({
      acceptedUpgradeAuthority: authority,
    });
    expect(loadConfig({ ...cluster, ESCROW_PROGRAM_UPGRADE_AUTHORITY: '' }).chain).toMatchObject({
      acceptedUpgradeAuthority: null,
    });
    expect(() => loadConfig({ ...cluster, ESCROW_PROGRAM_UPGRADE_AUTHORITY: 'my-multisig' })).toThrow(
      'Invalid ESCROW_PROGRAM_UPGRADE_AUTHORITY: must be a base58 address (the key that may upgrade the escrow program) (got "my-multisig")',
    );
    expect(() => loadConfig({ ESCROW_PROGRAM_UPGRADE_AUTHORITY: authority })).toThrow(
      /^Invalid ESCROW_PROGRAM_UPGRADE_AUTHORITY: only with SOLANA_RPC_URL/,
    );
  });

  it('prices transactions at the 75th percentile up to 1,000,000 µlamports, and keeps 50 RPC requests a second, unless told otherwise', () => {
    expect(loadConfig({}).priorityFees).toEqual({
      percentile: 75,
      maxMicroLamports: 1_000_000n,
      cacheMs: 1_500,
    });
    expect(
      loadConfig({ PRIORITY_FEE_PERCENTILE: '90', PRIORITY_FEE_MAX_MICROLAMPORTS: '0' }).priorityFees,
    ).toMatchObject({ percentile: 90, maxMicroLamports: 0n });
    expect(() => loadConfig({ PRIORITY_FEE_PERCENTILE: '101' })).toThrow(/PRIORITY_FEE_PERCENTILE/);
    expect(() => loadConfig({ SOLANA_RPC_MAX_RPS: '0' })).toThrow(/SOLANA_RPC_MAX_RPS/);
  });

  it('caps video storage at 5 GB and upload bodies at 300 s unless told otherwise', () => {
    const defaults = loadConfig({});
    expect(defaults.storage.maxBytes).toBe(5 * 1024 ** 3);
    expect(defaults.uploadBodyTimeoutMs).toBe(300_000);
    const tuned = loadConfig({ VIDEO_STORAGE_MAX_GB: '0.5', UPLOAD_BODY_TIMEOUT_SECONDS: '60' });
    expect(tuned.storage.maxBytes).toBe(512 * 1024 ** 2);
    expect(tuned.uploadBodyTimeoutMs).toBe(60_000);
    expect(() => loadConfig({ VIDEO_STORAGE_MAX_GB: '0' })).toThrow(/^Invalid VIDEO_STORAGE_MAX_GB/);
    expect(() => loadConfig({ UPLOAD_BODY_TIMEOUT_SECONDS: 'soon' })).toThrow(
      /^Invalid UPLOAD_BODY_TIMEOUT_SECONDS/,
    );
  });

  it('runs the refund and payout-recovery job every 60 s unless PAYOUT_JOB_INTERVAL_SECONDS says otherwise', () => {
    expect(loadConfig({}).payoutJobIntervalMs).toBe(60_000);
    expect(loadConfig({ PAYOUT_JOB_INTERVAL_SECONDS: '0.25' }).payoutJobIntervalMs).toBe(250);
    expect(() => loadConfig({ PAYOUT_JOB_INTERVAL_SECONDS: '0' })).toThrow(
      /^Invalid PAYOUT_JOB_INTERVAL_SECONDS/,
    );
  });

  it('keeps videos on local disk unless VIDEO_STORAGE=s3 names a bucket', () => {
    expect(loadConfig({}).storage.s3).toBeNull();
    const s3 = {
      VIDEO_STORAGE: 's3',
      S3_BUCKET: 'darepool-videos',
      S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig(s3).storage.s3).toEqual({
      bucket: 'darepool-videos',
      prefix: '',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    });
    // An S3-compatible service (R2, MinIO): path-style unless told otherwise; the prefix is a folder.
    const r2 = loadConfig({
      ...s3,
      S3_ENDPOINT: 'https://account.r2.cloudflarestorage.com',
      S3_REGION: 'auto',
      S3_PREFIX: '/darepool/videos',
    }).storage.s3;
    expect(r2).toMatchObject({ region: 'auto', forcePathStyle: true, prefix: 'darepool/videos/' });
    expect(
      loadConfig({ ...s3, S3_ENDPOINT: 'https://minio.example', S3_FORCE_PATH_STYLE: 'false' }).storage.s3,
    ).toMatchObject({ forcePathStyle: false });
  });

  it.each([
    [{ VIDEO_STORAGE: 'ftp' }, /^Invalid VIDEO_STORAGE/],
    [{ VIDEO_STORAGE: 's3' }, /^Invalid S3_BUCKET: required with VIDEO_STORAGE=s3$/],
    [{ VIDEO_STORAGE: 's3', S3_BUCKET: 'b1b' }, /^Invalid S3_ACCESS_KEY_ID: required with VIDEO_STORAGE=s3$/],
    [
      { VIDEO_STORAGE: 's3', S3_BUCKET: 'b1b', S3_ACCESS_KEY_ID: 'id' },
      /^Invalid S3_SECRET_ACCESS_KEY: required with VIDEO_STORAGE=s3$/,
    ],
    [{ S3_BUCKET: 'My_Bucket' }, /^Invalid S3_BUCKET: must be a bucket name/],
    [{ S3_ENDPOINT: 'minio:9000' }, /^Invalid S3_ENDPOINT: must be an http\(s\) URL/],
    [{ S3_FORCE_PATH_STYLE: 'yes' }, /^Invalid S3_FORCE_PATH_STYLE/],
    [{ S3_PREFIX: 'videos/../other' }, /^Invalid S3_PREFIX: must not contain \.\./],
  ])('stops on the S3 settings %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('treats empty values as unset, as a copied .env.example leaves them', () => {
    expect(loadConfig({ DATABASE_URL: '', SOLANA_RPC_URL: '' }).database.embedded).toBe(true);
  });

  it.each([
    [{ PORT: 'abc' }, /^Invalid PORT: .*\(got "abc"\)$/],
    [{ PORT: '70000' }, /^Invalid PORT/],
    // Its PubSub needs the next port too.
    [{ CHAIN_RPC_PORT: '65535' }, /^Invalid CHAIN_RPC_PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid DATABASE_URL: must be a postgres/],
    [
      { SOLANA_RPC_URL: 'ftp://x', ESCROW_MASTER_SEED: SEED },
      /^Invalid SOLANA_RPC_URL: must be an http\(s\) URL/,
    ],
    [{ SOLANA_CLUSTER: 'moon' }, /^Invalid SOLANA_CLUSTER/],
    [{ LOG_LEVEL: 'loud' }, /^Invalid LOG_LEVEL/],
    [{ TRUST_PROXY: 'yes' }, /^Invalid TRUST_PROXY: must be false, true \(1 hop\)/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^Invalid TRUST_PROXY/],
    [{ PUBLIC_URL: 'darepool.example' }, /^Invalid PUBLIC_URL: must be an http\(s\) URL/],
    [
      { MAJOR_PRIZE_MAX_SOL: '0.001' },
      /^Invalid MAJOR_PRIZE_MAX_SOL: must be an amount of SOL of at least 0.01/,
    ],
    [{ MAJOR_PRIZE_MAX_SOL: '1e3' }, /^Invalid MAJOR_PRIZE_MAX_SOL/],
    [{ FEE_PAYER_MIN_SOL: '-1' }, /^Invalid FEE_PAYER_MIN_SOL: must be an amount of SOL, like 0.5/],
    [{ ESCROW_MASTER_SEED: 'zz' }, /^Invalid ESCROW_MASTER_SEED: must be 64 bytes as 128 hex characters$/],
    [
      { SOLANA_RPC_URL: 'https://api.devnet.solana.com' },
      /^Invalid ESCROW_MASTER_SEED: required with SOLANA_RPC_URL/,
    ],
    [
      {
        SOLANA_RPC_URL: 'https://api.devnet.solana.com',
        ESCROW_MASTER_SEED: SEED,
        ESCROW_PROGRAM_ID: PROGRAM_ID,
      },
      /^Invalid ESCROW_PROGRAM_V2_ID: required with SOLANA_RPC_URL/,
    ],
    [
      { SOLANA_RPC_URL: 'https://api.devnet.solana.com', ESCROW_MASTER_SEED: SEED },
      /^Invalid ESCROW_PROGRAM_V2_ID: required with SOLANA_RPC_URL/,
    ],
    [{ ...CLUSTER, JUDGE_WALLETS: '' }, /^Invalid JUDGE_WALLETS: required with SOLANA_RPC_URL/],
    [{ ...CLUSTER, GUARDIAN_WALLET: '' }, /^Invalid GUARDIAN_WALLET: required with SOLANA_RPC_URL/],
    [{ JUDGE_WALLETS: 'alice' }, /^Invalid JUDGE_WALLETS: alice is not a base58 address/],
    [{ JUDGE_WALLETS: `${JUDGE_A},${JUDGE_A}` }, /^Invalid JUDGE_WALLETS: a wallet is listed twice/],
    [
      { JUDGE_WALLETS: JUDGE_A, JUDGE_THRESHOLD: '2' },
      /^Invalid JUDGE_THRESHOLD: 2 judges must sign, but only 1 is named/,
    ],
    [{ JUDGE_WALLETS: JUDGE_A, MAJOR_JUDGE_THRESHOLD: '2' }, /^Invalid JUDGE_THRESHOLD: 2 judges must sign/],
    [{ MAJOR_JUDGE_THRESHOLD: '9' }, /^Invalid MAJOR_JUDGE_THRESHOLD: must be a whole number from 1 to 5/],
    [{ GUARDIAN_WALLET: 'vault' }, /^Invalid GUARDIAN_WALLET: must be a base58 address/],
    [{ PAYOUT_WINDOW_HOURS: '0.5' }, /^Invalid PAYOUT_WINDOW_HOURS: must be at least 1 hour/],
    [{ PAYOUT_WINDOW_HOURS: '200' }, /^Invalid PAYOUT_WINDOW_HOURS: must be at most 168 hours/],
  ])('stops on %j with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads judges, thresholds, the guardian and the payout window (24 h unless told otherwise)', () => {
    expect(loadConfig({}).judging).toEqual({
      judgeWallets: null,
      threshold: 1,
      majorThreshold: 1,
      guardianWallet: null,
      payoutWindowSeconds: 86_400n,
    });
    expect(
      loadConfig({
        JUDGE_WALLETS: ` ${JUDGE_A}, ${JUDGE_B} ,`,
        JUDGE_THRESHOLD: '1',
        MAJOR_JUDGE_THRESHOLD: '2',
        GUARDIAN_WALLET: GUARDIAN,
        PAYOUT_WINDOW_HOURS: '1.5',
      }).judging,
    ).toEqual({
      judgeWallets: [JUDGE_A, JUDGE_B],
      threshold: 1,
      majorThreshold: 2,
      guardianWallet: GUARDIAN,
      payoutWindowSeconds: 5400n,
    });
  });

  it('reads TRUST_PROXY as a hop count (true = 1) or proxy addresses, never "trust everything"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
    ]);
  });

  it('takes the SIWS site from PUBLIC_URL, without a default port', () => {
    expect(loadConfig({}).publicSite).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://darepool.example:443/' }).publicSite).toEqual({
      domain: 'darepool.example',
      origin: 'https://darepool.example',
    });
    expect(loadConfig({ PUBLIC_URL: 'http://darepool.test:8443' }).publicSite).toEqual({
      domain: 'darepool.test:8443',
      origin: 'http://darepool.test:8443',
    });
  });

  it('reads the Major Dare prize maximum, 100 SOL unless set', () => {
    expect(loadConfig({}).majorPrizeMaxSol).toBe('100');
    expect(loadConfig({ MAJOR_PRIZE_MAX_SOL: '250.5' }).majorPrizeMaxSol).toBe('250.5');
  });

  it('reads the fee payer warning threshold, 0.5 SOL unless set, in lamports', () => {
    expect(loadConfig({}).feePayerMinLamports).toBe(500_000_000n);
    expect(loadConfig({ FEE_PAYER_MIN_SOL: '2.25' }).feePayerMinLamports).toBe(2_250_000_000n);
  });

  it('never echoes a secret in its error', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:hunter2@x' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
    );
    expect(() => loadConfig({ DEMO_ADMIN_PASSWORD: 'hun2' })).toThrow(
      /^Invalid DEMO_ADMIN_PASSWORD: must be at least 6 characters$/,
    );
  });

  it('takes the demo admin password, unset when empty', () => {
    expect(loadConfig({ DEMO_ADMIN_PASSWORD: 'chosen-one' }).demoAdminPassword).toBe('chosen-one');
    expect(loadConfig({ DEMO_ADMIN_PASSWORD: '' }).demoAdminPassword).toBeUndefined();
  });
});
