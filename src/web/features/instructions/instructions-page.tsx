import type { LucideIcon } from 'lucide-react';
import { AlertTriangle, Crown, Flame, Video } from 'lucide-react';
import type { ReactNode } from 'react';
import {
  MAJOR_DARE_SPLIT,
  NETWORK_FEE_SOL,
  STAKE_MAX_SOL,
  STAKE_MIN_SOL,
  SUBMISSION_LIMITS,
} from '#contract/limits';
import { PageHeader } from '#web/components/common/page-header';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card';

const MAX_VIDEO_MB = SUBMISSION_LIMITS.videoMaxBytes / (1024 * 1024);

const CREATE_STEPS = [
  'Connect your Solana wallet (Phantom or any Wallet Standard wallet) and sign the sign-in message. Signing in costs nothing.',
  'Open Create Dare and describe the dare: title, description, difficulty, category and a deadline.',
  `Choose your stake, between ${STAKE_MIN_SOL} and ${STAKE_MAX_SOL} SOL. DarePool checks your balance first: it must cover the stake plus the ${NETWORK_FEE_SOL} SOL network fee.`,
  'DarePool creates an escrow wallet for your dare and prepares the transfer of your stake into it.',
  'Your wallet asks you to sign the transfer. Check the amount, then approve.',
  'The transaction is sent to the network, and your dare goes live with your stake as its first pool.',
];

const TAKE_PART_STEPS = [
  'Browse Community Dares or the Major Dare and open a dare.',
  `Submit your proof: one video per dare, as a link or an MP4, WebM or OGG file under ${MAX_VIDEO_MB} MB, with a description. It waits for an admin's approval.`,
  "Add SOL to a dare's pool to raise the prize.",
  `Vote for the best approved videos: up to ${SUBMISSION_LIMITS.votesPerDare} votes per dare.`,
  'An admin approves or rejects each submission and picks the winners.',
  "Winners claim their prize from their Profile; it is paid from the dare's escrow to their wallet.",
];

function Section({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Icon className="size-5 text-primary" aria-hidden />
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function Steps({ steps }: { steps: readonly string[] }) {
  return (
    <ol className="list-decimal space-y-2 pl-5 marker:text-muted-foreground">
      {steps.map((step) => (
        <li key={step}>{step}</li>
      ))}
    </ol>
  );
}

/** /instructions: the static guide to both flows, and the disclaimer (docs/product.md#instructions). */
export default function InstructionsPage() {
  return (
    <div className="max-w-3xl space-y-6">
      <PageHeader title="Instructions" description="How DarePool works, step by step." />
      <Section icon={Flame} title="Creating a dare">
        <Steps steps={CREATE_STEPS} />
      </Section>
      <Section icon={Video} title="Taking part">
        <Steps steps={TAKE_PART_STEPS} />
      </Section>
      <Section icon={Crown} title="The Major Dare">
        <div className="space-y-2">
          <p>Each week an admin launches a Major Dare with a prize pool. Take part as in any dare.</p>
          <p>
            The prize splits <strong>{MAJOR_DARE_SPLIT.adminPercent}%</strong> to the admin's selection and{' '}
            <strong>{MAJOR_DARE_SPLIT.communityPercent}%</strong> to the community vote: the approved video
            with the most votes.
          </p>
        </div>
      </Section>
      <section
        aria-labelledby="disclaimer"
        className="flex gap-3 rounded-lg border border-primary/50 bg-primary/10 p-5"
      >
        <AlertTriangle className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
        <div className="space-y-1 text-sm">
          <h2 id="disclaimer" className="font-semibold">
            Disclaimer
          </h2>
          <p>DarePool is for entertainment only. Keep your content legal and safe, and respect others.</p>
          <p>
            Never attempt a dare that could hurt you or anyone else. The provider of DarePool takes no
            responsibility for any dare, video, injury, loss or damage.
          </p>
        </div>
      </section>
    </div>
  );
}
