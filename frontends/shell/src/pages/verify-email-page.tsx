// /verify-email?token=… (the link Kaboodle mails): opens the link once, says what it did, and offers
// the next step. Signed in, the session is read again so the new state (and any admin role) shows.
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Banner, Button, OrnamentalFrame, TickMascot } from '@kaboodle/kit';
import { useSession } from '../session/session-context.tsx';
import { useShellActions } from '../app/shell-actions.tsx';
import { accountApi, errorText } from './account-api.ts';
import { PublicLayout } from './public-layout.tsx';

type State =
  { phase: 'verifying' } | { phase: 'verified'; message: string } | { phase: 'failed'; message: string };

export const NO_TOKEN =
  'This link has no verification code. Open the link from the email exactly as it was sent.';

export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { user, refreshUser } = useSession();
  const { openAuthDialog } = useShellActions();
  const [state, setState] = useState<State>(
    token ? { phase: 'verifying' } : { phase: 'failed', message: NO_TOKEN },
  );
  const [resent, setResent] = useState<string | null>(null);
  // A link works once: never open it twice (React may run effects twice in development).
  const opened = useRef(false);

  useEffect(() => {
    if (!token || opened.current) return;
    opened.current = true;
    void accountApi.verifyEmail(token).then(
      async (res) => {
        setState({ phase: 'verified', message: res?.message?.trim() || 'Your email address is verified.' });
        await refreshUser().catch(() => null);
      },
      (err: unknown) =>
        setState({ phase: 'failed', message: errorText(err, 'Verifying the address failed.') }),
    );
  }, [token, refreshUser]);

  const resend = async () => {
    try {
      setResent((await accountApi.resendVerification())?.message ?? 'We sent a new link.');
    } catch (err) {
      setResent(errorText(err, 'Sending the link failed.'));
    }
  };

  return (
    <PublicLayout>
      <div className="kbp-container kbp-centre">
        <OrnamentalFrame
          as="section"
          className="kbp-placeholder kbp-link-card"
          aria-labelledby="kbp-verify-title"
        >
          <div className="kbp-placeholder-art">
            <TickMascot size={96} pose={state.phase === 'failed' ? 'idle' : 'reading'} title="" />
          </div>
          <h1 id="kbp-verify-title">Email verification</h1>
          {state.phase === 'verifying' && (
            <p role="status" className="kbp-muted">
              Checking your link…
            </p>
          )}
          {state.phase === 'verified' && <Banner tone="success">{state.message}</Banner>}
          {state.phase === 'failed' && <Banner tone="error">{state.message}</Banner>}
          {resent && <Banner tone="info">{resent}</Banner>}
          <nav className="kbp-404-links" aria-label="Next step">
            {user ? (
              <Link to="/dashboard" className="kb-button kbp-link-button">
                Go to Dashboard
              </Link>
            ) : (
              <Button onClick={() => openAuthDialog({ initialStep: 'email' })}>Sign in</Button>
            )}
            {state.phase === 'failed' && user && (
              <Button variant="secondary" onClick={() => void resend()}>
                Send a new link
              </Button>
            )}
          </nav>
        </OrnamentalFrame>
      </div>
    </PublicLayout>
  );
}
