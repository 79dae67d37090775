import { useState, type FormEvent } from 'react';
import { SubmitMessages } from '@/components/submit-messages.js';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';
import { ApiError } from '@/lib/api-client.js';
import { isEmailShape } from '@/lib/email.js';
import { useSubmit } from '@/lib/use-submit.js';
import { createWorker } from './api.js';

const MIN_PASSWORD = 8;

function createFailure(err: unknown): string {
  if (err instanceof ApiError && err.status === 409) return 'A user with this email already exists. Please try a different email.';
  if (err instanceof ApiError && err.status !== null && err.status >= 400 && err.status < 500) return err.message;
  if (err instanceof ApiError && err.status !== null) return `Function returned status ${err.status}. Check function logs.`;
  return err instanceof Error ? err.message : 'An unexpected error occurred.';
}

/** Create Worker: full name, e-mail, password; the worker reports to this manager (spec 002). */
export function CreateWorkerTab() {
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // The success stays until the next submit.
  const saving = useSubmit({ successMs: null });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    saving.reset();
    if (!fullName.trim() || !email.trim() || !password) return saving.fail('Please fill in all fields.');
    if (password.length < MIN_PASSWORD) return saving.fail('Password must be at least 8 characters long.');
    // The server's checks, in its order, so a malformed address is told before any request.
    if (!isEmailShape(email)) return saving.fail('Please enter a valid email address.');
    await saving.run(async () => {
      await createWorker({ fullName: fullName.trim(), email: email.trim(), password });
      setFullName('');
      setEmail('');
      setPassword('');
      return `Worker account for ${email.trim()} created successfully!`;
    }, createFailure);
  };

  return (
    <section className="card staff-card staff-card--narrow" aria-labelledby="create-worker-title">
      <h2 id="create-worker-title" className="card__title">
        Create Worker
      </h2>
      <p className="card__subtitle">The new worker is assigned to you and sets a password of their own at first sign-in.</p>
      <form className="form" onSubmit={submit} noValidate>
        <Field label="Full Name" name="fullName" value={fullName} onChange={(e) => setFullName(e.target.value)} autoComplete="off" />
        <Field label="Email" name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
        <Field
          label="Password"
          name="password"
          type="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoComplete="new-password"
          hint="At least 8 characters."
        />
        <SubmitMessages submit={saving} />
        <Button type="submit" loading={saving.busy} loadingText="Creating...">
          Create Worker
        </Button>
      </form>
    </section>
  );
}
