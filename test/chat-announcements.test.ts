import { describe, expect, it } from 'vitest';
import { enterAndSubmit } from './helpers/entries';
import { adminWithKey, demoJudgeKey, nameWinner } from './helpers/judging';
import { api, createFundedDare, newActor } from './helpers/payouts';
import { setupApiSuite } from './helpers/suite';

const { ctx } = setupApiSuite({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });

/** The messages of a dare's room, as its chat history returns them; all must be system messages. */
async function systemMessages(dareId: number): Promise<string[]> {
  const messages: { message: string; messageType: string; username: string }[] = (
    await api(ctx).get(`/api/chat-messages?dareId=${dareId}`)
  ).json();
  for (const message of messages)
    expect(message).toMatchObject({ messageType: 'system', username: 'DarePool' });
  return messages.map((message) => message.message);
}

describe("system messages in a dare's room", () => {
  it('announce an approved submission and the winner', async () => {
    // Program v2: the admin naming the winner is a judge of the vault (the demo admin's wallet).
    const admin = await adminWithKey(ctx, await demoJudgeKey(ctx), 'boss');
    const creator = await newActor(ctx, 'maker');
    const doer = await newActor(ctx, 'doer');
    const dare = await createFundedDare(ctx, creator, '0.1');
    expect(await systemMessages(dare.id)).toEqual([]);

    const submission = await enterAndSubmit(ctx, doer, dare.id);
    const approved = await api(ctx).put(
      `/api/admin/submissions/${submission.id}`,
      { status: 'approved' },
      admin.token,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    // Approving again announces nothing new.
    await api(ctx).put(`/api/admin/submissions/${submission.id}`, { status: 'approved' }, admin.token);
    await nameWinner(ctx, admin, submission.id, dare.id);
    // Announcements are posted after the action answers: poll until both are stored.
    await expect
      .poll(() => systemMessages(dare.id))
      .toEqual(['New approved submission by doer', 'doer won this dare!']);
  });
});
