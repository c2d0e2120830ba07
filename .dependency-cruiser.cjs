// The architecture's import rules, checked by dependency-cruiser in `make test` and `make boundaries`
// (`npx depcruise services frontends tests proto`). Paths are the resolved files: `@kaboodle/x` resolves
// through its package.json `exports` to services/x/src/index.ts, so "only through the index" is a
// rule on the file a specifier lands on, whatever way it was written.
/* global module -- a CommonJS config file, which dependency-cruiser loads with require */
const SERVICES = '(auth|catalogue|ingestion|processing|search)';
const PACKAGES = '^(services/[^/]+|frontends/[^/]+|proto)/';
const TEST_FILE = '\\.test\\.tsx?$';
// Test fixtures and stand-ins a service keeps beside its code (generated documents, a Google key-set
// stand-in, the mail folder reader): the one thing tests may import from inside a service, because
// they are test material, not production surface, and shipping them from the index would put them
// in the production import graph.
const FIXTURES = '/src/.*(testing|test-fixtures|test-support)/|/src/test-fixtures\\.ts$';
// A package's public entries: its index, plus the few light entries its package.json `exports` names
// so the server can load a service's config schema ("./config"), search's declarations ("./api")
// and the telemetry hooks ("./instrumentations", "./telemetry") without loading the service itself
// (a target loads only the code it runs; the hooks must load before what they instrument), and the
// domain errors ("./errors"), which code run in worker threads throws.
const PUBLIC_ENTRIES = [
  '^(services/[^/]+|frontends/kit|proto)/src/index\\.tsx?$',
  '^services/(auth/src/auth-config|ingestion/src/ingestion-config|processing/src/module-config)\\.ts$',
  '^services/(catalogue/src/catalogue-config|search/src/search-config|search/src/operations)\\.ts$',
  '^services/platform/src/telemetry/(instrumentations|telemetry)\\.ts$',
  '^services/platform/src/errors\\.ts$',
];

module.exports = {
  forbidden: [
    {
      name: 'services-never-import-each-other',
      comment:
        'Services meet only through events, gRPC and HTTP; a service (its src and its bench) uses ' +
        'other services never, the platform and proto always through their index. Only ' +
        'services/server, the composition root, imports services.',
      severity: 'error',
      from: { path: `^services/${SERVICES}/` },
      to: { path: `^services/(${SERVICES.slice(1, -1)}|server)/`, pathNot: '^services/$1/' },
    },
    {
      name: 'platform-imports-no-service',
      comment: 'The platform kit is what services stand on; it knows none of them.',
      severity: 'error',
      from: { path: '^services/platform/' },
      to: { path: `^services/(${SERVICES.slice(1, -1)}|server)/` },
    },
    {
      name: 'packages-only-through-their-public-index',
      comment:
        'Another package is reached through `@kaboodle/<pkg>` (its src/index.ts) or an entry its ' +
        'package.json exports (PUBLIC_ENTRIES) and nothing else: ' +
        'no deep import by subpath or by relative path. Exceptions: the kit stylesheet ' +
        '(@kaboodle/kit/theme.css, an asset) and the frontends\u2019 build configs, which use the ' +
        'kit\u2019s rspack helper (build tooling, not shipped).',
      severity: 'error',
      from: { path: PACKAGES, pathNot: ['^frontends/[^/]+/[^/]+\\.config\\.ts$', TEST_FILE] },
      to: { path: PACKAGES, pathNot: ['^$1/', ...PUBLIC_ENTRIES, '^frontends/kit/src/theme/theme\\.css$'] },
    },
    {
      name: 'unit-tests-import-other-packages-through-their-index',
      comment: 'A colocated *.test.ts follows the index rule too, with the test-material exception.',
      severity: 'error',
      from: { path: PACKAGES + '.*' + TEST_FILE },
      to: { path: PACKAGES, pathNot: ['^$1/', ...PUBLIC_ENTRIES, FIXTURES] },
    },
    {
      name: 'worker-threads-never-load-the-platform-index',
      comment:
        'A worker thread (*.worker.ts) is an isolate of its own: what its imports reach loads again ' +
        'in every thread. The platform index pulls in Kafka, gRPC, Postgres and OpenTelemetry, ' +
        '~120 MB per thread measured, for code that needs only the domain errors: worker code ' +
        'imports @kaboodle/platform/errors (docs/benchmarks/2026-11-27-worker-imports.md).',
      severity: 'error',
      from: { path: '\\.worker\\.ts$' },
      to: { path: '^services/platform/src/index\\.ts$', reachable: true },
    },
    {
      name: 'frontend-build-configs-use-only-the-kit-build-helper',
      comment: 'A frontend build config may reach into the kit only for frontends/kit/build.',
      severity: 'error',
      from: { path: '^(frontends/[^/]+)/[^/]+\\.config\\.ts$' },
      to: { path: PACKAGES, pathNot: ['^$1/', ...PUBLIC_ENTRIES, '^frontends/kit/build/'] },
    },
    {
      name: 'frontends-never-import-server-code',
      comment: 'The kit and the remotes talk to the services over HTTP only (the kit\u2019s typed client).',
      severity: 'error',
      from: { path: '^frontends/' },
      to: { path: '^(services|tests)/' },
    },
    {
      name: 'remotes-import-only-the-kit',
      comment: 'A remote (and the shell) shares code with another only through @kaboodle/kit.',
      severity: 'error',
      from: { path: '^frontends/([^/]+)/' },
      to: { path: '^frontends/', pathNot: ['^frontends/$1/', '^frontends/kit/'] },
    },
    {
      name: 'tests-import-packages-as-production-does',
      comment:
        'Tests (and the cross-service benches in tests/bench) import a package through its index, ' +
        'like production code; the one exception is test material kept in a service (FIXTURES above).',
      severity: 'error',
      from: { path: '^tests/' },
      to: { path: PACKAGES, pathNot: [...PUBLIC_ENTRIES, FIXTURES, '^frontends/kit/src/theme/theme\\.css$'] },
    },
    {
      name: 'production-code-never-imports-tests',
      comment: 'Nothing under a package src/ depends on the test suites.',
      severity: 'error',
      from: { path: '^(services|frontends|proto)/[^/]+/src/' },
      to: { path: '^tests/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves (a removed `./*` export would show up here).',
      severity: 'error',
      from: {},
      // k6 modules exist only inside the k6 runtime (tests/load); <remote>/App are module-federation
      // remotes the shell loads at run time.
      to: {
        couldNotResolve: true,
        pathNot: ['^k6$', '^k6/', '^(vault|observatory|inventory|dashboard)/App$'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.data|\\.tools|\\.cache)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
