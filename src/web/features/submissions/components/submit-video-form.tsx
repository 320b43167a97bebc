import { useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { type FormEvent, useId, useRef, useState } from 'react';
import { entryCostLabel, SUBMISSION_MESSAGES, type Submission } from '#contract/submissions';
import { Button } from '#web/components/ui/button';
import { Input } from '#web/components/ui/input';
import { FieldError, Label } from '#web/components/ui/label';
import { Textarea } from '#web/components/ui/textarea';
import { toast } from '#web/components/ui/use-toast';
import { configQueryOptions, useConfig } from '#web/lib/config';
import { lazyConnectPaymentWallet } from '#web/lib/payments/lazy-payment-wallet';
import { describePaymentError } from '#web/lib/payments/payment-errors';
import { requestEntryTransaction } from '../api/enter-transaction';
import { submitVideo } from '../api/submit-video';
import { uploadVideo } from '../api/upload-video';
import { type EnterStage, enterAndSubmit } from '../lib/enter-and-submit';
import {
  fileProblem,
  linkProblem,
  VIDEO_ACCEPT,
  VIDEO_FILE_RULE,
  VIDEO_LINK_RULE,
  validateSubmission,
} from '../lib/validate-submission';

const STAGE_LABELS: Record<EnterStage, string> = {
  entering: 'Preparing your entry…',
  signing: 'Sign in your wallet…',
  submitting: 'Submitting…',
};

export const SUBMIT_TOASTS = {
  success: 'Video submitted successfully! Wait for admin approval.',
  uploadFailed: 'Failed to upload video',
  submitFailed: 'Failed to submit video',
} as const;

/**
 * The Submit Video form (docs/product.md#submit-video-rules): a URL or a file, never both (choosing one disables the
 * other), and a description. A file is uploaded first, with its progress shown; then the wallet
 * signs the user's entry of the dare on chain and the proof is submitted with it.
 */
export default function SubmitVideoForm({
  dareId,
  walletAddress,
  onBusyChange,
  onSubmitted,
}: {
  dareId: number;
  /** The account's wallet: it enters the dare, and only an entrant can be paid. */
  walletAddress: string;
  onBusyChange: (busy: boolean) => void;
  onSubmitted: (submission: Submission) => void;
}) {
  const queryClient = useQueryClient();
  const entryCostSol = useConfig().data?.limits.entryCostSol;
  const ids = {
    url: useId(),
    urlRule: useId(),
    file: useId(),
    fileRule: useId(),
    description: useId(),
    error: useId(),
  };
  const fileInput = useRef<HTMLInputElement>(null);
  const [videoUrl, setVideoUrl] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [stage, setStage] = useState<EnterStage | null>(null);
  const [busy, setBusy] = useState(false);
  // Judged as typed and as picked (docs/product.md#submit-video-rules), not only after Submit.
  const urlProblem = linkProblem(videoUrl);
  const pickedProblem = file ? fileProblem(file) : null;

  const setWorking = (value: boolean) => {
    setBusy(value);
    onBusyChange(value);
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const problem = validateSubmission({ videoUrl, file, description });
    setError(problem);
    if (problem) return;
    setWorking(true);
    try {
      let url = videoUrl.trim();
      if (file) {
        setProgress(0);
        try {
          url = (await uploadVideo(file, dareId, setProgress)).url;
        } catch (uploadError) {
          const message = uploadError instanceof Error ? uploadError.message : SUBMIT_TOASTS.uploadFailed;
          setError(message);
          toast({ title: SUBMIT_TOASTS.uploadFailed, description: message, variant: 'destructive' });
          return;
        }
      }
      setProgress(null);
      const config = await queryClient.ensureQueryData(configQueryOptions());
      const submission = await enterAndSubmit(
        { dareId, walletAddress, videoUrl: url, description: description.trim() },
        {
          requestEntry: requestEntryTransaction,
          connectWallet: lazyConnectPaymentWallet({ embeddedChain: config.embeddedChain }),
          submit: submitVideo,
        },
        setStage,
      );
      toast({ title: SUBMIT_TOASTS.success });
      // The dare's counters and its submission lists now include this one.
      void queryClient.invalidateQueries({ queryKey: ['/api/submissions', dareId] });
      void queryClient.invalidateQueries({ queryKey: ['/api/dares', dareId] });
      onSubmitted(submission);
    } catch (submitError) {
      const message = describePaymentError(submitError);
      setError(message);
      toast({ title: SUBMIT_TOASTS.submitFailed, description: message, variant: 'destructive' });
    } finally {
      setProgress(null);
      setStage(null);
      setWorking(false);
    }
  }

  const percent = progress === null ? null : Math.round(progress * 100);
  return (
    <form aria-label="Submit video" className="space-y-4" onSubmit={onSubmit} noValidate>
      <div className="space-y-2">
        <Label htmlFor={ids.url}>Video URL</Label>
        <Input
          id={ids.url}
          type="url"
          inputMode="url"
          placeholder="https://…"
          value={videoUrl}
          disabled={busy || file !== null}
          aria-invalid={urlProblem !== null}
          aria-describedby={ids.urlRule}
          onChange={(event) => {
            setVideoUrl(event.target.value);
            setError(null);
          }}
        />
        {urlProblem ? (
          <FieldError id={ids.urlRule} message={urlProblem} />
        ) : (
          <p id={ids.urlRule} className="text-xs text-muted-foreground">
            {file !== null ? 'A file is chosen: remove it to use a link instead.' : VIDEO_LINK_RULE}
          </p>
        )}
      </div>
      <p className="text-center text-xs uppercase text-muted-foreground">or</p>
      <div className="space-y-2">
        <Label htmlFor={ids.file}>Video File</Label>
        <Input
          ref={fileInput}
          id={ids.file}
          type="file"
          accept={VIDEO_ACCEPT}
          disabled={busy || videoUrl.trim() !== ''}
          aria-invalid={pickedProblem !== null}
          aria-describedby={ids.fileRule}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setError(null);
          }}
        />
        {pickedProblem ? (
          <FieldError id={ids.fileRule} message={pickedProblem} />
        ) : (
          <p id={ids.fileRule} className="text-xs text-muted-foreground">
            {videoUrl.trim() !== '' ? 'A link is given: clear it to upload a file instead.' : VIDEO_FILE_RULE}
          </p>
        )}
        {file && !busy && (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            onClick={() => {
              setFile(null);
              if (fileInput.current) fileInput.current.value = '';
            }}
          >
            Remove file
          </Button>
        )}
      </div>
      <div className="space-y-2">
        <Label htmlFor={ids.description}>Description</Label>
        <Textarea
          id={ids.description}
          value={description}
          disabled={busy}
          placeholder="How did it go?"
          onChange={(event) => {
            setDescription(event.target.value);
            setError(null);
          }}
        />
      </div>
      {percent !== null && (
        <div className="space-y-1">
          <progress
            // accent-color does not reach Chromium's <progress>: its bar and value are styled directly.
            className="h-2 w-full appearance-none overflow-hidden rounded-full accent-primary [&::-moz-progress-bar]:bg-primary [&::-webkit-progress-bar]:bg-muted [&::-webkit-progress-value]:bg-primary"
            aria-label="Upload progress"
            max={100}
            value={percent}
          />
          <p className="text-xs text-muted-foreground">Uploading… {percent}%</p>
        </div>
      )}
      <p className="text-sm text-muted-foreground">{SUBMISSION_MESSAGES.entryPrompt}</p>
      {/* Said before the wallet is asked: the entry is paid by the entrant's own wallet. */}
      {entryCostSol && (
        <p className="text-sm text-muted-foreground">
          {SUBMISSION_MESSAGES.entryCost(entryCostLabel(entryCostSol))}
        </p>
      )}
      {/* A field's own problem already shows under it: not repeated here. */}
      <FieldError
        id={ids.error}
        message={error !== null && error !== urlProblem && error !== pickedProblem ? error : undefined}
      />
      <Button type="submit" className="w-full" disabled={busy}>
        <Upload aria-hidden />
        {busy ? (stage ? STAGE_LABELS[stage] : file ? 'Uploading…' : 'Submitting…') : 'Submit Video'}
      </Button>
    </form>
  );
}
