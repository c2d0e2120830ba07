// The router's default error element (docs/product.md#startup-error-screen): "Unexpected Application Error!".
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Button } from '@kaboodle/kit';

export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error ?? '');
  return (
    <main className="kb-startup-error" role="alert">
      <div className="kb-frame kb-startup-error__card">
        <h1>Unexpected Application Error!</h1>
        {detail && <p className="kb-startup-error__message">{detail}</p>}
        <Button onClick={() => window.location.assign('/')}>Back to Kaboodle</Button>
      </div>
    </main>
  );
}
