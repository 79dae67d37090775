import { useState, type FormEvent } from 'react';
import { Banner } from '../../../components/banner.js';
import { Button } from '../../../components/button.js';
import { Field } from '../../../components/field.js';
import { ApiError } from '../../../lib/api-client.js';
import { isEmailShape } from '../../../lib/email.js';
import { createWorker } from './api.js';

const MIN_PASSWORD = 8;

/** Create Worker: full name, e-mail, password; the worker reports to this manager (spec 002). */
export function CreateWorkerTab() {
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSuccess(null);
    if (!fullName.trim() || !email.trim() || !password) {
      setError('Please fill in all fields.');
      return;
    }
    if (password.length < MIN_PASSWORD) {
      setError('Password must be at least 8 characters long.');
      return;
    }
    // The server's checks, in its order, so a malformed address is told before any request.
    if (!isEmailShape(email)) {
      setError('Please enter a valid email address.');
      return;
    }
    setSaving(true);
    try {
      await createWorker({ fullName: fullName.trim(), email: email.trim(), password });
      setSuccess(`Worker account for ${email.trim()} created successfully!`);
      setFullName('');
      setEmail('');
      setPassword('');
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) setError('A user with this email already exists. Please try a different email.');
      else if (err instanceof ApiError && err.status !== null && err.status >= 400 && err.status < 500) setError(err.message);
      else if (err instanceof ApiError && err.status !== null) setError(`Function returned status ${err.status}. Check function logs.`);
      else setError(err instanceof Error ? err.message : 'An unexpected error occurred.');
    } finally {
      setSaving(false);
    }
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
        {error && <Banner variant="error">{error}</Banner>}
        {success && <Banner variant="success">{success}</Banner>}
        <Button type="submit" loading={saving} loadingText="Creating...">
          Create Worker
        </Button>
      </form>
    </section>
  );
}
