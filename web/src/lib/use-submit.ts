import { useCallback, useEffect, useRef, useState } from 'react';
import { serverWords } from './error-text.js';

/** A refusal an action reports in its own words (e.g. an answer of `{success: false}`): shown as it is. */
export class Refusal extends Error {
  override readonly name = 'Refusal';
}

/** What an action's failure shows: a fixed fallback behind the server's words, or a function of the error. */
export type Failure = string | ((error: unknown) => string);

/**
 * What an action answers when it ends by leaving the screen (a navigation): the form stays busy
 * until the screen is gone, rather than showing its idle button for the moment in between.
 */
export const LEAVING = Symbol('leaving the screen');

/** An action's answer: a success message, nothing, or LEAVING. */
export type Outcome = string | void | typeof LEAVING;

export type Submit<K extends string = string> = {
  /** Which action is under way (the key given to `run`), or null. */
  busyWith: K | null;
  busy: boolean;
  /** The last error; it clears itself after `errorMs` (null, the default: it stays until the next run or `reset`). */
  error: string | null;
  /** The last success message; it clears itself after `successMs` (null: it stays until `reset`). */
  success: string | null;
  /**
   * Runs `action`: busy meanwhile, the earlier messages cleared; its answer (a text) becomes the
   * success message (LEAVING: it stays busy); a failure shows a Refusal's words, else the server's
   * words behind `failure` (or what `failure` makes of the error). Resolves true when it succeeded.
   */
  run: (action: () => Promise<Outcome>, failure: Failure, key?: K) => Promise<boolean>;
  /** Shows an error without calling anything (a check before sending). */
  fail: (message: string) => void;
  /** Clears the error and keeps a success showing (an edit after a success). */
  clearError: () => void;
  /** Clears both messages. */
  reset: () => void;
};

/**
 * The busy, error and success state of a form or an action button: one definition for the
 * pattern every form of the app repeated (set busy, clear the error, try, show the success,
 * catch and show the error, finally not busy).
 */
export function useSubmit<K extends string = string>({
  successMs = 3000,
  errorMs = null,
}: { successMs?: number | null; errorMs?: number | null } = {}): Submit<K> {
  const [busyWith, setBusyWith] = useState<K | null>(null);
  const [error, setErrorState] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const errorTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      clearTimeout(timer.current);
      clearTimeout(errorTimer.current);
    };
  }, []);

  const setError = useCallback(
    (message: string | null) => {
      clearTimeout(errorTimer.current);
      setErrorState(message);
      if (message && errorMs !== null) errorTimer.current = setTimeout(() => setErrorState(null), errorMs);
    },
    [errorMs],
  );

  const showSuccess = useCallback(
    (message: string | null) => {
      clearTimeout(timer.current);
      setSuccess(message);
      if (message && successMs !== null) timer.current = setTimeout(() => setSuccess(null), successMs);
    },
    [successMs],
  );

  const run = useCallback(
    async (action: () => Promise<Outcome>, failure: Failure, key?: K): Promise<boolean> => {
      setBusyWith(key ?? ('submit' as K));
      setError(null);
      let leaving = false;
      try {
        const outcome = await action();
        leaving = outcome === LEAVING;
        if (mounted.current && typeof outcome === 'string' && outcome) showSuccess(outcome);
        return true;
      } catch (e) {
        if (!mounted.current) return false;
        if (e instanceof Refusal) setError(e.message);
        else setError(typeof failure === 'function' ? failure(e) : serverWords(e, failure));
        return false;
      } finally {
        if (mounted.current && !leaving) setBusyWith(null);
      }
    },
    [showSuccess, setError],
  );

  const fail = useCallback((message: string) => setError(message), [setError]);
  const clearError = useCallback(() => setError(null), [setError]);
  const reset = useCallback(() => {
    setError(null);
    showSuccess(null);
  }, [showSuccess, setError]);

  return { busyWith, busy: busyWith !== null, error, success, run, fail, clearError, reset };
}
