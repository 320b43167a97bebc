import { describe, expect, it } from 'vitest';
import { api, createFundedDare, newActor, submitVideo } from './helpers/payouts';
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
    const admin = await newActor(ctx, 'boss', { admin: true });
    const creator = await newActor(ctx, 'maker');
    const doer = await newActor(ctx, 'doer');
    const dare = await createFundedDare(ctx, creator, '0.1');
    expect(await systemMessages(dare.id)).toEqual([]);

    const submission = await submitVideo(ctx, doer, dare.id);
    const approved = await api(ctx).put(
      `/api/admin/submissions/${submission.id}`,
      { status: 'approved' },
      admin.token,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    // Approving again announces nothing new.
    await api(ctx).put(`/api/admin/submissions/${submission.id}`, { status: 'approved' }, admin.token);
    const won = await api(ctx).post(
      `/api/admin/submissions/${submission.id}/mark-winner`,
      { dareId: dare.id },
      admin.token,
    );
    expect(won.statusCode, won.body).toBe(201);
    // Announcements are posted after the action answers: poll until both are stored.
    await expect
      .poll(() => systemMessages(dare.id))
      .toEqual(['New approved submission by doer', 'doer won this dare!']);
  });
});
