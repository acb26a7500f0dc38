/** Small hooks the pages share: loading data with its error, debouncing input, polling. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Load<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
  /** Replaces the data after a change the page made itself (no request). */
  set(data: T): void;
}

/** Runs `load` now and whenever `deps` change; an answer that arrives after a newer request started is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Load<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({ data: undefined, error: undefined, loading: true });
  const sequence = useRef(0);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    const mine = ++sequence.current;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load().then(
      (data) => {
        if (mine === sequence.current) setState({ data, error: undefined, loading: false });
      },
      (error: unknown) => {
        if (mine === sequence.current) setState((s) => ({ ...s, error, loading: false }));
      },
    );
    return () => {
      // A newer run or an unmount makes this run's answer stale.
      if (mine === sequence.current) sequence.current++;
    };
  }, [...deps, tick]);

  const reload = useCallback(() => setTick((n) => n + 1), []);
  const set = useCallback((data: T) => setState({ data, error: undefined, loading: false }), []);
  return { ...state, reload, set };
}

export function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** Calls `tick` every `intervalMs` while `active`, one call at a time. */
export function usePoll(tick: () => Promise<unknown>, intervalMs: number, active: boolean): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const loop = async () => {
      await latest.current().catch(() => undefined);
      if (!stopped) timer = setTimeout(() => void loop(), intervalMs);
    };
    timer = setTimeout(() => void loop(), intervalMs);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [active, intervalMs]);
}

/** A random id for Idempotency-Key: crypto.randomUUID needs a secure context, getRandomValues does not. */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
