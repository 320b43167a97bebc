import { AlertTriangle } from 'lucide-react';
import { PageHeader } from '../../components/common/page';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';

const CREATE_STEPS = [
  'Connect your Solana wallet (Phantom or any Wallet Standard wallet) and sign the sign-in message. It costs nothing.',
  'Open Create Dare and describe the dare: title, description, difficulty, category and a deadline.',
  'Choose your stake, between 0.01 and 5 SOL. Your balance must cover the stake plus the 0.000005 SOL network fee.',
  'DarePool creates an escrow wallet for your dare and builds the transfer of your stake into it.',
  'Your wallet asks you to sign the transfer. Check the amount, then approve.',
  'DarePool sends it to the network and verifies it on chain before recording anything.',
  'Your dare goes live with its pool. Share it and watch the proofs come in.',
];

const TAKE_PART_STEPS = [
  'Browse Community Dares or the Major Dare and open a dare.',
  'Submit one video per dare as proof: a link or an MP4, WebM or OGG file under 10 MB, with a description.',
  'Add SOL to a dare’s pool to raise the prize. Every contribution is verified on chain.',
  'Vote for the best approved proofs: up to 3 votes per dare, one per video, never your own.',
  'An admin approves or rejects submissions and picks the winners.',
  'Winners claim their prize from their Profile; it is paid from the dare’s escrow to their wallet.',
];

export default function InstructionsPage() {
  return (
    <div className="max-w-3xl space-y-6">
      <PageHeader title="Instructions" description="How DarePool works, step by step." />
      <Card>
        <CardHeader>
          <CardTitle>Creating a dare</CardTitle>
        </CardHeader>
        <CardContent>
          <ol className="list-decimal space-y-2 pl-5">
            {CREATE_STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Taking part</CardTitle>
        </CardHeader>
        <CardContent>
          <ol className="list-decimal space-y-2 pl-5">
            {TAKE_PART_STEPS.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>The Major Dare</CardTitle>
        </CardHeader>
        <CardContent className="space-y-2">
          <p>Each week an admin launches a Major Dare with a prize pool.</p>
          <p>
            The prize splits <strong>70%</strong> to the admin’s selection and <strong>30%</strong> to the
            community’s choice: the approved proof with the most votes.
          </p>
        </CardContent>
      </Card>
      <aside
        className="flex gap-3 rounded-lg border border-primary/50 bg-primary/10 p-5"
        aria-label="Disclaimer"
      >
        <AlertTriangle className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
        <div className="space-y-1 text-sm">
          <p className="font-semibold">Disclaimer</p>
          <p>DarePool is for entertainment only. Keep your content legal and safe, and respect others.</p>
          <p>
            Never attempt a dare that could hurt you or anyone else. The provider of DarePool takes no
            responsibility for any dare, video, injury, loss or damage.
          </p>
        </div>
      </aside>
    </div>
  );
}
