// Runs after module federation has negotiated the shared singletons (see index.ts).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@kaboodle/kit/theme.css';
import './shell.css';
import { App } from './app/app.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
