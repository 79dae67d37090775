import { useCallback, useEffect, useRef, useState } from 'react';

/** A message that clears itself `ms` after it was last set (success notices, the copy notice). */
export function useTimedMessage(ms: number): [string | null, (message: string | null) => void] {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const show = useCallback(
    (next: string | null) => {
      window.clearTimeout(timer.current);
      setMessage(next);
      if (next !== null) timer.current = window.setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );

  return [message, show];
}
