import { type ReactNode, useEffect, useState } from 'react';
import { TOAST } from '#contract/limits';
import type { ToastVariant } from './toast';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** A `ToastAction` element. */
  action?: ReactNode;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

/**
 * The shadcn toast store: module state, so `toast()` works outside React (mutation callbacks,
 * the auth provider). docs/product.md#limits-and-constants: one visible at a time; a dismissed toast stays mounted for
 * 1,000,000 ms (Radix plays its exit and keeps focus order stable) before it is removed.
 */
let toasts: ToastItem[] = [];
const listeners = new Set<(items: ToastItem[]) => void>();
const removals = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function emit() {
  for (const listener of listeners) listener(toasts);
}

function scheduleRemoval(id: string) {
  if (removals.has(id)) return;
  removals.set(
    id,
    setTimeout(() => {
      removals.delete(id);
      toasts = toasts.filter((item) => item.id !== id);
      emit();
    }, TOAST.removeDelayMs),
  );
}

export function dismissToast(id?: string) {
  toasts = toasts.map((item) => (id === undefined || item.id === id ? { ...item, open: false } : item));
  for (const item of toasts) if (!item.open) scheduleRemoval(item.id);
  emit();
}

export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const next = [{ ...input, id, open: true }, ...toasts];
  // Past the limit a toast goes at once: its pending removal timer has nothing left to do.
  for (const dropped of next.slice(TOAST.limit)) {
    clearTimeout(removals.get(dropped.id));
    removals.delete(dropped.id);
  }
  toasts = next.slice(0, TOAST.limit);
  emit();
  return { id, dismiss: () => dismissToast(id) };
}

/** The current list, outside React. */
export function getToasts(): readonly ToastItem[] {
  return toasts;
}

export function useToast() {
  const [items, setItems] = useState(toasts);
  useEffect(() => {
    listeners.add(setItems);
    // A toast raised between the first render and this subscription would otherwise be missed.
    setItems(toasts);
    return () => {
      listeners.delete(setItems);
    };
  }, []);
  return { toasts: items, toast, dismiss: dismissToast };
}
