// One rspack pipeline for the shell (module-federation host) and every remote, so they build,
// minify, hash and share React the same way. Each app's rspack.config.ts is a few lines.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import rspack, { type Configuration } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import type { moduleFederationPlugin } from '@module-federation/sdk';
import type { Configuration as DevServerConfiguration } from '@rspack/dev-server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const reactRouterDist = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist',
);

/**
 * The product version shown in the navigation comes from the root package.json (docs/product.md#overview).
 */
export function readProductVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error('root package.json has no version');
  return pkg.version;
}

/** React, react-dom and the router are singletons; the host loads them eagerly, remotes borrow them. */
export function sharedSingletons(eager: boolean): moduleFederationPlugin.Shared {
  const deps = JSON.parse(readFileSync(path.join(repoRoot, 'frontends/shell/package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const shared: Record<string, moduleFederationPlugin.SharedConfig> = {};
  for (const name of ['react', 'react-dom', 'react-router-dom']) {
    const requiredVersion = deps.dependencies[name];
    if (!requiredVersion) throw new Error(`frontends/shell/package.json lacks ${name}`);
    shared[name] = { singleton: true, eager, requiredVersion };
  }
  // The JSX runtime and the client renderer must come from the same shared copies.
  shared['react/jsx-runtime'] = { singleton: true, eager, requiredVersion: deps.dependencies.react };
  shared['react-dom/client'] = { singleton: true, eager, requiredVersion: deps.dependencies['react-dom'] };
  // The kit is deliberately not shared: a shared module cannot be tree-shaken, and the art alone
  // would then land in the shell's first load. Each app bundles the parts it uses; the API clients
  // still agree through localStorage (tokens, cache) and the window's `auth:error` event.
  return shared;
}

export interface AppBuildOptions {
  /** The app's folder (import.meta.dirname of its rspack.config.ts). */
  appDir: string;
  /** Where the server mounts the build: '/' for the shell, '/mf/<name>/' for a remote (dev server). */
  publicPath: string;
  federation: moduleFederationPlugin.ModuleFederationPluginOptions;
  /** Page title of the standalone index.html. */
  title: string;
  /** Port for `rspack serve`. */
  devPort: number;
  /** Extra dev-server proxies (the shell forwards the API and the remotes). */
  devProxy?: DevServerConfiguration['proxy'];
}

// Inline SVG favicon: a neon gear on the night palette (no extra request, allowed by img-src data:).
const FAVICON =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0b0d1a"/>' +
      '<circle cx="32" cy="32" r="17" fill="none" stroke="#f5c542" stroke-width="6" stroke-dasharray="7 4.2"/>' +
      '<circle cx="32" cy="32" r="8" fill="#2ee6d6"/></svg>',
  );

export function createRspackConfig(options: AppBuildOptions): Configuration {
  const production = process.env.NODE_ENV !== 'development';
  const version = readProductVersion();
  return {
    mode: production ? 'production' : 'development',
    context: options.appDir,
    entry: { main: './src/index.ts' },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.join(options.appDir, 'dist'),
      // A remote resolves its chunks next to wherever its manifest was loaded from ('auto'), so one
      // build serves from /mf/<name>/<version>/ or a remote's own deployment alike, and a manifest
      // never points at another version's chunks during a rolling update.
      publicPath: options.publicPath === '/' ? '/' : 'auto',
      filename: production ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      cssFilename: production ? '[name].[contenthash:10].css' : '[name].css',
      cssChunkFilename: production ? '[name].[contenthash:10].css' : '[name].css',
      uniqueName: `kaboodle_${options.federation.name}`,
      clean: true,
      // docs/product.md#limits: a script chunk that has not arrived after 120 s fails as a ChunkLoadError.
      chunkLoadTimeout: 120_000,
    },
    resolve: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      // react-router's package exports point at its development build (warnings and all);
      // production bundles take the production build it also ships.
      alias: production
        ? {
            'react-router$': path.join(reactRouterDist, 'production/index.mjs'),
            'react-router/dom$': path.join(reactRouterDist, 'production/dom-export.mjs'),
          }
        : {},
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic', development: !production } },
              target: 'es2022',
            },
          },
          type: 'javascript/auto',
        },
        { test: /\.css$/, type: 'css/auto' },
        { test: /\.(png|jpe?g|svg|webp|gif)$/, type: 'asset' },
      ],
    },
    plugins: [
      new rspack.DefinePlugin({
        __KABOODLE_VERSION__: JSON.stringify(version),
      }),
      new rspack.HtmlRspackPlugin({
        // One page template for every app: they differ only by title.
        template: path.join(import.meta.dirname, 'index.html'),
        templateParameters: { title: options.title, favicon: FAVICON },
        minify: production,
        // The server's CSP allows only same-origin scripts: nothing inline.
        inject: 'head',
        scriptLoading: 'defer',
      }),
      new ModuleFederationPlugin({
        ...options.federation,
        // Types are shared through the workspace, not downloaded at build time.
        dts: false,
        // 'version-first' would fetch every remote's manifest and remoteEntry at startup to compare
        // versions; the host provides the singletons anyway, so a remote loads when first visited.
        shareStrategy: 'loaded-first',
        // Browser-only runtime: leaves out the federation runtime's Node code paths.
        experiments: { optimization: { target: 'web' } },
      }),
    ],
    optimization: { minimize: production },
    performance: { hints: false },
    devServer: {
      port: options.devPort,
      historyApiFallback: true,
      hot: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      proxy: options.devProxy,
    },
  };
}
