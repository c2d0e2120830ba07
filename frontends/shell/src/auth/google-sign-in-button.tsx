// Google Identity Services button. The script is loaded only when this renders, which happens only
// when GET /api/auth/config reports Google sign-in enabled (never in tests without a client id).
import { useEffect, useRef } from 'react';

const GSI_SRC = 'https://accounts.google.com/gsi/client';

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(config: {
        client_id: string;
        callback: (response: { credential?: string; select_by?: string }) => void;
        ux_mode?: 'popup' | 'redirect';
      }): void;
      renderButton(parent: HTMLElement, options: Record<string, unknown>): void;
    };
  };
}

let loading: Promise<GoogleIdentity> | null = null;

function loadGsi(): Promise<GoogleIdentity> {
  const existing = (window as unknown as { google?: GoogleIdentity }).google;
  if (existing?.accounts?.id) return Promise.resolve(existing);
  loading ??= new Promise<GoogleIdentity>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GSI_SRC;
    script.async = true;
    script.onload = () => {
      const google = (window as unknown as { google?: GoogleIdentity }).google;
      if (google?.accounts?.id) resolve(google);
      else reject(new Error('Google Identity Services did not initialise'));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error('Google Identity Services could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export interface GoogleSignInButtonProps {
  clientId: string;
  onCredential: (credential: string | undefined) => void;
  onWidgetError: () => void;
}

export function GoogleSignInButton({ clientId, onCredential, onWidgetError }: GoogleSignInButtonProps) {
  const host = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onCredential, onWidgetError });
  handlers.current = { onCredential, onWidgetError };

  useEffect(() => {
    let cancelled = false;
    loadGsi()
      .then((google) => {
        if (cancelled || !host.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          ux_mode: 'popup',
          callback: (response) => handlers.current.onCredential(response.credential),
        });
        google.accounts.id.renderButton(host.current, {
          theme: 'filled_black',
          size: 'large',
          shape: 'pill',
          width: 320,
        });
      })
      .catch((err: unknown) => {
        console.warn('Google sign-in widget failed', err);
        if (!cancelled) handlers.current.onWidgetError();
      });
    return () => {
      cancelled = true;
    };
  }, [clientId]);

  return <div ref={host} className="kb-auth__google-button" />;
}
