import type { FormEvent } from 'react';
import { Button } from '@/components/button.js';
import { Field } from '@/components/field.js';

/** A step that asks for the password before it acts: the text, the field, Cancel and the action. */
export function PasswordConfirmForm(props: {
  intro: string;
  name: string;
  password: string;
  onPasswordChange: (value: string) => void;
  onSubmit: (e: FormEvent) => void;
  onCancel: () => void;
  busy: boolean;
  submitLabel: string;
  loadingText: string;
  danger?: boolean;
}) {
  return (
    <form className="mfa-panel" onSubmit={props.onSubmit} noValidate>
      <p>{props.intro}</p>
      <Field
        label="Password"
        name={props.name}
        type="password"
        autoComplete="current-password"
        value={props.password}
        onChange={(e) => props.onPasswordChange(e.target.value)}
        autoFocus
      />
      <div className="mfa-panel__actions">
        <Button variant="secondary" onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </Button>
        <Button type="submit" variant={props.danger ? 'danger' : undefined} loading={props.busy} loadingText={props.loadingText}>
          {props.submitLabel}
        </Button>
      </div>
    </form>
  );
}
