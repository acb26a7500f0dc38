/** Small hooks the pages share: loading data with its error, sending a change with its error, a list's row actions, paging by cursor, debouncing input, polling. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useAccount } from './context.js';
import { errorMessage } from './format.js';

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

export interface RequestState {
  /** True while a `submit` is under way, so its form cannot send it twice. */
  busy: boolean;
  /** The last failure, for an `<ErrorNotice>`; cleared when the next request starts. */
  error: unknown;
  /** A form's request: `busy` until it settles. */
  submit(send: () => Promise<void>): Promise<void>;
  /** A row button's request: it leaves `busy` alone, so the page's form stays usable meanwhile. */
  attempt(send: () => Promise<void>): Promise<void>;
}

/** The error and busy state of the changes a page sends; a failure is kept to be shown, never thrown. */
export function useRequest(): RequestState {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const run = async (send: () => Promise<void>, holdsBusy: boolean) => {
    if (holdsBusy) setBusy(true);
    setError(undefined);
    try {
      await send();
    } catch (failure) {
      setError(failure);
    } finally {
      if (holdsBusy) setBusy(false);
    }
  };
  return { busy, error, submit: (send) => run(send, true), attempt: (send) => run(send, false) };
}

export interface ListActions {
  request: RequestState;
  /** What the last change did, for a `<SuccessNotice>`; cleared when the next row action starts. */
  result: string | undefined;
  setResult(result: string | undefined): void;
  /** Says `text` (in the notice and aloud) and reloads the list. */
  done(text: string): void;
  /** A row button's change: then `done(text)`; a failure goes to `request.error` and is said aloud after `what`. */
  run(what: string, action: () => Promise<unknown>, text: string): Promise<void>;
}

/** The changes made from a list that `reload` reads again, each ending in a said and shown result. */
export function useListActions(reload: () => void): ListActions {
  const { announce } = useAccount();
  const request = useRequest();
  const [result, setResult] = useState<string>();
  const done = (text: string) => {
    setResult(text);
    announce(text);
    reload();
  };
  const run = (what: string, action: () => Promise<unknown>, text: string) =>
    request.attempt(async () => {
      setResult(undefined);
      await action().catch((failure: unknown) => {
        announce(`${what}: ${errorMessage(failure)}`);
        throw failure;
      });
      done(text);
    });
  return { request, result, setResult, done, run };
}

export interface CursorPages {
  /** The cursor of the page shown; undefined on the first. */
  cursor: string | undefined;
  /** 1-based. */
  page: number;
  previous(): void;
  /** Moves on to the page `cursor` opens; no cursor, no next page. */
  next(cursor: string | null | undefined): void;
}

/** Back and forth over cursor pages (cursors[i] opens page i + 1); when `filters` change, paging starts again at page one. */
export function useCursorPages(filters = ''): CursorPages {
  const [paging, setPaging] = useState<{ filters: string; cursors: (string | undefined)[] }>({ filters, cursors: [undefined] });
  const cursors = paging.filters === filters ? paging.cursors : [undefined];
  return {
    cursor: cursors[cursors.length - 1],
    page: cursors.length,
    previous: () => setPaging({ filters, cursors: cursors.slice(0, -1) }),
    next: (cursor) => {
      if (cursor) setPaging({ filters, cursors: [...cursors, cursor] });
    },
  };
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
