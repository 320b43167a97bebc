import { isIP } from 'node:net';
import path from 'node:path';
import { type Address, address, isAddress } from '@solana/kit';
import { z } from 'zod';
import { CLUSTERS, type Cluster } from '#contract/config';
import {
  FEE_PAYER_MIN_SOL_DEFAULT,
  MAJOR_PRIZE_MAX_SOL_DEFAULT,
  MAJOR_PRIZE_MIN_SOL,
  PASSWORD_MIN,
} from '#contract/limits';
import { isSolAmount, solToLamports } from '#contract/money';
import { DEFAULT_PRIORITY_FEE_POLICY, type PriorityFeePolicy } from './chain/compute-budget';
import { RATE_LIMITS } from './rate-limits';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

export type TrustProxy = false | number | string[];

/** An IPv4/IPv6 address, optionally with a /prefix of the right size (proxy-addr's forms). */
function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d+$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** A comma-separated list of addresses (JUDGE_WALLETS); an entry that is not one is reported. */
function addressList(value: string): Address[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries)
    if (!isAddress(entry)) throw new ConfigError(`Invalid JUDGE_WALLETS: ${entry} is not a base58 address`);
  return entries as Address[];
}

/** The environment, validated once at start-up. Unset values fall back to the embedded defaults. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** A request whose answer took at least this long is logged (warn) even when it succeeded. */
  LOG_SLOW_REQUEST_MS: positiveInt(500),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  SOLANA_RPC_URL: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  ),
  SOLANA_CLUSTER: optionalText.pipe(z.enum(CLUSTERS).optional()),
  /** The provider's WebSocket (PubSub) when it is not beside SOLANA_RPC_URL (ws(s), the next port on a local validator). */
  SOLANA_WS_URL: optionalText.pipe(z.url({ protocol: /^wss?$/, error: 'must be a ws(s) URL' }).optional()),
  /** This instance's budget of requests per second to SOLANA_RPC_URL (providers bill and throttle per second). */
  SOLANA_RPC_MAX_RPS: positiveInt(50),
  /** The most a transaction pays per compute unit as priority fee (micro-lamports); 0: no priority fee. */
  PRIORITY_FEE_MAX_MICROLAMPORTS: z.coerce.number().int().min(0).max(1_000_000_000).default(1_000_000),
  /** Which percentile of the recent slots' prioritization fees a transaction pays (0 to 100). */
  PRIORITY_FEE_PERCENTILE: z.coerce.number().int().min(0).max(100).default(75),
  /**
   * Escrow program v1's id on SOLANA_RPC_URL's cluster, only where that cluster has v1 vaults (made
   * before v2); unset, the app runs v2 alone (decision 081). The embedded chain deploys its own.
   */
  ESCROW_PROGRAM_ID: optionalText,
  /**
   * The one key accepted as the escrow program's upgrade authority on a cluster (e.g. a multisig);
   * unset, the program must be immutable (deployed `--final`).
   */
  ESCROW_PROGRAM_UPGRADE_AUTHORITY: optionalText.pipe(
    z
      .string()
      .refine(isAddress, 'must be a base58 address (the key that may upgrade the escrow program)')
      .optional(),
  ),
  /** Escrow program v2's id on SOLANA_RPC_URL's cluster: every new dare's vault is one of v2. */
  ESCROW_PROGRAM_V2_ID: optionalText,
  /**
   * The wallets that name winners (program v2's judges), admins' own wallets, comma-separated
   * (1–5). Unset: ADMIN_WALLETS (and, on the embedded chain, the demo admin's wallet).
   */
  JUDGE_WALLETS: optionalText.transform((value) => (value === undefined ? undefined : addressList(value))),
  /** How many judges must sign a community dare's winner. */
  JUDGE_THRESHOLD: z.coerce.number().int().min(1).max(5).default(1),
  /** How many judges must sign a Major Dare's winners; unset: JUDGE_THRESHOLD. */
  MAJOR_JUDGE_THRESHOLD: optionalText.pipe(
    z
      .string()
      .regex(/^[1-5]$/, 'must be a whole number from 1 to 5')
      .transform(Number)
      .optional(),
  ),
  /**
   * The one wallet that may veto a named winner during the payout window; its key stays offline
   * (npm run guardian). Unset on the embedded chain: a key generated into DATA_DIR/chain.
   */
  GUARDIAN_WALLET: optionalText.pipe(
    z.string().refine(isAddress, 'must be a base58 address (the guardian wallet)').optional(),
  ),
  /** How long a named winner waits before anyone may pay it out, giving the guardian time to veto. */
  PAYOUT_WINDOW_HOURS: z.coerce
    .number()
    .finite()
    .min(1, 'must be at least 1 hour (the program refuses shorter windows)')
    .max(168, 'must be at most 168 hours (7 days, the program refuses longer windows)')
    .default(24),
  /** The embedded chain's JSON-RPC for wallets and tools; PubSub on the next port; 0 turns it off. */
  CHAIN_RPC_PORT: z.coerce.number().int().min(0).max(65534).default(8899),
  CHAIN_RPC_HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** Tests only: POST /api/dev/warp moves the embedded chain's clock. Refused with SOLANA_RPC_URL. */
  EMBEDDED_CHAIN_TEST_CONTROLS: z.enum(['0', '1']).default('0'),
  ESCROW_MASTER_SEED: optionalText.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F]{128}$/, 'must be 64 bytes as 128 hex characters')
      .optional(),
  ),
  ADMIN_WALLETS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((wallet) => wallet.trim())
        .filter(Boolean),
    ),
  SEED_DEMO_DATA: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /** The demo admin's password at the first start; unset, one is generated and logged once. */
  DEMO_ADMIN_PASSWORD: optionalText.pipe(
    z
      .string()
      .min(PASSWORD_MIN, `must be at least ${PASSWORD_MIN} characters`)
      .max(128, 'must be at most 128 characters')
      .optional(),
  ),
  /** The site's public origin (https://darepool.example): Sign-In With Solana is bound to it, never to the Host header. */
  PUBLIC_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://darepool.example' })
      .optional(),
  ),
  /**
   * Which proxies' X-Forwarded-For to believe: `false`, a hop count (`true` = 1, one load
   * balancer), or proxy addresses/CIDRs. Never "all": the leftmost value is the client's to choose.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((value, context): TrustProxy => {
      if (value === '' || value === 'false') return false;
      if (value === 'true') return 1;
      if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
      const proxies = value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      if (proxies.length > 0 && proxies.every(isAddressOrCidr)) return proxies;
      context.addIssue({
        code: 'custom',
        message:
          'must be false, true (1 hop), a number of hops, or proxy addresses/CIDRs separated by commas',
      });
      return z.NEVER;
    }),
  /** Rate-limit counters shared by every instance; unset: each process counts its own. */
  REDIS_URL: optionalText.pipe(
    z
      .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
      .refine((url) => new URL(url).hostname !== '', 'must name the host: redis://host:6379')
      .optional(),
  ),
  /** Put before every Redis key, so several deployments can share one Redis. */
  REDIS_KEY_PREFIX: z.string().trim().min(1).default('darepool:'),
  RATE_LIMIT_AUTH_PER_MINUTE: positiveInt(RATE_LIMITS.signInRequests.limit),
  RATE_LIMIT_FAILED_LOGINS: positiveInt(RATE_LIMITS.failedLogins.limit),
  RATE_LIMIT_FAILED_LOGIN_WINDOW_MINUTES: positiveInt(RATE_LIMITS.failedLogins.windowMs / 60_000),
  /**
   * Once an account's failures from every address fill its window, attempts from addresses it never
   * signed in from are allowed this many a minute over them all (decision 060).
   */
  RATE_LIMIT_FAILED_LOGIN_BACKOFF_PER_MINUTE: positiveInt(RATE_LIMITS.failedLoginBackoff.limit),
  /**
   * Chat sockets one address may open in a second (more wait two seconds for a 429, before any
   * upgrade): an address's sockets closed at once cannot all open again in one moment (decision 056).
   */
  RATE_LIMIT_CHAT_OPENS_PER_SECOND: positiveInt(RATE_LIMITS.chatOpensPerAddressPerSecond.limit),
  /** On SIGTERM/SIGINT, how long requests under way may take to finish before their connections are cut. */
  SHUTDOWN_TIMEOUT_SECONDS: positiveInt(25),
  /** How often chat sockets are pinged; one missed pong drops the socket. */
  CHAT_HEARTBEAT_MS: positiveInt(30_000),
  /** How often the refund and payout-recovery job runs (seconds; fractions allowed). */
  PAYOUT_JOB_INTERVAL_SECONDS: z.coerce.number().positive().finite().default(60),
  /** Email (issue 35): smtp:// or smtps:// URL of the mail server; unset: no email is sent. */
  SMTP_URL: optionalText.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: optionalText,
  /** Operators' and the guardian's webhooks: comma-separated http(s) URLs. */
  ALERT_WEBHOOK_URL: optionalText.pipe(
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine(
        (urls) => urls.every((url) => /^https?:\/\/\S+$/.test(url)),
        'must be http(s) URLs, comma-separated',
      )
      .optional(),
  ),
  ALERT_WEBHOOK_SECRET: optionalText,
  ALERT_WEBHOOK_FORMAT: z.enum(['json', 'slack', 'discord']).default('json'),
  NOTIFY_JOB_INTERVAL_SECONDS: z.coerce.number().positive().finite().default(5),
  /** The largest Major Dare prize an admin's wallet may pay in, in SOL. */
  MAJOR_PRIZE_MAX_SOL: z
    .string()
    .trim()
    .default(MAJOR_PRIZE_MAX_SOL_DEFAULT)
    .refine(
      (value) => isSolAmount(value) && solToLamports(value) >= solToLamports(MAJOR_PRIZE_MIN_SOL),
      `must be an amount of SOL of at least ${MAJOR_PRIZE_MIN_SOL}`,
    ),
  /**
   * Below this balance (SOL) the platform fee payer is reported low: `/api/health` says so and the
   * admin panel warns. It pays every payout's fees and the rent of new vaults and receipts.
   */
  FEE_PAYER_MIN_SOL: z
    .string()
    .trim()
    .default(FEE_PAYER_MIN_SOL_DEFAULT)
    .refine(isSolAmount, 'must be an amount of SOL, like 0.5'),
  /** The whole body of an upload must arrive within this; a stalled one is cut off and deleted. */
  UPLOAD_BODY_TIMEOUT_SECONDS: positiveInt(300),
  /** Disk all stored videos may take together (GB of 1024³ bytes; fractions allowed). */
  VIDEO_STORAGE_MAX_GB: z.coerce.number().positive().finite().default(5),
  VIDEO_PENDING_POOL_GB: z.coerce.number().positive().finite().default(0.5),
  /**
   * Stored videos not approved (waiting for their submit, pending review, rejected) one account, and
   * one client address over all its accounts, may hold (MB of 1024² bytes; decision 061).
   */
  VIDEO_UNAPPROVED_PER_ACCOUNT_MB: z.coerce.number().positive().finite().default(50),
  VIDEO_UNAPPROVED_PER_ADDRESS_MB: z.coerce.number().positive().finite().default(200),
  /** Where videos live: `local` (DATA_DIR/videos) or `s3` (an S3-compatible bucket, S3_*). */
  VIDEO_STORAGE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: optionalText.pipe(
    z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
        'must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens',
      )
      .optional(),
  ),
  /** R2, MinIO, or any S3-compatible service; unset: AWS S3 in S3_REGION. */
  S3_ENDPOINT: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://s3.example' }).optional(),
  ),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** Unset: path-style (`endpoint/bucket/key`) with S3_ENDPOINT, as MinIO needs; virtual-hosted on AWS. */
  S3_FORCE_PATH_STYLE: optionalText.pipe(z.enum(['true', 'false']).optional()),
  /** A folder inside the bucket for DarePool's videos, so the bucket can hold other things. */
  S3_PREFIX: optionalText.pipe(
    z
      .string()
      .regex(
        /^[A-Za-z0-9!_.*'()/-]+$/,
        "must use only letters, digits, slashes and !-_.*'() (a folder such as darepool/videos)",
      )
      .refine((value) => !value.split('/').includes('..'), 'must not contain ..')
      .optional(),
  ),
});

const SECRET_VARIABLES = new Set([
  'ESCROW_MASTER_SEED',
  'DATABASE_URL',
  'DEMO_ADMIN_PASSWORD',
  'S3_SECRET_ACCESS_KEY',
  'REDIS_URL',
]);

/** An S3-compatible bucket (AWS S3, Cloudflare R2, MinIO) holding the videos. */
export interface S3Settings {
  bucket: string;
  /** '' or a folder ending in '/': every key DarePool writes starts with it. */
  prefix: string;
  region: string;
  /** Unset: AWS S3 in `region`. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  logLevel: string;
  /** Successful fast requests are not logged (but at debug); slower ones are, at warn. */
  slowRequestMs: number;
  dataDir: string;
  database: { embedded: true; dataDir: string } | { embedded: false; url: string };
  /** The compute-unit price of every transaction built (PRIORITY_FEE_*; decision 068). */
  priorityFees: PriorityFeePolicy;
  chain:
    | {
        embedded: true;
        cluster: Cluster;
        stateDir: string;
        /** Where the chain serves JSON-RPC (PubSub on port + 1); null: not served. */
        rpcServer: { host: string; port: number } | null;
        /** EMBEDDED_CHAIN_TEST_CONTROLS=1: tests may move the chain's clock (POST /api/dev/warp). */
        testControls: boolean;
      }
    | {
        embedded: false;
        cluster: Cluster;
        rpcUrl: string;
        /** SOLANA_WS_URL, else null: beside rpcUrl. */
        wsUrl: string | null;
        /** SOLANA_RPC_MAX_RPS. */
        maxRequestsPerSecond: number;
        /** ESCROW_PROGRAM_ID: escrow program v1's id, only where the cluster has v1 vaults (decision 081). */
        escrowProgramId: string | null;
        /** Escrow program v2's id (new vaults). */
        escrowProgramV2Id: string;
        /** The upgrade authority the operator accepts; null: the program must be immutable. */
        acceptedUpgradeAuthority: Address | null;
      };
  storage: {
    /** Where videos live on this machine's disk, unless `s3` is set. */
    videoDir: string;
    /** `DATA_DIR/tmp`: where an upload to S3 waits, on disk, while it arrives. */
    tmpDir: string;
    /** Past this many bytes of videos, uploads are refused (507). */
    maxBytes: number;
    /**
     * The part of `maxBytes` uploads no submission took yet may use together; past it the oldest
     * waiting upload past its submit window is deleted to make room (decisions 028, 061). At most `maxBytes`.
     */
    pendingPoolBytes: number;
    /** Bytes of unapproved videos one account may hold (VIDEO_UNAPPROVED_PER_ACCOUNT_MB). */
    unapprovedPerAccountBytes: number;
    /** Bytes of unapproved videos one client address may hold over its accounts (VIDEO_UNAPPROVED_PER_ADDRESS_MB). */
    unapprovedPerAddressBytes: number;
    /** VIDEO_STORAGE=s3: the bucket that holds the videos instead of `videoDir`. */
    s3: S3Settings | null;
  };
  uploadBodyTimeoutMs: number;
  escrowMasterSeedHex: string | undefined;
  adminWallets: string[];
  seedDemoData: boolean;
  demoAdminPassword: string | undefined;
  /** Where browsers reach the site; null: only loopback addresses on `port` (a local start). */
  publicSite: { domain: string; origin: string } | null;
  /** Fastify's trustProxy: false, a hop count, or the trusted proxies' addresses/CIDRs. */
  trustProxy: TrustProxy;
  rateLimits: {
    authPerMinute: number;
    failedLogins: number;
    failedLoginWindowMs: number;
    failedLoginBackoffPerMinute: number;
    chatOpensPerSecond: number;
    /** REDIS_URL: counters shared by every instance; null: each process counts its own. */
    redis: { url: string; keyPrefix: string } | null;
  };
  chatHeartbeatMs: number;
  /** How often the refund and payout-recovery job runs (once per deployment, under its lock). */
  payoutJobIntervalMs: number;
  /** Notifications' ways out (docs/decisions/074-notifications.md). */
  notifications: {
    /** SMTP_URL; null: no email (PUT /api/profile/email answers 503). */
    smtpUrl: string | null;
    mailFrom: string;
    webhookUrls: string[];
    webhookSecret: string | null;
    webhookFormat: 'json' | 'slack' | 'discord';
    jobIntervalMs: number;
  };
  /** How long a shutdown lets requests under way finish (then their connections are cut). */
  shutdownTimeoutMs: number;
  /** SOL, a decimal string. */
  majorPrizeMaxSol: string;
  /** FEE_PAYER_MIN_SOL in lamports: below it the fee payer is reported low (health, admin panel). */
  feePayerMinLamports: bigint;
  /**
   * Who names winners of new vaults and who may veto (program v2). `judgeWallets`/`guardianWallet`
   * null: the embedded chain's defaults, resolved at start (src/server/chain/judging-keys.ts).
   */
  judging: {
    judgeWallets: Address[] | null;
    threshold: number;
    majorThreshold: number;
    guardianWallet: Address | null;
    payoutWindowSeconds: bigint;
  };
}

export class ConfigError extends Error {}

/** Guesses the cluster from well-known RPC hosts so SOLANA_CLUSTER is only needed for custom endpoints. */
function clusterFromUrl(url: string): Cluster {
  if (/devnet/.test(url)) return 'devnet';
  if (/testnet/.test(url)) return 'testnet';
  if (/mainnet/.test(url)) return 'mainnet-beta';
  return 'localnet';
}

/** SIWS's domain is the host with any non-default port, as `window.location.host` shows it. */
function siteOf(url: URL): { domain: string; origin: string } {
  return { domain: url.host, origin: url.origin };
}

function s3Settings(env: z.output<typeof envSchema>): S3Settings {
  const required = (name: 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY') => {
    const value = env[name];
    if (!value) throw new ConfigError(`Invalid ${name}: required with VIDEO_STORAGE=s3`);
    return value;
  };
  const folder = env.S3_PREFIX?.replace(/^\/+|\/+$/g, '') ?? '';
  return {
    bucket: required('S3_BUCKET'),
    prefix: folder === '' ? '' : `${folder}/`,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE
      ? env.S3_FORCE_PATH_STYLE === 'true'
      : env.S3_ENDPOINT !== undefined,
    credentials: {
      accessKeyId: required('S3_ACCESS_KEY_ID'),
      secretAccessKey: required('S3_SECRET_ACCESS_KEY'),
    },
  };
}

export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    // Secrets (a seed, a URL with a password) must never reach a log, so only harmless values are echoed.
    const shown = SECRET_VARIABLES.has(name) ? '' : ` (got ${JSON.stringify(source[name] ?? '')})`;
    throw new ConfigError(`Invalid ${name}: ${issue.message}${shown}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  if (env.SOLANA_CLUSTER && !env.SOLANA_RPC_URL && env.SOLANA_CLUSTER !== 'localnet') {
    throw new ConfigError(`Invalid SOLANA_CLUSTER: ${env.SOLANA_CLUSTER} needs SOLANA_RPC_URL`);
  }
  const s3 = env.VIDEO_STORAGE === 's3' ? s3Settings(env) : null;
  if (env.SOLANA_RPC_URL && env.EMBEDDED_CHAIN_TEST_CONTROLS === '1') {
    throw new ConfigError(
      'Invalid EMBEDDED_CHAIN_TEST_CONTROLS: only the embedded chain has test controls; unset it with SOLANA_RPC_URL',
    );
  }
  if (env.SOLANA_RPC_URL && !env.ESCROW_MASTER_SEED) {
    throw new ConfigError(
      'Invalid ESCROW_MASTER_SEED: required with SOLANA_RPC_URL (64 bytes as 128 hex characters, kept in a secret store)',
    );
  }
  if (env.SOLANA_RPC_URL && !env.ESCROW_PROGRAM_V2_ID) {
    throw new ConfigError(
      'Invalid ESCROW_PROGRAM_V2_ID: required with SOLANA_RPC_URL (escrow program v2 deployed on that cluster: npm run program:deploy -- --v2, docs/program.md)',
    );
  }
  if (env.SOLANA_RPC_URL && !env.JUDGE_WALLETS) {
    throw new ConfigError(
      "Invalid JUDGE_WALLETS: required with SOLANA_RPC_URL (the admins' own wallets that name winners, comma-separated; docs/operations.md#keys)",
    );
  }
  if (env.SOLANA_RPC_URL && !env.GUARDIAN_WALLET) {
    throw new ConfigError(
      'Invalid GUARDIAN_WALLET: required with SOLANA_RPC_URL (the wallet, kept offline, that may veto a payout; docs/operations.md#keys)',
    );
  }
  const judgeWallets = env.JUDGE_WALLETS ?? (env.SOLANA_RPC_URL ? undefined : null);
  const majorThreshold = env.MAJOR_JUDGE_THRESHOLD ?? env.JUDGE_THRESHOLD;
  if (judgeWallets) checkJudges(judgeWallets, Math.max(env.JUDGE_THRESHOLD, majorThreshold));
  if (env.ESCROW_PROGRAM_UPGRADE_AUTHORITY && !env.SOLANA_RPC_URL) {
    throw new ConfigError(
      'Invalid ESCROW_PROGRAM_UPGRADE_AUTHORITY: only with SOLANA_RPC_URL (the embedded chain deploys and upgrades its own program)',
    );
  }
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    logLevel: env.LOG_LEVEL,
    slowRequestMs: env.LOG_SLOW_REQUEST_MS,
    dataDir,
    database: env.DATABASE_URL
      ? { embedded: false, url: env.DATABASE_URL }
      : { embedded: true, dataDir: path.join(dataDir, 'pglite') },
    priorityFees: {
      percentile: env.PRIORITY_FEE_PERCENTILE,
      maxMicroLamports: BigInt(env.PRIORITY_FEE_MAX_MICROLAMPORTS),
      cacheMs: DEFAULT_PRIORITY_FEE_POLICY.cacheMs,
    },
    chain: env.SOLANA_RPC_URL
      ? {
          embedded: false,
          rpcUrl: env.SOLANA_RPC_URL,
          wsUrl: env.SOLANA_WS_URL ?? null,
          maxRequestsPerSecond: env.SOLANA_RPC_MAX_RPS,
          cluster: env.SOLANA_CLUSTER ?? clusterFromUrl(env.SOLANA_RPC_URL),
          escrowProgramId: env.ESCROW_PROGRAM_ID ?? null,
          escrowProgramV2Id: env.ESCROW_PROGRAM_V2_ID!,
          acceptedUpgradeAuthority: env.ESCROW_PROGRAM_UPGRADE_AUTHORITY
            ? address(env.ESCROW_PROGRAM_UPGRADE_AUTHORITY)
            : null,
        }
      : {
          embedded: true,
          cluster: 'localnet',
          stateDir: path.join(dataDir, 'chain'),
          rpcServer: env.CHAIN_RPC_PORT === 0 ? null : { host: env.CHAIN_RPC_HOST, port: env.CHAIN_RPC_PORT },
          testControls: env.EMBEDDED_CHAIN_TEST_CONTROLS === '1',
        },
    storage: {
      videoDir: path.join(dataDir, 'videos'),
      tmpDir: path.join(dataDir, 'tmp'),
      maxBytes: Math.floor(env.VIDEO_STORAGE_MAX_GB * 1024 ** 3),
      pendingPoolBytes: Math.floor(Math.min(env.VIDEO_PENDING_POOL_GB, env.VIDEO_STORAGE_MAX_GB) * 1024 ** 3),
      unapprovedPerAccountBytes: Math.floor(env.VIDEO_UNAPPROVED_PER_ACCOUNT_MB * 1024 ** 2),
      unapprovedPerAddressBytes: Math.floor(env.VIDEO_UNAPPROVED_PER_ADDRESS_MB * 1024 ** 2),
      s3,
    },
    uploadBodyTimeoutMs: env.UPLOAD_BODY_TIMEOUT_SECONDS * 1000,
    escrowMasterSeedHex: env.ESCROW_MASTER_SEED,
    adminWallets: env.ADMIN_WALLETS,
    seedDemoData: env.SEED_DEMO_DATA,
    demoAdminPassword: env.DEMO_ADMIN_PASSWORD,
    publicSite: env.PUBLIC_URL ? siteOf(new URL(env.PUBLIC_URL)) : null,
    trustProxy: env.TRUST_PROXY,
    rateLimits: {
      authPerMinute: env.RATE_LIMIT_AUTH_PER_MINUTE,
      failedLogins: env.RATE_LIMIT_FAILED_LOGINS,
      failedLoginWindowMs: env.RATE_LIMIT_FAILED_LOGIN_WINDOW_MINUTES * 60_000,
      failedLoginBackoffPerMinute: env.RATE_LIMIT_FAILED_LOGIN_BACKOFF_PER_MINUTE,
      chatOpensPerSecond: env.RATE_LIMIT_CHAT_OPENS_PER_SECOND,
      redis: env.REDIS_URL ? { url: env.REDIS_URL, keyPrefix: env.REDIS_KEY_PREFIX } : null,
    },
    chatHeartbeatMs: env.CHAT_HEARTBEAT_MS,
    payoutJobIntervalMs: Math.max(1, Math.round(env.PAYOUT_JOB_INTERVAL_SECONDS * 1000)),
    notifications: {
      smtpUrl: env.SMTP_URL ?? null,
      mailFrom:
        env.MAIL_FROM ??
        `DarePool <notifications@${env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : 'localhost'}>`,
      webhookUrls: env.ALERT_WEBHOOK_URL ?? [],
      webhookSecret: env.ALERT_WEBHOOK_SECRET ?? null,
      webhookFormat: env.ALERT_WEBHOOK_FORMAT,
      jobIntervalMs: Math.max(1, Math.round(env.NOTIFY_JOB_INTERVAL_SECONDS * 1000)),
    },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    majorPrizeMaxSol: env.MAJOR_PRIZE_MAX_SOL,
    feePayerMinLamports: solToLamports(env.FEE_PAYER_MIN_SOL),
    judging: {
      judgeWallets: judgeWallets ?? null,
      threshold: env.JUDGE_THRESHOLD,
      majorThreshold,
      guardianWallet: env.GUARDIAN_WALLET ? address(env.GUARDIAN_WALLET) : null,
      payoutWindowSeconds: BigInt(Math.round(env.PAYOUT_WINDOW_HOURS * 3600)),
    },
  };
}

/** The program takes 1–5 distinct judges and a threshold no larger than their number. */
export function checkJudges(judges: readonly string[], threshold: number): void {
  if (judges.length === 0 || judges.length > 5)
    throw new ConfigError(`Invalid JUDGE_WALLETS: give 1 to 5 wallets (got ${judges.length})`);
  if (new Set(judges).size !== judges.length)
    throw new ConfigError('Invalid JUDGE_WALLETS: a wallet is listed twice');
  if (threshold > judges.length)
    throw new ConfigError(
      `Invalid JUDGE_THRESHOLD: ${threshold} judges must sign, but only ${judges.length} ${judges.length === 1 ? 'is' : 'are'} named (JUDGE_WALLETS)`,
    );
}

/** Reads `.env` when present (real environment variables win), so `npm start` needs no setup. */
export function loadDotEnv(file = '.env'): void {
  try {
    process.loadEnvFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
