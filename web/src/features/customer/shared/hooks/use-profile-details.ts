import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../../lib/api-client.js';
import { useSession } from '../../../../lib/session.js';
import { fetchProfileDetails, PROFILE_MESSAGES, type ProfileDetails } from '../api/profile.js';

export type ProfileState = {
  profile: ProfileDetails | null;
  loading: boolean;
  /** The server's message, 'No data returned ...' or 'Failed to fetch wallet details.'. */
  error: string | null;
  /** Reads the details again (after a deposit, withdrawal or send); the shown ones stay meanwhile. */
  reload: () => void;
};

function messageOf(error: unknown): string {
  if (error instanceof ApiError && error.status !== null && error.message) return error.message;
  return PROFILE_MESSAGES.failed;
}

/** The signed-in customer's profile details: balances, pending amounts, addresses, flags, KYC status. */
export function useProfileDetails(): ProfileState {
  const userId = useSession((s) => s.user?.id ?? null);
  const [profile, setProfile] = useState<ProfileDetails | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const controllerRef = useRef<AbortController | null>(null);

  useEffect(() => {
    if (!userId) {
      setLoading(false);
      setError(PROFILE_MESSAGES.failed);
      return;
    }
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    setLoading(true);
    fetchProfileDetails(userId, controller.signal)
      .then((details) => {
        if (controller.signal.aborted) return;
        setProfile(details);
        setError(null);
      })
      .catch((e: unknown) => {
        if (controller.signal.aborted) return;
        setError(messageOf(e));
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [userId, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { profile, loading, error, reload };
}
