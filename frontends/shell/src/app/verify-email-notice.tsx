// The notice above every signed-in page while an address waits for its verification link (the
// account's own, or a new one from the profile page), with "Resend link". Privileges tied to an
// address (ADMIN_EMAILS) apply only once it is verified, so the notice stays until then.
import { useEffect, useState } from 'react';
import { Banner, Button } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { accountApi, errorText } from '../pages/account-api.ts';

export function VerifyEmailNotice() {
  const { user, refreshUser } = useSession();
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const waitingFor = user?.pending_email ?? (user?.email_verified_at === null ? user.email : null);

  // The link is often opened on another device or tab: look again when this tab comes back.
  useEffect(() => {
    if (!waitingFor) return;
    const onFocus = () => void refreshUser();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [waitingFor, refreshUser]);

  if (!user || !waitingFor) return null;

  const resend = async () => {
    setSending(true);
    setResult(null);
    try {
      const res = await accountApi.resendVerification();
      setResult({ tone: 'success', text: res?.message?.trim() || `We sent a new link to ${waitingFor}.` });
    } catch (err) {
      setResult({ tone: 'error', text: errorText(err, 'Sending the link failed.') });
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="kb-verify-notice" data-testid="verify-email-notice">
      <Banner tone={result?.tone ?? 'warning'}>
        <div className="kb-verify-notice__body">
          <p>
            {result?.text ??
              (user.pending_email
                ? `Confirm your new email address: we sent a link to ${user.pending_email}. Until you open it, you sign in with ${user.email}.`
                : `Please verify your email address: we sent a link to ${user.email}.`)}
          </p>
          <Button variant="secondary" size="sm" onClick={() => void resend()} disabled={sending}>
            {sending ? 'Sending…' : 'Resend link'}
          </Button>
        </div>
      </Banner>
    </div>
  );
}
