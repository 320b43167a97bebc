import { z } from 'zod';
import { PASSWORD_MIN, USERNAME_MIN } from './limits';
import { text } from './text';
import { publicUserSchema } from './users';

export const AUTH_MESSAGES = {
  usernameMin: `Username must be at least ${USERNAME_MIN} characters`,
  usernameMax: 'Username must be at most 32 characters',
  usernameChars: 'Username may only contain letters, numbers, dots, dashes and underscores',
  passwordMin: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordMax: 'Password must be at most 128 characters',
  passwordsDiffer: 'Passwords do not match',
  invalidCredentials: 'Invalid credentials',
  walletNotRegistered: 'Wallet not registered',
  usernameTaken: 'Username already taken',
  walletTaken: 'Wallet already registered',
  registrationDisabled: 'Registration is currently disabled',
  invalidWallet: 'Invalid wallet address',
  signInHostRefused:
    "Wallet sign-in is only offered on this server's own address (localhost). To sign in at another address, the operator sets PUBLIC_URL to the site's address.",
} as const;

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** How many bytes a base58 string decodes to (each leading '1' is a zero byte); null if not base58. */
export function base58ByteLength(text: string): number | null {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) return null;
    value = value * 58n + BigInt(digit);
  }
  let bytes = 0;
  while (text[bytes] === '1') bytes += 1;
  for (; value > 0n; value >>= 8n) bytes += 1;
  return bytes;
}

/**
 * A Solana address: base58 of exactly 32 bytes. The shape alone (32..44 characters) also lets
 * through strings like "2"×32, which decode to fewer bytes and make the chain client throw.
 */
export const walletAddressSchema = z
  .string({ error: AUTH_MESSAGES.invalidWallet })
  .trim()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, AUTH_MESSAGES.invalidWallet)
  .refine((text) => base58ByteLength(text) === 32, AUTH_MESSAGES.invalidWallet);

export const usernameSchema = text({ error: AUTH_MESSAGES.usernameMin })
  .trim()
  .min(USERNAME_MIN, AUTH_MESSAGES.usernameMin)
  .max(32, AUTH_MESSAGES.usernameMax)
  .regex(/^[A-Za-z0-9_.-]+$/, AUTH_MESSAGES.usernameChars);

export const passwordSchema = text({ error: AUTH_MESSAGES.passwordMin })
  .min(PASSWORD_MIN, AUTH_MESSAGES.passwordMin)
  .max(128, AUTH_MESSAGES.passwordMax);

/** The registration dialog's rules (docs/product.md#registration-rules), shared by the form and the server. */
export const registrationFormSchema = z
  .object({
    username: usernameSchema,
    password: passwordSchema,
    confirmPassword: passwordSchema,
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: AUTH_MESSAGES.passwordsDiffer,
    path: ['confirmPassword'],
  });

const base64 = z
  .string()
  .max(8192)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Must be base64');

export const challengeRequestSchema = z
  .object({ walletAddress: walletAddressSchema })
  .meta({ id: 'ChallengeRequest' });
export type ChallengeRequest = z.infer<typeof challengeRequestSchema>;

/** The SIWS input the server issued (Wallet Standard `solana:signIn` input). */
export const signInInputSchema = z
  .object({
    domain: z.string(),
    address: z.string(),
    statement: z.string(),
    uri: z.string(),
    version: z.literal('1'),
    chainId: z.string(),
    nonce: z.string(),
    issuedAt: z.string(),
    expirationTime: z.string(),
  })
  .meta({ id: 'SignInInput' });

export type SignInInput = z.infer<typeof signInInputSchema>;

export const challengeResponseSchema = z
  .object({ input: signInInputSchema, message: z.string() })
  .meta({ id: 'ChallengeResponse' });

export const walletLoginRequestSchema = z
  .object({
    walletAddress: walletAddressSchema,
    signedMessage: base64.optional(),
    signature: base64.optional(),
  })
  .meta({ id: 'WalletLoginRequest' });
export type WalletLoginRequest = z.infer<typeof walletLoginRequestSchema>;

export const registerRequestSchema = z
  .object({
    username: usernameSchema,
    password: passwordSchema,
    walletAddress: walletAddressSchema,
    registrationToken: z.string().min(1).max(200),
  })
  .meta({ id: 'RegisterRequest' });
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const loginRequestSchema = z
  .object({
    // Any shape of wrong input is simply a failed login: never hint which part was wrong.
    username: text().max(200),
    password: text().max(1024),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const authResponseSchema = z
  .object({ user: publicUserSchema, token: z.string() })
  .meta({ id: 'AuthResponse' });
export const meResponseSchema = z.object({ user: publicUserSchema }).meta({ id: 'MeResponse' });
export const walletNotRegisteredSchema = z
  .object({ error: z.string(), code: z.literal('WALLET_NOT_REGISTERED'), registrationToken: z.string() })
  .meta({ id: 'WalletNotRegistered' });

export type AuthResponse = z.infer<typeof authResponseSchema>;
