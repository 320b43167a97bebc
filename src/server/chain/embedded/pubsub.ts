import { type Address, isAddress, lamports } from '@solana/kit';
import { stringifyJsonWithBigInts } from '@solana/rpc-spec-types';
import { SLOT_MS } from './chain-time';
import type { EmbeddedLedger, ExecutedTransaction } from './embedded-ledger';
import {
  configParam,
  errorResponse,
  invalidParams,
  JsonRpcError,
  type JsonRpcResponse,
  RPC_ERROR,
} from './json-rpc';
import { type AccountFilter, parseProgramAccountsConfig, selectAccounts } from './program-accounts';
import { type AccountLookup, existing, renderAccount } from './rpc-handler';

/** Bounds one client's memory here; real nodes cap subscriptions per connection too. */
export const MAX_SUBSCRIPTIONS_PER_CLIENT = 1_000;
/**
 * Slot and root subscriptions one connection may hold: each costs a message every slot, idle or
 * not, so a thousand per socket would be a stream nobody asked for. Clients hold one (kit and
 * web3.js share identical subscriptions).
 */
export const MAX_SLOT_SUBSCRIPTIONS_PER_CLIENT = 16;
/**
 * How often the chain is looked at for a new slot while anyone subscribes to slots or roots: a
 * quarter slot, so each slot is announced within 100 ms of its start. Nobody subscribed, no timer.
 */
const SLOT_WATCH_MS = SLOT_MS / 4;
/**
 * At most this many slots are announced at once: after a jump (a test's warp, or an event loop
 * held up for seconds) only the newest are, instead of a flood of slots nobody waited for.
 */
const MAX_SLOTS_PER_ANNOUNCEMENT = 64;
const SIGNATURE_PATTERN = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';

type Subscription =
  | { kind: 'signature'; id: number; client: Client; signature: string; received: boolean }
  | { kind: 'account'; id: number; client: Client; address: Address; config: Record<string, unknown> }
  | { kind: 'slot'; id: number; client: Client }
  | { kind: 'root'; id: number; client: Client }
  /** logsSubscribe: every transaction ('all'), or those whose accounts include `mentions`. */
  | { kind: 'logs'; id: number; client: Client; mentions: string | null }
  | {
      kind: 'program';
      id: number;
      client: Client;
      program: string;
      filters: AccountFilter[];
      config: Record<string, unknown>;
    };

interface Client {
  send(text: string): void;
  subscriptions: Set<number>;
}

export interface PubSubClient {
  /** One text frame from the socket; answers go out through `send`. */
  receive(text: string): void;
  /** The socket closed: drops its subscriptions. */
  close(): void;
}

export interface PubSub {
  connect(send: (text: string) => void): PubSubClient;
  /** Stops listening to the ledger and forgets every subscription. */
  close(): void;
}

/**
 * Solana's WebSocket PubSub for the embedded ledger: signatureSubscribe, accountSubscribe,
 * slotSubscribe, rootSubscribe, logsSubscribe and programSubscribe (and their Unsubscribe), in agave's wire format. Notifications are pushed by the
 * ledger as it executes a transaction, never polled, and sent once that change is on disk, so a
 * client told "processed" finds it after a crash — exactly like an RPC answer. Slots and roots
 * also follow the clock: while anyone listens, each slot is announced as time reaches it.
 */
export function createPubSub(ledger: EmbeddedLedger): PubSub {
  const byId = new Map<number, Subscription>();
  const bySignature = new Map<string, Set<Subscription & { kind: 'signature' }>>();
  const byAccount = new Map<string, Set<Subscription & { kind: 'account' }>>();
  const slotSubscriptions = new Set<Subscription & { kind: 'slot' }>();
  const rootSubscriptions = new Set<Subscription & { kind: 'root' }>();
  /** The newest slot announced to slot and root subscribers; each is announced once, in order. */
  let announcedSlot = ledger.currentSlot;
  let slotWatch: NodeJS.Timeout | null = null;
  const logsForAll = new Set<Subscription & { kind: 'logs' }>();
  const logsByMention = new Map<string, Set<Subscription & { kind: 'logs' }>>();
  const byProgram = new Map<string, Set<Subscription & { kind: 'program' }>>();
  let nextId = 0;
  const lookup: AccountLookup = (address) => existing(ledger.account(address));

  function index<K, S>(map: Map<K, Set<S>>, key: K, subscription: S): void {
    const set = map.get(key);
    if (set) set.add(subscription);
    else map.set(key, new Set([subscription]));
  }

  function unindex<K, S>(map: Map<K, Set<S>>, key: K, subscription: S): void {
    const set = map.get(key);
    set?.delete(subscription);
    if (set?.size === 0) map.delete(key);
  }

  function remove(subscription: Subscription): void {
    byId.delete(subscription.id);
    subscription.client.subscriptions.delete(subscription.id);
    if (subscription.kind === 'signature') unindex(bySignature, subscription.signature, subscription);
    else if (subscription.kind === 'account') unindex(byAccount, subscription.address, subscription);
    else if (subscription.kind === 'logs') {
      if (subscription.mentions === null) logsForAll.delete(subscription);
      else unindex(logsByMention, subscription.mentions, subscription);
    } else if (subscription.kind === 'program') unindex(byProgram, subscription.program, subscription);
    else if (subscription.kind === 'root') rootSubscriptions.delete(subscription);
    else slotSubscriptions.delete(subscription);
    if (slotSubscriptions.size === 0 && rootSubscriptions.size === 0 && slotWatch) {
      clearInterval(slotWatch);
      slotWatch = null;
    }
  }

  /**
   * Slot and root notifications for every slot after the last one announced, up to `slot`, as a
   * validator sends one per slot whether or not it holds a transaction (kit's confirmation counts
   * block height from them, so an idle chain must keep sending them).
   */
  function announceSlotsUpTo(slot: number): void {
    if (slot <= announcedSlot) return;
    const from = Math.max(announcedSlot + 1, slot - MAX_SLOTS_PER_ANNOUNCEMENT + 1);
    announcedSlot = slot;
    for (let at = from; at <= slot; at += 1) {
      const current = BigInt(at);
      for (const subscription of slotSubscriptions) {
        // Everything is final at once, so the newest slot is also the root.
        subscription.client.send(
          notification('slotNotification', subscription.id, {
            parent: current - 1n,
            root: current,
            slot: current,
          }),
        );
      }
      for (const subscription of rootSubscriptions) {
        subscription.client.send(notification('rootNotification', subscription.id, current));
      }
    }
  }

  /** Watches the clock for new slots while anyone listens to slots or roots. */
  function watchSlots(): void {
    if (slotWatch) return;
    announcedSlot = Math.max(announcedSlot, ledger.currentSlot);
    slotWatch = setInterval(() => {
      let slot: number;
      try {
        slot = ledger.currentSlot;
      } catch {
        return; // the chain is closing
      }
      if (slot <= announcedSlot) return;
      // After whatever is being saved now: a transaction's own notifications go out before its slot.
      ledger.whenSaved().then(
        () => announceSlotsUpTo(slot),
        () => {},
      );
    }, SLOT_WATCH_MS);
    slotWatch.unref();
  }

  function notification(method: string, subscription: number, result: unknown): string {
    return stringifyJsonWithBigInts({ jsonrpc: '2.0', method, params: { result, subscription } });
  }

  function onExecuted({ record, written }: ExecutedTransaction): void {
    const slot = BigInt(record.slot);
    const context = { slot };
    // Rendered now, at this transaction's state; delivered once it is saved.
    const outbox: [Client, string][] = [];
    for (const subscription of bySignature.get(record.signature) ?? []) {
      if (subscription.received) {
        outbox.push([
          subscription.client,
          notification('signatureNotification', subscription.id, { context, value: 'receivedSignature' }),
        ]);
      }
      outbox.push([
        subscription.client,
        notification('signatureNotification', subscription.id, { context, value: { err: record.err } }),
      ]);
      // agave ends a signature subscription with its one notification.
      remove(subscription);
    }
    for (const address of new Set(written)) {
      const subscriptions = byAccount.get(address);
      if (!subscriptions) continue;
      const account = ledger.account(address as Address);
      for (const subscription of subscriptions) {
        let value: unknown;
        try {
          value = account.exists
            ? renderAccount(account, subscription.config, lookup)
            : renderAccount(
                {
                  address: address as Address,
                  lamports: lamports(0n),
                  programAddress: SYSTEM_PROGRAM as Address,
                  executable: false,
                  data: new Uint8Array(),
                  space: 0n,
                },
                subscription.config,
                lookup,
              );
        } catch {
          continue; // base58 asked for an account too large for it: agave skips it too.
        }
        outbox.push([
          subscription.client,
          notification('accountNotification', subscription.id, { context, value }),
        ]);
      }
    }
    const logSubscribers = new Set(logsForAll);
    for (const key of new Set(record.accountKeys)) {
      for (const subscription of logsByMention.get(key) ?? []) logSubscribers.add(subscription);
    }
    for (const subscription of logSubscribers) {
      outbox.push([
        subscription.client,
        notification('logsNotification', subscription.id, {
          context,
          value: { signature: record.signature, err: record.err, logs: record.logMessages },
        }),
      ]);
    }
    if (byProgram.size > 0) {
      for (const address of new Set(written)) {
        const account = ledger.account(address as Address);
        // An account closed by the transaction belongs to no program any more: agave is silent too.
        const subscriptions = account.exists ? byProgram.get(account.programAddress) : undefined;
        if (!account.exists || !subscriptions) continue;
        for (const subscription of subscriptions) {
          if (selectAccounts([account], subscription.filters).length === 0) continue;
          let value: unknown;
          try {
            value = { pubkey: address, account: renderAccount(account, subscription.config, lookup) };
          } catch {
            continue;
          }
          outbox.push([
            subscription.client,
            notification('programNotification', subscription.id, { context, value }),
          ]);
        }
      }
    }
    const watchingSlots = slotSubscriptions.size > 0 || rootSubscriptions.size > 0;
    if (outbox.length === 0 && !watchingSlots) return;
    ledger.whenSaved().then(
      () => {
        for (const [client, text] of outbox) client.send(text);
        announceSlotsUpTo(record.slot);
      },
      // The chain refuses everything once a save fails; nothing it did not keep is announced.
      () => {},
    );
  }

  const detach = ledger.onExecuted(onExecuted);

  function subscribe(client: Client, method: string, params: readonly unknown[]): number {
    if (client.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CLIENT) {
      throw new JsonRpcError(
        RPC_ERROR.invalidParams,
        `Too many subscriptions: at most ${MAX_SUBSCRIPTIONS_PER_CLIENT} per connection`,
      );
    }
    const id = nextId++;
    let subscription: Subscription;
    switch (method) {
      case 'signatureSubscribe': {
        const signature = params[0];
        if (typeof signature !== 'string' || !SIGNATURE_PATTERN.test(signature)) {
          throw invalidParams(`Invalid signature: ${String(signature)}`);
        }
        const received = configParam(params, 1).enableReceivedNotification === true;
        subscription = { kind: 'signature', id, client, signature, received };
        index(bySignature, signature, subscription);
        break;
      }
      case 'accountSubscribe': {
        const address = params[0];
        if (typeof address !== 'string' || !isAddress(address)) {
          throw invalidParams(`Invalid address: ${String(address)}`);
        }
        const config = configParam(params, 1);
        const encoding = config.encoding;
        if (![undefined, 'base58', 'base64', 'jsonParsed'].includes(encoding as string | undefined)) {
          throw invalidParams(`unsupported encoding: ${String(encoding)}`);
        }
        subscription = { kind: 'account', id, client, address, config };
        index(byAccount, address, subscription);
        break;
      }
      case 'logsSubscribe': {
        const mentions = logsFilter(params[0]);
        subscription = { kind: 'logs', id, client, mentions };
        if (mentions === null) logsForAll.add(subscription);
        else index(logsByMention, mentions, subscription);
        break;
      }
      case 'programSubscribe': {
        const program = params[0];
        if (typeof program !== 'string' || !isAddress(program)) {
          throw invalidParams(`Invalid address: ${String(program)}`);
        }
        const config = configParam(params, 1);
        const { filters } = parseProgramAccountsConfig(config);
        subscription = { kind: 'program', id, client, program, filters, config };
        index(byProgram, program, subscription);
        break;
      }
      case 'rootSubscribe':
      case 'slotSubscribe': {
        const held = [...client.subscriptions].filter((held) => {
          const kind = byId.get(held)?.kind;
          return kind === 'slot' || kind === 'root';
        }).length;
        if (held >= MAX_SLOT_SUBSCRIPTIONS_PER_CLIENT) {
          throw invalidParams(
            `Too many slot and root subscriptions: at most ${MAX_SLOT_SUBSCRIPTIONS_PER_CLIENT} per connection`,
          );
        }
        if (method === 'slotSubscribe') {
          subscription = { kind: 'slot', id, client };
          slotSubscriptions.add(subscription);
        } else {
          subscription = { kind: 'root', id, client };
          rootSubscriptions.add(subscription);
        }
        watchSlots();
        break;
      }
      default:
        throw new JsonRpcError(RPC_ERROR.methodNotFound, 'Method not found');
    }
    byId.set(id, subscription);
    client.subscriptions.add(id);
    return id;
  }

  const subscribeMethods = new Set([
    'signatureSubscribe',
    'accountSubscribe',
    'slotSubscribe',
    'rootSubscribe',
    'logsSubscribe',
    'programSubscribe',
  ]);
  const unsubscribeMethods = new Map([
    ['signatureUnsubscribe', 'signature'],
    ['accountUnsubscribe', 'account'],
    ['slotUnsubscribe', 'slot'],
    ['rootUnsubscribe', 'root'],
    ['logsUnsubscribe', 'logs'],
    ['programUnsubscribe', 'program'],
  ]);

  function handle(client: Client, method: string, params: readonly unknown[]): unknown {
    if (subscribeMethods.has(method)) return subscribe(client, method, params);
    const kind = unsubscribeMethods.get(method);
    if (!kind) throw new JsonRpcError(RPC_ERROR.methodNotFound, 'Method not found');
    const subscription = byId.get(Number(params[0]));
    if (!subscription || subscription.client !== client || subscription.kind !== kind) {
      throw new JsonRpcError(RPC_ERROR.invalidParams, 'Invalid subscription id.');
    }
    remove(subscription);
    return true;
  }

  return {
    connect(send) {
      const client: Client = { send, subscriptions: new Set() };
      return {
        receive(text) {
          let request: Record<string, unknown>;
          try {
            request = JSON.parse(text) as Record<string, unknown>;
          } catch {
            send(JSON.stringify(errorResponse(null, new JsonRpcError(RPC_ERROR.parseError, 'Parse error'))));
            return;
          }
          // A message without an id (kit's keep-alive ping, for one) is a notification: no answer.
          if (typeof request !== 'object' || request === null || !('id' in request)) return;
          const id = request.id ?? null;
          let response: JsonRpcResponse;
          try {
            const params = request.params ?? [];
            if (request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
              throw new JsonRpcError(RPC_ERROR.invalidRequest, 'Invalid request');
            }
            if (!Array.isArray(params)) throw invalidParams('expected an array');
            response = { jsonrpc: '2.0', id, result: handle(client, request.method, params) };
          } catch (error) {
            if (!(error instanceof JsonRpcError)) throw error;
            response = errorResponse(id, error);
          }
          send(JSON.stringify(response));
        },
        close() {
          for (const id of client.subscriptions) {
            const subscription = byId.get(id);
            if (subscription) remove(subscription);
          }
        },
      };
    },
    close() {
      detach();
      for (const subscription of [...byId.values()]) remove(subscription);
      if (slotWatch) clearInterval(slotWatch);
      slotWatch = null;
    },
  };
}

/**
 * logsSubscribe's filter as agave takes it: "all", "allWithVotes" (the same here: no votes), or
 * `{ mentions: [address] }` with exactly one address. Null means every transaction.
 */
function logsFilter(filter: unknown): string | null {
  if (filter === 'all' || filter === 'allWithVotes') return null;
  const mentions = (filter as { mentions?: unknown } | null)?.mentions;
  if (Array.isArray(mentions)) {
    if (mentions.length !== 1) {
      throw invalidParams('Invalid Request: Only 1 address supported');
    }
    const [address] = mentions;
    if (typeof address === 'string' && isAddress(address)) return address;
    throw invalidParams(`Invalid pubkey provided: ${String(address)}`);
  }
  throw invalidParams('expected "all", "allWithVotes" or { "mentions": [address] }');
}
