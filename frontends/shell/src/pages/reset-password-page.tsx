// /reset-password?token=… (the link Kaboodle mails after "Forgot password?"): choose a new password
// under the password rule, twice. Success signs this browser in (every other session has ended)
// and goes to the dashboard.
import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Banner, Button, OrnamentalFrame, TickMascot } from '@kaboodle/kit';
import { PASSWORDS_DIFFER } from '../auth/auth-texts.ts';
import { useSession } from '../session/session-context.tsx';
import { useShellActions } from '../app/shell-actions.tsx';
import { PASSWORD_RULE_HINT } from './account-api.ts';
import { PublicLayout } from './public-layout.tsx';

export const NO_RESET_TOKEN =
  'This link has no reset code. Open the link from the email exactly as it was sent.';

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const { resetPassword, error, clearError } = useSession();
  const { openAuthDialog } = useShellActions();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(token ? null : NO_RESET_TOKEN);
  const [saving, setSaving] = useState(false);

  const edit = (set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setProblem(token ? null : NO_RESET_TOKEN);
    clearError();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!token || !password) return;
    if (password !== confirm) {
      setProblem(PASSWORDS_DIFFER);
      return;
    }
    setSaving(true);
    const ok = await resetPassword(token, password);
    setSaving(false);
    if (ok) void navigate('/dashboard', { replace: true });
  };

  const shown = problem ?? error;
  return (
    <PublicLayout>
      <div className="kbp-container kbp-centre">
        <OrnamentalFrame
          as="section"
          className="kbp-placeholder kbp-link-card"
          aria-labelledby="kbp-reset-title"
        >
          <div className="kbp-placeholder-art">
            <TickMascot size={96} pose="idle" title="" />
          </div>
          <h1 id="kbp-reset-title">Choose a new password</h1>
          <p className="kbp-muted">Setting it signs you out on every other device.</p>
          {shown && <Banner tone="error">{shown}</Banner>}
          <form className="kbp-link-form" onSubmit={submit}>
            <div className="kb-field">
              <label htmlFor="kbp-reset-password">New password</label>
              <input
                id="kbp-reset-password"
                name="new_password"
                type="password"
                autoComplete="new-password"
                required
                value={password}
                aria-describedby="kbp-reset-rule"
                onChange={edit(setPassword)}
              />
              <span id="kbp-reset-rule" className="kbp-field-hint">
                {PASSWORD_RULE_HINT}
              </span>
            </div>
            <div className="kb-field">
              <label htmlFor="kbp-reset-confirm">Confirm new password</label>
              <input
                id="kbp-reset-confirm"
                name="confirm_password"
                type="password"
                autoComplete="new-password"
                required
                value={confirm}
                aria-invalid={confirm !== '' && confirm !== password}
                onChange={edit(setConfirm)}
              />
            </div>
            <Button type="submit" block disabled={saving || !token}>
              {saving ? 'Saving…' : 'Set new password'}
            </Button>
          </form>
          <p className="kbp-muted">
            Link expired?{' '}
            <button
              type="button"
              className="kb-link-button"
              onClick={() => openAuthDialog({ initialStep: 'forgot' })}
            >
              Ask for a new one
            </button>
          </p>
        </OrnamentalFrame>
      </div>
    </PublicLayout>
  );
}
