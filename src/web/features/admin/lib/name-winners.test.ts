import { describe, expect, it, vi } from 'vitest';
import { JUDGING_MESSAGES } from '#contract/judging';
import { bytesToBase64 } from '#web/lib/payments/base64';
import { PaymentError } from '#web/lib/payments/payment-errors';
import { describeNamed, readNamingAnswer, signAndRelay } from './name-winners';

const JUDGE = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const winners = [{ submissionId: 4, walletAddress: JUDGE, amount: '0.35' }];
const proposal = { winners, executesAt: '2026-11-28T14:05:00.000Z', signature: 'sig' };
const unsigned = bytesToBase64(Uint8Array.from([1, 2, 3]));

const judgeSigner = {
  address: JUDGE,
  walletName: 'E2E Test Wallet',
  signTransaction: async (tx: Uint8Array) => Uint8Array.from([...tx, 9]),
};

describe('readNamingAnswer', () => {
  it("tells mark-winner's v2 shapes apart, and anything else is a v1 answer", () => {
    expect(readNamingAnswer({ transaction: unsigned, winners, executesAt: proposal.executesAt })).toEqual({
      kind: 'confirm',
      propose: { transaction: unsigned, winners, executesAt: proposal.executesAt },
    });
    expect(readNamingAnswer({ proposal })).toEqual({ kind: 'proposed', proposal });
    expect(readNamingAnswer({ signaturesNeeded: 1, transaction: unsigned })).toEqual({
      kind: 'signaturesNeeded',
      signaturesNeeded: 1,
    });
    expect(readNamingAnswer({ id: 3, status: 'pending', amount: '0.35' })).toEqual({ kind: 'recorded' });
  });
});

describe('signAndRelay', () => {
  it("signs the server's transaction with the judge's wallet and relays it through the same call", async () => {
    const send = vi.fn(async () => ({ proposal }));
    const step = await signAndRelay(
      { transaction: unsigned, judges: [JUDGE] },
      { connectJudge: async () => judgeSigner, send },
    );
    expect(send).toHaveBeenCalledWith(bytesToBase64(Uint8Array.from([1, 2, 3, 9])));
    expect(step).toEqual({ kind: 'proposed', proposal });
  });

  it('says how many judges must still sign', async () => {
    const step = await signAndRelay(
      { transaction: unsigned, judges: [JUDGE] },
      {
        connectJudge: async () => judgeSigner,
        send: async () => ({ signaturesNeeded: 2, transaction: 'x' }),
      },
    );
    expect(
      describeNamed(step as Exclude<typeof step, { kind: 'confirm' }>, { paysOn: String, recorded: '' }),
    ).toEqual({
      title: 'Your signature is in',
      description: "2 more judges must sign in the admin panel's Payout proposals",
    });
  });

  it('sends nothing when no connected wallet judges the dare', async () => {
    const send = vi.fn();
    await expect(
      signAndRelay(
        { transaction: unsigned, judges: [JUDGE] },
        {
          connectJudge: async () => {
            throw new PaymentError(JUDGING_MESSAGES.noJudgeWallet);
          },
          send,
        },
      ),
    ).rejects.toThrow(JUDGING_MESSAGES.noJudgeWallet);
    expect(send).not.toHaveBeenCalled();
  });

  it('refuses a second confirmation round instead of looping', async () => {
    await expect(
      signAndRelay(
        { transaction: unsigned, judges: [JUDGE] },
        {
          connectJudge: async () => judgeSigner,
          send: async () => ({ transaction: unsigned, winners, executesAt: proposal.executesAt }),
        },
      ),
    ).rejects.toThrow('The server asked for the same signature again');
  });
});
