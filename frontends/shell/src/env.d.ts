// Build-time globals and module shapes the shell's TypeScript needs to know about.
declare const __KABOODLE_VERSION__: string;

declare module '*.css';

// Federated remotes (module-federation.config.ts): each exposes its routes as ./App.
declare module 'dashboard/App' {
  import type { ComponentType } from 'react';
  import type { RemoteAppProps } from '@kaboodle/kit';
  const App: ComponentType<RemoteAppProps>;
  export default App;
}
declare module 'vault/App' {
  import type { ComponentType } from 'react';
  import type { RemoteAppProps } from '@kaboodle/kit';
  const App: ComponentType<RemoteAppProps>;
  export default App;
}
declare module 'inventory/App' {
  import type { ComponentType } from 'react';
  import type { RemoteAppProps } from '@kaboodle/kit';
  const App: ComponentType<RemoteAppProps>;
  export default App;
}
declare module 'observatory/App' {
  import type { ComponentType } from 'react';
  import type { RemoteAppProps } from '@kaboodle/kit';
  const App: ComponentType<RemoteAppProps>;
  export default App;
}
