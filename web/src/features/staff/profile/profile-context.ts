import { useOutletContext } from 'react-router-dom';
import type { ProfileDetails } from './api/calls.js';

/** What the User Profile shell hands its tabs: the route user, their details and a reload. */
export type ProfileContext = {
  userId: string;
  details: ProfileDetails | null;
  /** Loads the details again (after a ban, KYC approval, note, address or transaction). */
  reload: () => Promise<void>;
};

export function useProfile(): ProfileContext {
  return useOutletContext<ProfileContext>();
}
