import { type ReactNode, useEffect, useState } from 'react';
import { TOAST } from '../../../contract/limits';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: 'default' | 'destructive';
  action?: ReactNode;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

/**
 * The shadcn toast store: a module-level list so `toast()` works outside React (in services and
 * mutation callbacks). Spec: one visible at a time; a dismissed toast is removed after 1,000,000 ms.
 */
let toasts: ToastItem[] = [];
const listeners = new Set<(items: ToastItem[]) => void>();
const removals = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function emit() {
  for (const listener of listeners) listener(toasts);
}

export function dismissToast(id?: string) {
  toasts = toasts.map((item) => (id === undefined || item.id === id ? { ...item, open: false } : item));
  for (const item of toasts) {
    if (item.open || removals.has(item.id)) continue;
    removals.set(
      item.id,
      setTimeout(() => {
        removals.delete(item.id);
        toasts = toasts.filter((other) => other.id !== item.id);
        emit();
      }, TOAST.removeDelayMs),
    );
  }
  emit();
}

export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  toasts = [{ ...input, id, open: true }, ...toasts].slice(0, TOAST.limit);
  emit();
  return { id, dismiss: () => dismissToast(id) };
}

export function useToast() {
  const [items, setItems] = useState(toasts);
  useEffect(() => {
    listeners.add(setItems);
    return () => {
      listeners.delete(setItems);
    };
  }, []);
  return { toasts: items, toast, dismiss: dismissToast };
}
