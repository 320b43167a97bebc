import { z } from 'zod';

export const solAmountSchema = z.string().meta({ description: 'SOL as a decimal string, e.g. "0.25"' });

/** A user as any API answer shows it: never a password hash or any other secret. */
export const publicUserSchema = z
  .object({
    id: z.number().int(),
    username: z.string(),
    walletAddress: z.string().nullable(),
    isAdmin: z.boolean(),
    totalEarnings: solAmountSchema,
    dareWins: z.number().int(),
    reputation: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'User' });

export type PublicUser = z.infer<typeof publicUserSchema>;
