// /auth-callback (docs/product.md#auth-callback): credential → Google sign-in then /dashboard; code →
// /dashboard (only logged); anything else, or any failure → /?error=auth_failed.
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useSession } from '../session/session-context.tsx';

export const AUTH_FAILED_PATH = '/?error=auth_failed';

export default function AuthCallbackScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { loginWithGoogle, service } = useSession();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // StrictMode runs effects twice in development
    started.current = true;
    const run = async () => {
      try {
        const credential = params.get('credential');
        const code = params.get('code');
        if (credential) {
          const config = await service.googleConfig();
          const ok = await loginWithGoogle(credential, params.get('clientId') ?? config.clientId ?? '');
          void navigate(ok ? '/dashboard' : AUTH_FAILED_PATH, { replace: true });
        } else if (code) {
          console.warn('Auth callback received an authorization code; continuing to the dashboard');
          void navigate('/dashboard', { replace: true });
        } else {
          void navigate(AUTH_FAILED_PATH, { replace: true });
        }
      } catch (err) {
        console.error('Auth callback failed', err);
        void navigate(AUTH_FAILED_PATH, { replace: true });
      }
    };
    void run();
  }, [params, navigate, loginWithGoogle, service]);

  return (
    <main className="kb-callback" aria-busy="true">
      <div className="kb-frame kb-callback__card">
        <div className="kb-auth__spinner" aria-hidden="true" />
        <h1>Completing Sign In...</h1>
        <p>Please wait while we verify your authentication.</p>
      </div>
    </main>
  );
}
