import { z } from 'zod';

/** A wallet-signed transaction in base64 wire format (at most one packet). */
export const signedTransactionSchema = (message: string) =>
  z
    .string({ error: message })
    .min(1, message)
    .max(2048, message)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, message);
