import { useState, type FormEvent } from 'react';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { SubmitMessages } from '@/components/submit-messages.js';
import { ApiError } from '@/lib/api-client.js';
import { Refusal, useSubmit } from '@/lib/use-submit.js';
import { claimUser, searchUserByEmail, SEARCH_TEXT, type FoundUser } from './api.js';

/** Search User: exact e-mail, then Claim (spec 002, Worker Dashboard). */
export function SearchUserTab() {
  const [email, setEmail] = useState('');
  const [found, setFound] = useState<FoundUser | null>(null);
  // One pair of messages for both actions; a success stays until the next one.
  const submit = useSubmit<'search' | 'claim'>({ successMs: null });

  const search = async (event: FormEvent) => {
    event.preventDefault();
    submit.reset();
    setFound(null);
    if (!email.trim()) return submit.fail('Please enter an email address.');
    await submit.run(
      async () => {
        const answer = await searchUserByEmail(email.trim());
        if (answer.user === null) throw new Refusal(answer.message ?? 'User not found.');
        setFound(answer.user);
      },
      (err) => (err instanceof ApiError && err.status !== null ? err.message : 'An error occurred during the search.'),
      'search',
    );
  };

  const claim = async () => {
    if (!found) return;
    submit.reset();
    await submit.run(
      async () => {
        const answer = await claimUser(found.id);
        if (!answer.success) throw new Refusal(SEARCH_TEXT.unexpectedClaim);
        setFound(null);
        return 'User successfully claimed!';
      },
      (err) => {
        if (err instanceof ApiError && err.status === 409) return 'Cannot claim user: User may already be assigned or is not claimable.';
        return err instanceof ApiError && err.status !== null ? err.message : 'Failed to claim user.';
      },
      'claim',
    );
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
        <Button type="submit" loading={submit.busyWith === 'search'} loadingText="Searching...">
          Search
        </Button>
      </form>
      <SubmitMessages submit={submit} />
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
          <Button onClick={claim} loading={submit.busyWith === 'claim'} loadingText="Claiming...">
            Claim
          </Button>
        </div>
      )}
    </section>
  );
}
