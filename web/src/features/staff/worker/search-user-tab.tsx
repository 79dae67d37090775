import { useState, type FormEvent } from 'react';
import { Banner } from '../../../components/banner.js';
import { Button } from '../../../components/button.js';
import { Field } from '../../../components/field.js';
import { ApiError } from '../../../lib/api-client.js';
import { claimUser, searchUserByEmail, type FoundUser } from './api.js';

/** Search User: exact e-mail, then Claim (spec 002, Worker Dashboard). */
export function SearchUserTab() {
  const [email, setEmail] = useState('');
  const [found, setFound] = useState<FoundUser | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);
  const [claiming, setClaiming] = useState(false);

  const search = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSuccess(null);
    setFound(null);
    if (!email.trim()) {
      setError('Please enter an email address.');
      return;
    }
    setSearching(true);
    try {
      const answer = await searchUserByEmail(email.trim());
      if (answer && answer.user && typeof answer.user.id === 'string') setFound(answer.user);
      else if (answer && answer.user === null) setError(answer.message ?? 'User not found.');
      else setError('Received an unexpected response from the server.');
    } catch (err) {
      setError(err instanceof ApiError && err.status !== null ? err.message : 'An error occurred during the search.');
    } finally {
      setSearching(false);
    }
  };

  const claim = async () => {
    if (!found) return;
    setError(null);
    setSuccess(null);
    setClaiming(true);
    try {
      const answer = await claimUser(found.id);
      if (answer?.success) {
        setSuccess('User successfully claimed!');
        setFound(null);
      } else {
        setError('An unexpected response occurred during claim.');
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) setError('Cannot claim user: User may already be assigned or is not claimable.');
      else setError(err instanceof ApiError && err.status !== null ? err.message : 'Failed to claim user.');
    } finally {
      setClaiming(false);
    }
  };

  return (
    <section className="card staff-card" aria-labelledby="search-user-title">
      <h2 id="search-user-title" className="card__title">
        Search User
      </h2>
      <p className="card__subtitle">Find a user by their exact email address and claim them.</p>
      <form className="form staff-search" onSubmit={search} noValidate>
        <Field
          label="Email"
          name="emailToSearch"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="user@example.com"
          autoComplete="off"
        />
        <Button type="submit" loading={searching} loadingText="Searching...">
          Search
        </Button>
      </form>
      {error && <Banner variant="error">{error}</Banner>}
      {success && <Banner variant="success">{success}</Banner>}
      {found && (
        <div className="found-user" aria-label="Search result">
          <dl className="found-user__details">
            <div>
              <dt>Email</dt>
              <dd>{found.email}</dd>
            </div>
            <div>
              <dt>User ID</dt>
              <dd className="mono">{found.id}</dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>{found.role}</dd>
            </div>
          </dl>
          <Button onClick={claim} loading={claiming} loadingText="Claiming...">
            Claim
          </Button>
        </div>
      )}
    </section>
  );
}
