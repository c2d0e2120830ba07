// The shell's React root: startup error gate → session → router.
import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { SessionProvider } from '../session/session-context.tsx';
import { StartupErrorGate } from '../startup/startup-error-screen.tsx';
import { createAppRouter } from './router.tsx';

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <StartupErrorGate>
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </StartupErrorGate>
  );
}
