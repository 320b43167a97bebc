import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '#contract/auth';
import { DAY_MS } from '#contract/time';
import { createUser } from '#server/db/factories';
import { setSetting } from '#server/features/settings/repo';
import { createTestContext, type TestContext } from './helpers/app';
import { setupApiSuite } from './helpers/suite';
import { bearer, createTestWallet, registerWithWallet, walletLogin } from './helpers/wallet';

const { ctx } = setupApiSuite({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: { host: 'localhost:5000', ...headers },
  });

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('POST /api/auth/challenge', () => {
  it('issues a SIWS input bound to the request host and the configured cluster', async () => {
    const wallet = await createTestWallet();
    const res = await post(
      '/api/auth/challenge',
      { walletAddress: wallet.address },
      { host: '127.0.0.1:5000' },
    );
    expect(res.statusCode).toBe(200);
    const { input, message } = res.json();
    expect(input).toMatchObject({
      domain: '127.0.0.1:5000',
      address: wallet.address,
      uri: 'http://127.0.0.1:5000',
      version: '1',
      chainId: 'solana:localnet',
    });
    expect(input.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(Date.parse(input.expirationTime) - Date.parse(input.issuedAt)).toBe(10 * 60 * 1000);
    expect(message).toContain(`Nonce: ${input.nonce}`);
    expect(message.split('\n')[0]).toBe('127.0.0.1:5000 wants you to sign in with your Solana account:');
  });

  it('without PUBLIC_URL refuses a Host that is not this server on loopback, for challenges and proofs', async () => {
    const wallet = await createTestWallet();
    for (const host of ['evil.example', 'localhost:5001', 'darepool.test:5000']) {
      const res = await post('/api/auth/challenge', { walletAddress: wallet.address }, { host });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(AUTH_MESSAGES.signInHostRefused);
      expect(res.json().error).toContain('PUBLIC_URL');
    }
    for (const host of ['localhost:5000', '[::1]:5000']) {
      const res = await post('/api/auth/challenge', { walletAddress: wallet.address }, { host });
      expect(res.statusCode).toBe(200);
      expect(res.json().input.domain).toBe(host);
    }
  });

  it('refuses something that is not a wallet address', async () => {
    const res = await post('/api/auth/challenge', { walletAddress: 'alice' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Invalid wallet address', code: 'VALIDATION_FAILED' });
  });
});

describe('wallet login and registration', () => {
  it('walks a new wallet through registration to a session, then signs it in again', async () => {
    const wallet = await createTestWallet();
    const first = await walletLogin(ctx.app, wallet);
    expect(first.statusCode).toBe(404);
    const body = first.json();
    expect(body).toMatchObject({ error: 'Wallet not registered', code: 'WALLET_NOT_REGISTERED' });
    expect(body.registrationToken).toEqual(expect.any(String));

    const registered = await post('/api/auth/register', {
      username: 'newcomer',
      password: 'secret1',
      walletAddress: wallet.address,
      registrationToken: body.registrationToken,
    });
    expect(registered.statusCode).toBe(201);
    const { user, token } = registered.json();
    expect(user).toMatchObject({
      username: 'newcomer',
      walletAddress: wallet.address,
      isAdmin: false,
      dareWins: 0,
    });
    expect(user.totalEarnings).toBe('0');
    expect(JSON.stringify(registered.json())).not.toMatch(/scrypt|password/i);

    const me = await ctx.app.inject({ url: '/api/auth/me', headers: bearer(token) });
    expect(me.json().user.username).toBe('newcomer');

    // The registration token is single use.
    const again = await post('/api/auth/register', {
      username: 'newcomer2',
      password: 'secret1',
      walletAddress: wallet.address,
      registrationToken: body.registrationToken,
    });
    expect(again.statusCode).toBe(409);

    const second = await walletLogin(ctx.app, wallet);
    expect(second.statusCode).toBe(200);
    expect(second.json().user.username).toBe('newcomer');
    expect(second.json().token).not.toBe(token);
  });

  it('never logs in with a bare address', async () => {
    const wallet = await createTestWallet();
    await registerWithWallet(ctx.app, wallet, 'bareaddr');
    const res = await post('/api/auth/wallet-login', { walletAddress: wallet.address });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({
      code: 'INVALID_SIGN_IN',
      error: 'A signed sign-in message is required',
    });
    expect(res.json().token).toBeUndefined();
  });

  it('refuses a replayed, a wrong-key, a wrong-domain and a malformed proof', async () => {
    const wallet = await createTestWallet();
    const mallory = await createTestWallet();
    await registerWithWallet(ctx.app, wallet, 'proofcheck');

    const challenge = (await post('/api/auth/challenge', { walletAddress: wallet.address })).json();
    const signedMessage = new TextEncoder().encode(challenge.message);
    const good = {
      walletAddress: wallet.address,
      signedMessage: b64(signedMessage),
      signature: b64(await wallet.signBytes(signedMessage)),
    };
    const forged = { ...good, signature: b64(await mallory.signBytes(signedMessage)) };

    const wrongKey = await post('/api/auth/wallet-login', forged);
    expect(wrongKey.statusCode).toBe(401);
    expect(wrongKey.json().error).toBe('The signature does not match the wallet');

    const foreignHost = await post('/api/auth/wallet-login', good, { host: 'evil.example' });
    expect(foreignHost.statusCode).toBe(400);
    expect(foreignHost.json().error).toBe(AUTH_MESSAGES.signInHostRefused);
    // Another loopback name of this server is a different SIWS domain from the one signed for.
    const wrongDomain = await post('/api/auth/wallet-login', good, { host: '127.0.0.1:5000' });
    expect(wrongDomain.statusCode).toBe(401);
    expect(wrongDomain.json().error).toBe('The signed message is for another site');

    const malformed = await post('/api/auth/wallet-login', { ...good, signature: '!!notbase64' });
    expect(malformed.statusCode).toBe(400);
    const shortSig = await post('/api/auth/wallet-login', { ...good, signature: b64(new Uint8Array(10)) });
    expect(shortSig.statusCode).toBe(401);

    expect((await post('/api/auth/wallet-login', good)).statusCode).toBe(200);
    const replay = await post('/api/auth/wallet-login', good);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('This sign-in request was already used');
  });

  it('refuses an expired challenge', async () => {
    const wallet = await createTestWallet();
    const challenge = (await post('/api/auth/challenge', { walletAddress: wallet.address })).json();
    const signedMessage = new TextEncoder().encode(challenge.message);
    ctx.clock.advance(10 * 60 * 1000 + 1);
    const res = await post('/api/auth/wallet-login', {
      walletAddress: wallet.address,
      signedMessage: b64(signedMessage),
      signature: b64(await wallet.signBytes(signedMessage)),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatch(/expired/);
  });

  it('refuses a registration token for another wallet, taken names and wallets, and bad fields', async () => {
    const wallet = await createTestWallet();
    const other = await createTestWallet();
    const { registrationToken } = (await walletLogin(ctx.app, wallet)).json();
    const register = (body: Record<string, unknown>) =>
      post('/api/auth/register', {
        username: 'fresh_name',
        password: 'secret1',
        walletAddress: wallet.address,
        registrationToken,
        ...body,
      });

    expect((await register({ walletAddress: other.address })).statusCode).toBe(401);
    await createUser(ctx.database.db, { username: 'TakenName' });
    const taken = await register({ username: 'takenname' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe('Username already taken');

    const short = await register({ username: 'ab', password: '123' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toEqual({
      username: 'Username must be at least 3 characters',
      password: 'Password must be at least 6 characters',
    });

    const existing = await createUser(ctx.database.db);
    const proof = (await walletLogin(ctx.app, other)).json();
    const walletTaken = await post('/api/auth/register', {
      username: 'someone_else',
      password: 'secret1',
      walletAddress: existing.walletAddress,
      registrationToken: proof.registrationToken,
    });
    expect(walletTaken.statusCode).toBe(409);
    expect(walletTaken.json().error).toBe('Wallet already registered');

    // Nothing above consumed the good token: it still registers.
    expect((await register({})).statusCode).toBe(201);
  });

  it('answers 403 when registration is switched off, and keeps the proof usable', async () => {
    const wallet = await createTestWallet();
    const { registrationToken } = (await walletLogin(ctx.app, wallet)).json();
    await setSetting(ctx.database.db, 'registration_enabled', false);
    try {
      const res = await post('/api/auth/register', {
        username: 'switched_off',
        password: 'secret1',
        walletAddress: wallet.address,
        registrationToken,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        error: 'Registration is currently disabled',
        code: 'REGISTRATION_DISABLED',
      });
    } finally {
      await setSetting(ctx.database.db, 'registration_enabled', true);
    }
  });
});

describe('password login, sessions and logout', () => {
  it('logs in with a password and gives the same answer for unknown user and wrong password', async () => {
    await createUser(ctx.database.db, { username: 'pwuser', password: 'correct-horse' });
    const ok = await post('/api/auth/login', { username: 'pwuser', password: 'correct-horse' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.username).toBe('pwuser');

    const wrong = await post('/api/auth/login', { username: 'pwuser', password: 'nope' });
    const unknown = await post('/api/auth/login', { username: 'nobody-here', password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ error: 'Invalid credentials', code: 'INVALID_CREDENTIALS' });
  });

  it('stops a token at once on logout', async () => {
    await createUser(ctx.database.db, { username: 'leaver', password: 'secret1' });
    const { token } = (await post('/api/auth/login', { username: 'leaver', password: 'secret1' })).json();
    expect((await ctx.app.inject({ url: '/api/auth/me', headers: bearer(token) })).statusCode).toBe(200);
    const out = await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    expect(out.statusCode).toBe(204);
    const me = await ctx.app.inject({ url: '/api/auth/me', headers: bearer(token) });
    expect(me.statusCode).toBe(401);
    expect(me.json().error).toBe('Your session has ended. Please sign in again.');
    // A dead token does not break public reads.
    expect((await ctx.app.inject({ url: '/api/config', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('expires sessions after 30 days', async () => {
    await createUser(ctx.database.db, { username: 'oldtimer', password: 'secret1' });
    const { token } = (await post('/api/auth/login', { username: 'oldtimer', password: 'secret1' })).json();
    ctx.clock.advance(30 * DAY_MS + 1000);
    expect((await ctx.app.inject({ url: '/api/auth/me', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('finds the public user by wallet', async () => {
    const user = await createUser(ctx.database.db);
    const res = await ctx.app.inject({ url: `/api/auth/user-by-wallet?wallet=${user.walletAddress}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, username: user.username });
    expect(res.json().password).toBeUndefined();
    const wallet = await createTestWallet();
    expect(
      (await ctx.app.inject({ url: `/api/auth/user-by-wallet?wallet=${wallet.address}` })).statusCode,
    ).toBe(404);
  });
});

describe('with PUBLIC_URL', () => {
  let site: TestContext;
  beforeAll(async () => {
    site = await createTestContext({
      PUBLIC_URL: 'http://darepool.test:8443',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
    });
  });
  afterAll(() => site.close());

  const postTo = (url: string, payload: object, host: string) =>
    site.app.inject({ method: 'POST', url, payload, headers: { host } });

  it('binds the challenge to PUBLIC_URL whatever Host the request carries', async () => {
    const wallet = await createTestWallet();
    for (const host of ['evil.example', 'localhost:5000']) {
      const res = await postTo('/api/auth/challenge', { walletAddress: wallet.address }, host);
      expect(res.statusCode).toBe(200);
      const { input, message } = res.json();
      expect(input).toMatchObject({ domain: 'darepool.test:8443', uri: 'http://darepool.test:8443' });
      expect(message.split('\n')[0]).toBe(
        'darepool.test:8443 wants you to sign in with your Solana account:',
      );
    }
  });

  it('verifies a proof against PUBLIC_URL, so one signed for a phishing Host is refused', async () => {
    const wallet = await createTestWallet();
    const challenge = (
      await postTo('/api/auth/challenge', { walletAddress: wallet.address }, 'evil.example')
    ).json();
    // The phishing page shows the victim's wallet a message naming its own site.
    const phished = new TextEncoder().encode(
      challenge.message.replace(/^darepool\.test:8443 /, 'evil.example '),
    );
    const phishedProof = {
      walletAddress: wallet.address,
      signedMessage: b64(phished),
      signature: b64(await wallet.signBytes(phished)),
    };
    const refused = await postTo('/api/auth/wallet-login', phishedProof, 'evil.example');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe('The signed message is for another site');

    const signed = new TextEncoder().encode(challenge.message);
    const proof = {
      walletAddress: wallet.address,
      signedMessage: b64(signed),
      signature: b64(await wallet.signBytes(signed)),
    };
    const accepted = await postTo('/api/auth/wallet-login', proof, 'evil.example');
    expect(accepted.statusCode).toBe(404);
    expect(accepted.json().code).toBe('WALLET_NOT_REGISTERED');
  });
});
