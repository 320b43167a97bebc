import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '#server/db/factories';
import { setAdminByUsernameOrWallet } from '#server/features/auth/promote';
import { createTestContext, type TestContext } from './helpers/app';
import { setupApiSuite } from './helpers/suite';
import { bearer, createTestWallet, walletLogin } from './helpers/wallet';

let adminWallet: Awaited<ReturnType<typeof createTestWallet>>;
const { ctx } = setupApiSuite({
  env: async () => {
    adminWallet = await createTestWallet();
    return {
      RATE_LIMIT_AUTH_PER_MINUTE: '20',
      RATE_LIMIT_FAILED_LOGINS: '3',
      ADMIN_WALLETS: adminWallet.address,
    };
  },
});

const login = (username: string, password: string, ip = '10.0.0.1') =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username, password },
    remoteAddress: ip,
  });

describe('behind one proxy (TRUST_PROXY=1)', () => {
  let proxied: TestContext;
  beforeAll(async () => {
    proxied = await createTestContext({ TRUST_PROXY: '1', RATE_LIMIT_FAILED_LOGINS: '3' });
  });
  afterAll(() => proxied.close());

  const loginVia = (forwardedFor: string, password: string) =>
    proxied.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'proxied', password },
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('limits by the address the proxy saw, so a spoofed leftmost X-Forwarded-For resets nothing', async () => {
    await createUser(proxied.database.db, { username: 'proxied', password: 'right-password' });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      // The client writes its own X-Forwarded-For; the proxy appends the address it saw.
      expect((await loginVia(`6.6.6.${attempt}, 7.7.7.7`, 'wrong')).statusCode).toBe(401);
    }
    const locked = await loginVia('5.5.5.5, 7.7.7.7', 'right-password');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe('Too many failed logins for this account. Please try again later.');
    // Another client behind the same proxy is another address, not locked out with 7.7.7.7.
    expect((await loginVia('7.7.7.8', 'right-password')).statusCode).toBe(200);
  });
});

describe('rate limits', () => {
  it('locks an address out of an account after repeated failed logins, even with the right password, with Retry-After', async () => {
    await createUser(ctx.database.db, { username: 'target', password: 'right-password' });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await login('target', 'wrong', '10.1.0.1')).statusCode).toBe(401);
    }
    const locked = await login('target', 'right-password', '10.1.0.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe('Too many failed logins for this account. Please try again later.');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, from another address, is not locked out by the guesses from 10.1.0.1.
    expect((await login('target', 'right-password', '10.1.0.2')).statusCode).toBe(200);
    ctx.clock.advance(15 * 60 * 1000 + 1000);
    expect((await login('target', 'right-password', '10.1.0.1')).statusCode).toBe(200);
  });

  it('slows failed logins on one account across addresses to a backoff, and caps one address across accounts', async () => {
    await createUser(ctx.database.db, { username: 'spread', password: 'right-password' });
    // Limit 3 per account and address; ten times that per account over every address.
    for (let attempt = 0; attempt < 30; attempt += 1) {
      expect((await login('spread', 'wrong', `10.7.${attempt}.1`)).statusCode).toBe(401);
    }
    // Then addresses the account never signed in from get RATE_LIMIT_FAILED_LOGIN_BACKOFF_PER_MINUTE (2) a minute together.
    expect((await login('spread', 'wrong', '10.7.98.1')).statusCode).toBe(401);
    // A right password is given back, as always.
    expect((await login('spread', 'right-password', '10.7.98.2')).statusCode).toBe(200);
    expect((await login('spread', 'wrong', '10.7.98.3')).statusCode).toBe(401);
    const slowed = await login('spread', 'wrong', '10.7.99.1');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.json().error).toBe('Too many failed logins for this account. Please try again later.');
    expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(60);
    ctx.clock.advance(61_000);
    expect((await login('spread', 'wrong', '10.7.99.1')).statusCode).toBe(401);

    const statuses: number[] = [];
    for (let account = 0; account < 30; account += 1) {
      // Stay under the 20 sign-in requests a minute per address.
      if (account % 15 === 14) ctx.clock.advance(61_000);
      statuses.push((await login(`nobody${account}`, 'wrong', '10.8.0.1')).statusCode);
    }
    expect(statuses.every((status) => status === 401)).toBe(true);
    const lockedAddress = await login('nobody-else', 'wrong', '10.8.0.1');
    expect(lockedAddress.statusCode).toBe(429);
    expect(lockedAddress.json().error).toBe(
      'Too many failed logins from your network. Please try again later.',
    );
    ctx.clock.advance(15 * 60 * 1000 + 1000);
  });

  it('guesses from many addresses do not lock the owner out of an address they signed in from', async () => {
    await createUser(ctx.database.db, { username: 'owner', password: 'right-password' });
    expect((await login('owner', 'right-password', '10.20.0.1')).statusCode).toBe(200);
    // Ten strangers' addresses use up their own locks (3 each) and the account-wide count (30).
    for (let stranger = 0; stranger < 10; stranger += 1) {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await login('owner', 'wrong', `10.21.${stranger}.1`)).statusCode).toBe(401);
      }
      expect((await login('owner', 'right-password', `10.21.${stranger}.1`)).statusCode).toBe(429);
    }
    // More strangers are slowed to the backoff (2 a minute over all of them)...
    const statuses = [];
    for (let stranger = 10; stranger < 14; stranger += 1)
      statuses.push((await login('owner', 'wrong', `10.21.${stranger}.1`)).statusCode);
    expect(statuses).toEqual([401, 401, 429, 429]);
    // ...while the owner, from the address they signed in from, is not locked out.
    expect((await login('owner', 'right-password', '10.20.0.1')).statusCode).toBe(200);
    // Their own address keeps its own lock: three mistakes there, and it waits like any other.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await login('owner', 'wrong', '10.20.0.1')).statusCode).toBe(401);
    }
    expect((await login('owner', 'right-password', '10.20.0.1')).statusCode).toBe(429);
    // A wallet sign-in or the next minute: a new address gets one of the backoff's attempts.
    ctx.clock.advance(61_000);
    expect((await login('owner', 'right-password', '10.22.0.1')).statusCode).toBe(200);
    ctx.clock.advance(15 * 60 * 1000 + 1000);
  });

  it('a wallet sign-in also makes its address one the backoff spares', async () => {
    const wallet = await createTestWallet();
    await createUser(ctx.database.db, {
      username: 'walleter',
      password: 'right-password',
      walletAddress: wallet.address,
    });
    // From 127.0.0.1, the inject default.
    expect((await walletLogin(ctx.app, wallet)).statusCode).toBe(200);
    for (let attempt = 0; attempt < 32; attempt += 1)
      expect((await login('walleter', 'wrong', `10.23.${attempt}.1`)).statusCode).toBe(401);
    expect((await login('walleter', 'wrong', '10.23.99.1')).statusCode).toBe(429);
    expect((await login('walleter', 'right-password', '127.0.0.1')).statusCode).toBe(200);
    ctx.clock.advance(15 * 60 * 1000 + 1000);
  });

  it('does not count successful logins as failures', async () => {
    await createUser(ctx.database.db, { username: 'regular', password: 'right-password' });
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect((await login('regular', 'right-password', '10.9.0.1')).statusCode).toBe(200);
    }
    expect((await login('regular', 'wrong', '10.9.0.1')).statusCode).toBe(401);
  });

  it('limits sign-in requests per IP', async () => {
    const wallet = await createTestWallet();
    const statuses: number[] = [];
    for (let i = 0; i < 22; i += 1) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/challenge',
        payload: { walletAddress: wallet.address },
        headers: { host: 'localhost:5000' },
        remoteAddress: '10.2.0.1',
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.headers['retry-after']).toBeDefined();
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.slice(20)).toEqual([429, 429]);
    // Another address is not affected.
    const other = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/challenge',
      payload: { walletAddress: wallet.address },
      headers: { host: 'localhost:5000' },
      remoteAddress: '10.2.0.2',
    });
    expect(other.statusCode).toBe(200);
  });
});

describe('parallel guesses', () => {
  let defaults: TestContext;
  beforeAll(async () => {
    defaults = await createTestContext({ RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
  });
  afterAll(() => defaults.close());

  it('checks at most 10 of 40 parallel wrong passwords, and the owner still signs in from another address', async () => {
    await createUser(defaults.database.db, { username: 'victim', password: 'right-password' });
    const guess = () =>
      defaults.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'victim', password: 'wrong-guess' },
        remoteAddress: '203.0.113.7',
      });
    const statuses = (await Promise.all(Array.from({ length: 40 }, guess))).map((res) => res.statusCode);
    // 401 = the password was checked; 429 = refused before any check.
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    const owner = await defaults.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'victim', password: 'right-password' },
      remoteAddress: '198.51.100.20',
    });
    expect(owner.statusCode).toBe(200);
  });
});

describe('roles', () => {
  it('answers 401 to visitors and 403 to non-admins on admin routes', async () => {
    expect((await ctx.app.inject('/api/admin/settings')).statusCode).toBe(401);
    await createUser(ctx.database.db, { username: 'plainuser', password: 'secret1' });
    const { token } = (await login('plainuser', 'secret1', '10.3.0.1')).json();
    for (const request of [
      { method: 'GET' as const, url: '/api/admin/settings' },
      { method: 'PUT' as const, url: '/api/admin/settings', payload: { registrationEnabled: false } },
    ]) {
      const res = await ctx.app.inject({ ...request, headers: bearer(token) });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('ADMIN_ONLY');
    }
    const settings = await ctx.app.inject({ url: '/api/admin/settings', headers: bearer(token) });
    expect(settings.statusCode).toBe(403);
  });

  it('promotes by username or wallet, and the promotion shows on the next /me', async () => {
    const user = await createUser(ctx.database.db, { username: 'RisingStar', password: 'secret1' });
    const { token } = (await login('risingstar', 'secret1', '10.4.0.1')).json();
    expect((await ctx.app.inject({ url: '/api/auth/me', headers: bearer(token) })).json().user.isAdmin).toBe(
      false,
    );
    expect(await setAdminByUsernameOrWallet(ctx.database.db, 'risingSTAR', true, new Date())).toEqual([
      { id: user.id, username: 'RisingStar' },
    ]);
    expect((await ctx.app.inject({ url: '/api/auth/me', headers: bearer(token) })).json().user.isAdmin).toBe(
      true,
    );
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: bearer(token),
      payload: { dareCreationEnabled: false },
    });
    expect(saved.json()).toEqual({ dareCreationEnabled: false, registrationEnabled: true });
    expect(
      await setAdminByUsernameOrWallet(ctx.database.db, user.walletAddress!, false, new Date()),
    ).toHaveLength(1);
    expect((await ctx.app.inject({ url: '/api/auth/me', headers: bearer(token) })).json().user.isAdmin).toBe(
      false,
    );
  });

  it('lets an admin grant and remove admin rights, but not a normal user', async () => {
    await createUser(ctx.database.db, { username: 'chief', password: 'secret1', isAdmin: true });
    const target = await createUser(ctx.database.db, { username: 'deputy', password: 'secret1' });
    const chief = (await login('chief', 'secret1', '10.6.0.1')).json();
    const deputy = (await login('deputy', 'secret1', '10.6.0.2')).json();
    const setRole = (token: string, id: number, isAdmin: boolean) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `/api/admin/users/${id}/role`,
        headers: bearer(token),
        payload: { isAdmin },
      });

    expect((await setRole(deputy.token, target.id, true)).statusCode).toBe(403);
    const granted = await setRole(chief.token, target.id, true);
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({ id: target.id, isAdmin: true });
    expect(
      (await ctx.app.inject({ url: '/api/auth/me', headers: bearer(deputy.token) })).json().user.isAdmin,
    ).toBe(true);
    expect((await setRole(chief.token, chief.user.id, false)).statusCode).toBe(409);
    expect((await setRole(chief.token, 999999, true)).statusCode).toBe(404);
    expect((await setRole(chief.token, target.id, false)).json().isAdmin).toBe(false);
  });

  it('promotes ADMIN_WALLETS on registration', async () => {
    const { registrationToken } = (await walletLogin(ctx.app, adminWallet)).json();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        username: 'bootstrap',
        password: 'secret1',
        walletAddress: adminWallet.address,
        registrationToken,
      },
      remoteAddress: '10.5.0.1',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().user.isAdmin).toBe(true);
  });
});
