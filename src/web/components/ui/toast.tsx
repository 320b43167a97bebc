import * as ToastPrimitive from '@radix-ui/react-toast';
import { cva, type VariantProps } from 'class-variance-authority';
import { X } from 'lucide-react';
import type { ComponentProps } from 'react';
import { TOAST } from '#contract/limits';
import { cn } from '#web/lib/utils';

/** docs/product.md#limits-and-constants: 5000 ms, swipe right past 50 px. */
export function ToastProvider(props: ComponentProps<typeof ToastPrimitive.Provider>) {
  return (
    <ToastPrimitive.Provider
      duration={TOAST.durationMs}
      swipeDirection="right"
      swipeThreshold={TOAST.swipeThresholdPx}
      {...props}
    />
  );
}

/** docs/product.md#limits-and-constants: F8 moves focus to the notifications. */
export function ToastViewport({ className, ...props }: ComponentProps<typeof ToastPrimitive.Viewport>) {
  return (
    <ToastPrimitive.Viewport
      hotkey={[...TOAST.hotkey]}
      className={cn(
        // At the bottom at every width: at the top of a phone they hid the header and what a page
        // shows first (a new dare's badges, the registration dialog's head) for their 5 s.
        'fixed right-0 bottom-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 outline-none md:max-w-[420px]',
        className,
      )}
      {...props}
    />
  );
}

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-md border p-4 pr-8 shadow-lg transition-transform data-[swipe=cancel]:translate-x-0 data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)]',
  {
    variants: {
      variant: {
        default: 'bg-card text-card-foreground',
        destructive: 'border-destructive bg-destructive text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export type ToastVariant = NonNullable<VariantProps<typeof toastVariants>['variant']>;

/**
 * A toast is the newest dismissable layer, so Radix gives it the Escape meant for an open dialog
 * (issue 18: Escape twice to close a dialog). With a dialog open, Escape closes the dialog through
 * its own close button (which honours a dialog that refuses to close mid-payment) and the toast stays.
 */
function escapeToOpenDialog(event: KeyboardEvent) {
  const dialogs = document.querySelectorAll('[role="dialog"][data-state="open"]');
  const top = dialogs[dialogs.length - 1];
  const close = top?.querySelector<HTMLButtonElement>('[data-dialog-close]');
  if (!close) return;
  event.preventDefault();
  close.click();
}

export function Toast({
  className,
  variant,
  onEscapeKeyDown,
  ...props
}: ComponentProps<typeof ToastPrimitive.Root> & VariantProps<typeof toastVariants>) {
  return (
    <ToastPrimitive.Root
      className={cn(toastVariants({ variant }), className)}
      onEscapeKeyDown={(event) => {
        onEscapeKeyDown?.(event);
        if (!event.defaultPrevented) escapeToOpenDialog(event);
      }}
      {...props}
    />
  );
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof ToastPrimitive.Title>) {
  return <ToastPrimitive.Title className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({ className, ...props }: ComponentProps<typeof ToastPrimitive.Description>) {
  return <ToastPrimitive.Description className={cn('text-sm opacity-90', className)} {...props} />;
}

export function ToastClose({ className, ...props }: ComponentProps<typeof ToastPrimitive.Close>) {
  return (
    <ToastPrimitive.Close
      className={cn('absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100', className)}
      {...props}
    >
      <X className="size-4" aria-hidden />
      <span className="sr-only">Close</span>
    </ToastPrimitive.Close>
  );
}

export const ToastAction = ToastPrimitive.Action;
