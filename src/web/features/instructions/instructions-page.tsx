import type { LucideIcon } from 'lucide-react';
import { AlertTriangle, Crown, Flame, Landmark, Video } from 'lucide-react';
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
import { useConfig } from '#web/lib/config';

const MAX_VIDEO_MB = SUBMISSION_LIMITS.videoMaxBytes / (1024 * 1024);

/** The vault's rent is the creator's, lent (issue 37, item 6): said with today's figure when known. */
const createSteps = (vaultRentSol: string | undefined) => [
  'Connect your Solana wallet (Phantom or any Wallet Standard wallet) and sign the sign-in message. Signing in costs nothing.',
  'Open Create Dare and describe the dare: title, description, difficulty, category and a deadline.',
  `Choose your stake, between ${STAKE_MIN_SOL} and ${STAKE_MAX_SOL} SOL. DarePool checks your balance first: it must cover the stake plus the ${NETWORK_FEE_SOL} SOL network fee.`,
  `DarePool prepares the transaction that creates your dare's vault on the escrow program and puts your stake in it. Your wallet also pays the vault's rent (${vaultRentSol ? `${vaultRentSol} SOL today` : 'a few thousandths of a SOL'}): it is lent, not spent, and comes back to your wallet when the dare ends.`,
  'Your wallet asks you to sign the transaction. Check the amount, then approve.',
  'The transaction is sent to the network, and your dare goes live with your stake as its first pool.',
];

const TAKE_PART_STEPS = [
  'Browse Community Dares or the Major Dare and open a dare.',
  `Submit your proof: one video per dare, as a link or an MP4, WebM or OGG file under ${MAX_VIDEO_MB} MB, with a description. Your wallet signs your entry of the dare on chain first (DarePool pays its fee): only entrants can be paid. The proof waits for an admin's approval.`,
  "Add SOL to a dare's pool to raise the prize.",
  `Vote for the best approved videos: up to ${SUBMISSION_LIMITS.votesPerDare} votes per dare.`,
  'An admin approves or rejects each submission and picks the winners.',
  "Once winners are named, the prize is paid from the dare's vault to their wallet when the guardian's window ends, unless vetoed; nothing to claim before then.",
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

/** Where the SOL is, and the program anyone can check it with. */
function WhereTheMoneyIs() {
  const { data: config } = useConfig();
  return (
    <div className="space-y-2">
      <p>
        Every dare's SOL sits in its own vault, an account of DarePool's escrow program on Solana. The program
        pays a vault only to wallets that entered the dare, named by DarePool's judges with their own wallets
        and paid only after a public window in which a guardian can veto; it refunds every payer if the dare
        is cancelled or not settled within 7 days of its deadline: no DarePool key can take it. Each dare's
        page links its vault on the explorer.
      </p>
      <p>
        If a cancelled or overdue dare still holds your SOL, its page shows 'Refund me': your wallet signs the
        refund and gets it back, even if DarePool cannot pay the fees.
      </p>
      {config && (
        <p className="text-sm text-muted-foreground">
          Escrow program:{' '}
          <span className="font-mono break-all text-foreground">{config.escrowProgramV2Id}</span>
          {config.escrowProgramId && (
            <>
              {' '}
              (dares created before it:{' '}
              <span className="font-mono break-all text-foreground">{config.escrowProgramId}</span>)
            </>
          )}
        </p>
      )}
    </div>
  );
}

/** /instructions: the guide to both flows, where the money is, and the disclaimer (docs/product.md#instructions). */
export default function InstructionsPage() {
  const { data: config } = useConfig();
  return (
    <div className="max-w-3xl space-y-6">
      <PageHeader title="Instructions" description="How DarePool works, step by step." />
      <Section icon={Flame} title="Creating a dare">
        <Steps steps={createSteps(config?.limits.newVaultRentSol)} />
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
      <Section icon={Landmark} title="Where the money is">
        <WhereTheMoneyIs />
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
