import type { ChatMessage } from '#contract/chat';
import { createLocalBus, type InstanceBus } from '#server/instance-bus';

/**
 * What instances tell each other: a stored message, how many sockets one has in each room, or
 * that a session was logged out (its sockets, wherever they are, stop speaking for it).
 */
export type ChatEvent =
  | { kind: 'message'; message: ChatMessage }
  | { kind: 'presence'; instance: string; rooms: Record<string, number> }
  | { kind: 'session-ended'; tokenHash: string };

/** Chat events to and from every server instance, this one included (instance-bus.ts). */
export interface ChatBus {
  publish(event: ChatEvent): Promise<void>;
  subscribe(handler: (event: ChatEvent) => void): void;
}

const CHANNEL = 'darepool_chat';

/** The chat's channel of the instances' bus. */
export function chatBusOn(bus: InstanceBus): ChatBus {
  return {
    publish: (event) => bus.publish(CHANNEL, event),
    subscribe(handler) {
      // Only instances of this app publish on the channel, so its payloads are chat events.
      bus.subscribe(CHANNEL, (payload) => handler(payload as ChatEvent));
    },
  };
}

/** A chat bus reaching only this process (the demo seed's activity). */
export function createLocalChatBus(): ChatBus {
  return chatBusOn(createLocalBus());
}
