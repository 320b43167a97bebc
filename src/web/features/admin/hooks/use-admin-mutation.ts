import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { toast } from '#web/components/ui/use-toast';

interface Toast {
  title: string;
  description?: ReactNode;
}

/** An admin action: its success or failure toast, then every read is fetched again. */
export function useAdminMutation<Input, Output>(
  run: (input: Input) => Promise<Output>,
  messages: { success: string | ((output: Output) => Toast); failure: string },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (output) =>
      toast(typeof messages.success === 'string' ? { title: messages.success } : messages.success(output)),
    onError: (error) =>
      toast({ title: messages.failure, description: error.message, variant: 'destructive' }),
    // Moderation changes lists, stats, pools and the public submission lists alike.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
