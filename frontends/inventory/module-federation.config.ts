// The inventory remote: /inventory and /inventory/:id, mounted by the shell.
import type { moduleFederationPlugin } from '@module-federation/sdk';
import { sharedSingletons } from '../kit/build/create-rspack-config.ts';

export default {
  name: 'inventory',
  filename: 'remoteEntry.js',
  exposes: { './App': './src/app.tsx' },
  manifest: true,
  shared: sharedSingletons(false),
} satisfies moduleFederationPlugin.ModuleFederationPluginOptions;
