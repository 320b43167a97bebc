import { z } from 'zod';
import { CHAT_LIMITS, CHAT_MESSAGES } from './chat-limits';
import { idField, idParam } from './ids';
import type { NotificationFrame } from './notifications';

export { CHAT_LIMITS, CHAT_MESSAGES, SYSTEM_SENDER } from './chat-limits';

export const chatMessageSchema = z
  .object({
    id: z.number().int(),
    dareId: z.number().int().nullable(),
    userId: z.number().int().nullable(),
    username: z.string(),
    message: z.string(),
    messageType: z.enum(['user', 'system']),
    createdAt: z.string(),
  })
  .meta({ id: 'ChatMessage' });
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatHistoryQuerySchema = z.object({
  dareId: idParam().optional(),
  /** Only messages with a smaller id: the page before the oldest one shown. */
  before: idParam().optional(),
});
export const chatHistoryResponseSchema = z.array(chatMessageSchema).meta({ id: 'ChatHistory' });

/**
 * The text a user may send: trimmed, 1 to 500 characters, without NUL (a PostgreSQL text cannot hold
 * one: refused here, before anything is stored or counted).
 */
export const chatTextSchema = z
  .string()
  .refine((text) => !text.includes('\u0000'), CHAT_MESSAGES.nulCharacter)
  .trim()
  .min(1, CHAT_MESSAGES.empty)
  .max(CHAT_LIMITS.messageMax, CHAT_MESSAGES.tooLong);

const dareIdField = idField.nullable().optional();

/** Client → server frames. The first client's `userId`/`username` may be sent (docs/product.md#chat-socket); they are ignored. */
export const clientFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().optional() }),
  z.object({ type: z.literal('chat_message'), message: z.string(), dareId: dareIdField }),
  z.object({ type: z.literal('join'), dareId: idField }),
  z.object({ type: z.literal('leave'), dareId: idField }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

/** Server → client frames. */
export type ServerFrame =
  | { type: 'chat_message'; message: ChatMessage }
  | { type: 'error'; error: string }
  | { type: 'presence'; dareId: number | null; online: number }
  | { type: 'auth'; ok: boolean; username?: string }
  /** A new notification of the socket's signed-in user (issue 35). */
  | NotificationFrame;
