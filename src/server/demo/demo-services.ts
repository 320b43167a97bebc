import type { AppDeps } from '#server/deps';
import type { Announce } from '#server/features/chat/announce';
import { createLocalChatBus } from '#server/features/chat/bus';
import { createChatService } from '#server/features/chat/service';
import { MemoryRateLimiter } from '#server/rate-limit/memory';
import { createServices } from '#server/services';

/**
 * The services the API runs (services.ts), with the demo's own limiter and chat: no socket is
 * connected during the seed, so the chat has nobody to deliver to.
 */
export function demoServices(deps: AppDeps) {
  const limiter = new MemoryRateLimiter(() => deps.clock().getTime());
  const chat = createChatService({
    db: deps.database.db,
    bus: createLocalChatBus(),
    clock: deps.clock,
    limiter,
  });
  // Announcements are fire-and-forget in the services; the seed keeps them to wait for them.
  const announced: Promise<unknown>[] = [];
  const announce: Announce = (dareId, message) => {
    announced.push(chat.postSystemMessage(dareId, message));
  };
  const services = { ...createServices({ ...deps, limiter, announce }), chat };
  return {
    services,
    /** Waits until every announcement is posted: one first looks up a username, then posts. */
    async settled() {
      for (let seen = -1; seen !== announced.length; ) {
        seen = announced.length;
        await Promise.all(announced);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

export type DemoServices = ReturnType<typeof demoServices>['services'];
