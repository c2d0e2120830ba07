// The startup error screen, shown in place of the app on any uncaught error
// (docs/product.md#startup-error-screen).
import { Component, useEffect, useState, type ReactNode } from 'react';
import { Button } from '@kaboodle/kit';
import { errorDetails, onStartupError, reportStartupError } from './startup-errors.ts';

export function StartupErrorScreen({ error }: { error: unknown }) {
  return (
    <main className="kb-startup-error" role="alert" aria-labelledby="startup-error-title">
      <div className="kb-frame kb-startup-error__card">
        <p className="kb-eyebrow">Kaboodle</p>
        <h1 id="startup-error-title">Initialization Error</h1>
        <p>Something went wrong during startup. Attempting recovery...</p>
        <Button size="lg" onClick={() => window.location.reload()}>
          Reload Application
        </Button>
        <details className="kb-startup-error__details">
          <summary>Error details</summary>
          <pre>{errorDetails(error)}</pre>
        </details>
      </div>
    </main>
  );
}

/** Render errors inside React reach the same screen as window errors. */
class RenderErrorBoundary extends Component<{ children: ReactNode }, { error: unknown; failed: boolean }> {
  override state = { error: null as unknown, failed: false };
  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('Uncaught render error', error);
  }
  override render() {
    return this.state.failed ? <StartupErrorScreen error={this.state.error} /> : this.props.children;
  }
}

export function StartupErrorGate({ children }: { children: ReactNode }) {
  const [caught, setCaught] = useState<{ error: unknown } | null>(null);
  useEffect(() => onStartupError((error) => setCaught((prev) => prev ?? { error })), []);
  if (caught) return <StartupErrorScreen error={caught.error} />;
  return <RenderErrorBoundary>{children}</RenderErrorBoundary>;
}

export { reportStartupError };
