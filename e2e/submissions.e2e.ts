import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupApp } from './fixtures/app';
import { newClient, request, submitOverHttp } from './fixtures/http-client';
import { loginAsDemoAdmin, openAsDemoAdmin, registerWithWallet, toast } from './fixtures/users';

const app = setupApp();

const api = <T>(method: string, path: string, token?: string | null, body?: unknown) =>
  request<T>(app, method, path, token, body);

/**
 * A real MP4, made the way a phone's browser would: Chromium's MediaRecorder encodes a few
 * frames of an animated canvas as H.264 in an MP4 container (ftyp, moov, then fragments).
 */
async function recordMp4(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const context = canvas.getContext('2d')!;
    let frame = 0;
    const paint = () => {
      context.fillStyle = `hsl(${(frame++ * 47) % 360} 80% 50%)`;
      context.fillRect(0, 0, canvas.width, canvas.height);
    };
    paint();
    const timer = setInterval(paint, 40);
    const recorder = new MediaRecorder(canvas.captureStream(25), {
      mimeType: 'video/mp4;codecs=avc1.42E01E',
    });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => chunks.push(event.data);
    const stopped = new Promise((resolve) => {
      recorder.onstop = resolve;
    });
    recorder.start();
    await new Promise((resolve) => setTimeout(resolve, 800));
    recorder.stop();
    await stopped;
    clearInterval(timer);
    const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
    let binary = '';
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
  return Buffer.from(base64, 'base64');
}

const votesUsed = (page: Page) => page.getByTestId('votes-used').textContent();
const card = (page: Page, author: string) => page.getByRole('article', { name: `Submission by ${author}` });

describe('video proofs and votes in the browser', () => {
  it('uploads a real MP4, the admin watches it pending, and after approval another user watches it and votes three times, not four', async () => {
    const dares = await api<
      { id: number; title: string; submissionCount: number; creator: { username: string } | null }[]
    >('GET', '/api/dares?filter=active');
    // A demo dare nobody has sent a proof to yet (others hold the demo's proofs).
    const dare = dares.find((candidate) => candidate.submissionCount === 0)!;

    const uploader = await app.newPage({ wallet: true });
    await registerWithWallet(uploader.page, app.baseUrl, 'e2e_prover');
    // Entering is paid by the entrant's wallet (decision 034): the injected wallet gets test SOL.
    await uploader.page.getByRole('button', { name: 'Get test SOL' }).click();
    await toast(uploader.page, 'Test SOL received');
    // A completed dare takes no proofs; an unknown one is not found.
    const [completed] = await api<{ id: number }[]>('GET', '/api/dares?filter=completed');
    await uploader.page.goto(app.url(`/dare/${completed!.id}`));
    const closed = uploader.page.getByRole('button', { name: 'Submissions Closed' });
    await closed.waitFor();
    expect(await closed.isDisabled()).toBe(true);
    await uploader.page.goto(app.url('/dare/99999999'));
    await uploader.page.getByText('Dare not found').waitFor();

    // The uploader submits through the dialog: a file, so the URL field is disabled.
    await uploader.page.goto(app.url(`/dare/${dare.id}`));
    await uploader.page.getByRole('heading', { name: dare.title }).waitFor();
    await uploader.page.getByText('No approved submissions yet').waitFor();
    const mp4 = await recordMp4(uploader.page);
    expect(mp4.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(mp4.length).toBeLessThan(1024 * 1024);

    await uploader.page.getByRole('button', { name: 'Submit Video' }).click();
    const form = uploader.page.getByRole('form', { name: 'Submit video' });
    // Nothing chosen: the message of docs/product.md#submit-video-rules, and nothing is sent.
    await form.getByRole('button', { name: 'Submit Video' }).click();
    await form.getByText('Please provide both video (URL or file) and description').waitFor();
    await form
      .getByLabel('Video File')
      .setInputFiles({ name: 'proof.mp4', mimeType: 'video/mp4', buffer: mp4 });
    expect(await form.getByLabel('Video URL').isDisabled()).toBe(true);
    await form.getByLabel('Description').fill('Lemon eaten, peel and all.');
    // A slow uplink (Chromium's network emulation), so the upload's progress is there to see.
    const cdp = await uploader.context.newCDPSession(uploader.page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: Math.ceil(mp4.length / 2),
    });
    await form.getByRole('button', { name: 'Submit Video' }).click();
    await form.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
    await form.getByText(/^Uploading… \d+%$/).waitFor();
    await toast(uploader.page, 'Video submitted successfully! Wait for admin approval.');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    // The dialog closed; the action now says the proof is in.
    await uploader.page.getByRole('button', { name: 'Submitted' }).waitFor();
    expect(await uploader.page.getByRole('button', { name: 'Submitted' }).isDisabled()).toBe(true);
    // Its author sees the pending proof at once, so they know it arrived (issue 18).
    await card(uploader.page, 'e2e_prover').getByText('Pending review').waitFor();
    await uploader.page.reload();
    await uploader.page.getByRole('button', { name: 'Already Submitted' }).waitFor();

    // Pending, it plays only for its author and admins: the admin panel plays it through a signed
    // link (a <video> cannot send the token); the plain address answers nobody else.
    const moderator = await openAsDemoAdmin(app);
    await moderator.page.getByRole('tab', { name: 'Submissions Management' }).click();
    const pendingPlayer = moderator.page.getByLabel('Video by e2e_prover');
    await pendingPlayer.waitFor();
    const signedSrc = (await pendingPlayer.getAttribute('src'))!;
    expect(signedSrc).toMatch(/^\/api\/video-proxy\/\d+\?expires=\d+&signature=[\w-]+$/);
    await pendingPlayer.evaluate((video: HTMLVideoElement) => {
      video.muted = true;
      return video.play();
    });
    await expect
      .poll(
        () => pendingPlayer.evaluate((video: HTMLVideoElement) => [video.readyState >= 2, video.videoWidth]),
        { timeout: 15_000 },
      )
      .toEqual([true, 64]);
    expect((await fetch(app.url(signedSrc.split('?')[0]!))).status).toBe(404);

    // Three more users post link proofs, each wallet entering the dare; the admin approves all four.
    const [first, second, third] = await Promise.all([1, 2, 3].map((index) => newClient(app, index)));
    for (const client of [first!, second!, third!]) {
      await submitOverHttp(app, client, dare.id, {
        videoUrl: `https://videos.example/${client.username}.mp4`,
        description: `${client.username} did it too`,
      });
    }
    const admin = await loginAsDemoAdmin(app);
    const pending = await api<{ id: number; dareId: number; status: string }[]>(
      'GET',
      '/api/admin/submissions',
      admin.token,
    );
    const ofDare = pending.filter((submission) => submission.dareId === dare.id);
    expect(ofDare).toHaveLength(4);
    for (const submission of ofDare)
      await api('PUT', `/api/admin/submissions/${submission.id}`, admin.token, { status: 'approved' });

    // Another user watches the uploaded proof in the player.
    const voter = await app.newPage({ wallet: true });
    await registerWithWallet(voter.page, app.baseUrl, 'e2e_voter');
    await voter.page.goto(app.url(`/dare/${dare.id}`));
    await card(voter.page, 'e2e_prover').waitFor();
    await expect.poll(() => voter.page.getByRole('article').count()).toBe(4);
    await card(voter.page, 'e2e_prover').getByText('Approved').waitFor();
    // The counter reads the voter's own votes once they load ('3 votes per dare' until then).
    await expect
      .poll(() => votesUsed(voter.page))
      .toBe('3 of 3 votes left · 4 proofs you can still vote for');

    await card(voter.page, 'e2e_prover').getByRole('button', { name: 'Watch Video' }).click();
    const player = voter.page.getByRole('dialog').locator('video');
    await player.waitFor();
    expect(await player.getAttribute('src')).toMatch(/^\/api\/video-proxy\/\d+$/);
    // The browser decoded the upload: it knows the frame size (metadata) and has a frame to show.
    await expect
      .poll(() => player.evaluate((video: HTMLVideoElement) => [video.readyState >= 2, video.videoWidth]), {
        timeout: 15_000,
      })
      .toEqual([true, 64]);
    await voter.page.keyboard.press('Escape');

    // Three votes across submissions count; the fourth is refused with the server's message.
    const targets = ['e2e_prover', first!.username, second!.username];
    const left = ['2 of 3 votes left · 3 proofs', '1 of 3 votes left · 2 proofs'];
    for (const [index, author] of targets.entries()) {
      await card(voter.page, author).getByRole('button', { name: /^Vote/ }).click();
      await toast(voter.page, 'Vote added!');
      await expect
        .poll(() => votesUsed(voter.page))
        .toBe(index < 2 ? `${left[index]} you can still vote for` : 'All 3 votes used on this dare');
      // Voted: filled and not live, so no second click can be refused.
      const voted = card(voter.page, author).getByRole('button', { name: 'Voted (1 vote)' });
      await voted.waitFor();
      expect(await voted.isDisabled()).toBe(true);
    }
    // Out of votes: the fourth proof's vote is not offered, and says why.
    const fourth = card(voter.page, third!.username);
    expect(await fourth.getByRole('button', { name: 'Vote (0 votes)' }).isDisabled()).toBe(true);
    await fourth.getByText('No votes left').waitFor();

    // The counts are the server's: a reload shows the same.
    await voter.page.reload();
    await card(voter.page, second!.username).getByRole('button', { name: 'Voted (1 vote)' }).waitFor();
    await expect.poll(() => votesUsed(voter.page)).toBe('All 3 votes used on this dare');
  }, 60_000);
});
