// The auth dialog's email and register steps (docs/product.md#authentication-dialog): email, password and,
// when registering, name and confirmPassword; the password rule under a new password, "Forgot password?"
// under an old one.
import type { FormEvent } from 'react';
import { Button } from '@kaboodle/kit';
import { PASSWORD_RULE_HINT } from '../pages/account-api.ts';

export interface CredentialsForm {
  email: string;
  password: string;
  name: string;
  confirmPassword: string;
}

export interface EmailStepProps {
  registering: boolean;
  form: CredentialsForm;
  update: (field: keyof CredentialsForm) => (e: { target: { value: string } }) => void;
  onSubmit: (e: FormEvent) => void;
  /** Switch between signing in and creating an account. */
  onToggle: () => void;
  onForgot: () => void;
}

export function EmailStep({ registering, form, update, onSubmit, onToggle, onForgot }: EmailStepProps) {
  return (
    <form className="kb-auth__form" onSubmit={onSubmit} noValidate={false}>
      {registering && (
        <div className="kb-field">
          <label htmlFor="auth-name">Name</label>
          <input
            id="auth-name"
            name="name"
            autoComplete="name"
            required
            value={form.name}
            onChange={update('name')}
          />
        </div>
      )}
      <div className="kb-field">
        <label htmlFor="auth-email">Email</label>
        <input
          id="auth-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={update('email')}
        />
      </div>
      <div className="kb-field">
        <label htmlFor="auth-password">Password</label>
        <input
          id="auth-password"
          name="password"
          type="password"
          autoComplete={registering ? 'new-password' : 'current-password'}
          required
          value={form.password}
          onChange={update('password')}
          aria-describedby={registering ? 'auth-password-rule' : undefined}
        />
        {registering ? (
          <span id="auth-password-rule" className="kb-auth__field-hint">
            {PASSWORD_RULE_HINT}
          </span>
        ) : (
          <button type="button" className="kb-link-button kb-auth__forgot" onClick={onForgot}>
            Forgot password?
          </button>
        )}
      </div>
      {registering && (
        <div className="kb-field">
          <label htmlFor="auth-confirm">Confirm password</label>
          <input
            id="auth-confirm"
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            required
            value={form.confirmPassword}
            onChange={update('confirmPassword')}
          />
        </div>
      )}
      <Button type="submit" block size="lg">
        {registering ? 'Create Account' : 'Sign In'}
      </Button>
      <p className="kb-auth__hint">
        {registering ? 'Already have an account? ' : 'No account yet? '}
        <button type="button" className="kb-link-button" onClick={onToggle}>
          {registering ? 'Sign in' : 'Create Account'}
        </button>
      </p>
    </form>
  );
}
