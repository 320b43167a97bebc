import { afterAll, beforeAll } from 'vitest';
import { createTestContext, type TestContext, type TestContextOptions } from './app';
import { demoJudgeKey, walletOfKey } from './judging';
import { type Actor, api, newActor } from './payouts';

/** A wallet user the file's tests act as: registered, funded with `sol` (default 10), maybe an admin. */
export interface ActorSpec {
  /** Defaults to the actor's key. */
  username?: string;
  sol?: string;
  /**
   * An admin. The file's first admin signs in with the demo admin's wallet, the key every new
   * vault names as its judge in tests (program v2: only a judge's own wallet names a winner).
   */
  admin?: boolean;
  /** `false`: an admin who is no judge, even as the file's first admin (the 403 of a non-judge). */
  judge?: boolean;
}

/** A value, or what computes it once the suite starts (e.g. a wallet made for `ADMIN_WALLETS`). */
type WhenStarting<T> = T | (() => T | Promise<T>);

export interface ApiSuiteOptions<Name extends string> {
  env?: WhenStarting<Record<string, string>>;
  context?: WhenStarting<TestContextOptions>;
  /** Registered one after another, in this order, before the file's first test. */
  actors?: Record<Name, ActorSpec>;
}

export interface ApiSuite<Name extends string> {
  ctx: TestContext;
  /** `api(ctx)`: HTTP calls on the file's app, with an optional bearer token. */
  http: ReturnType<typeof api>;
  actors: Record<Name, Actor>;
}

const resolve = <T>(value: WhenStarting<T>): T | Promise<T> =>
  typeof value === 'function' ? (value as () => T | Promise<T>)() : value;

/**
 * The usual shape of an API test file: one app for the file (fresh database, fresh embedded chain),
 * the users its tests act as, and after the file the app closed with its money reconciled
 * (`TestContext.close`). Call it once at the top of the file; what it returns is usable inside
 * tests and hooks, which run after the suite's own `beforeAll`.
 */
export function setupApiSuite<const Name extends string = never>(
  options: ApiSuiteOptions<Name> = {},
): ApiSuite<Name> {
  let context: TestContext | undefined;
  const registered = new Map<string, Actor>();

  beforeAll(async () => {
    context = await createTestContext(await resolve(options.env ?? {}), await resolve(options.context ?? {}));
    let judgeTaken = false;
    for (const [name, spec] of Object.entries<ActorSpec>(options.actors ?? ({} as Record<Name, ActorSpec>))) {
      const judge = spec.admin && spec.judge !== false && !judgeTaken;
      if (judge) judgeTaken = true;
      const wallet = judge ? walletOfKey(await demoJudgeKey(context)) : undefined;
      registered.set(name, await newActor(context, spec.username ?? name, { ...spec, wallet }));
    }
  });
  afterAll(async () => {
    await context?.close();
  });

  const started = (): TestContext => {
    if (!context) throw new Error('setupApiSuite(): the app is not up yet (use it inside a test or hook)');
    return context;
  };
  // Forwards to the context of the moment, so `restart()` (a new app, maybe a new chain) shows through.
  const ctx: TestContext = {
    get app() {
      return started().app;
    },
    get database() {
      return started().database;
    },
    get chain() {
      return started().chain;
    },
    get escrowKeys() {
      return started().escrowKeys;
    },
    get escrowProgramId() {
      return started().escrowProgramId;
    },
    get escrowProgramV2Id() {
      return started().escrowProgramV2Id;
    },
    get judging() {
      return started().judging;
    },
    get config() {
      return started().config;
    },
    get dataDir() {
      return started().dataDir;
    },
    get clock() {
      return started().clock;
    },
    restart: (whileStopped) => started().restart(whileStopped),
    close: () => started().close(),
  };

  const actorNamed = (name: string): Actor => {
    const actor = (): Actor => {
      const found = registered.get(name);
      if (!found)
        throw new Error(`setupApiSuite(): '${name}' is not registered yet (use it inside a test or hook)`);
      return found;
    };
    return {
      get wallet() {
        return actor().wallet;
      },
      get token() {
        return actor().token;
      },
      get id() {
        return actor().id;
      },
      get username() {
        return actor().username;
      },
    };
  };
  const actors = Object.fromEntries(
    Object.keys(options.actors ?? {}).map((name) => [name, actorNamed(name)]),
  ) as Record<Name, Actor>;

  return { ctx, http: api(ctx), actors };
}
