// The vault remote: /documents, /search and /kaboodles, mounted by the shell.
import type { moduleFederationPlugin } from '@module-federation/sdk';
import { sharedSingletons } from '../kit/build/create-rspack-config.ts';

export default {
  name: 'vault',
  filename: 'remoteEntry.js',
  exposes: { './App': './src/app.tsx' },
  manifest: true,
  shared: sharedSingletons(false),
} satisfies moduleFederationPlugin.ModuleFederationPluginOptions;
