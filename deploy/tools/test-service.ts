// `make test-service S=<name>`: one team's tests, without the whole suite. A service (services/<name>)
// or a frontend remote (frontends/<name>): its colocated unit tests, then the API, contract, topology
// and e2e files named for it (tests/<tier>/<name>-*.test.ts, <name>.*.test.ts, *.<name>.*.test.ts).
// `--list` prints the files instead of running them.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [name, flag] = process.argv.slice(2);

const units = ['services', 'frontends'].flatMap((kind) =>
  readdirSync(path.join(root, kind))
    .filter((d) => existsSync(path.join(root, kind, d, 'package.json')))
    .map((d) => `${kind}/${d}`),
);
const home = units.find((u) => u.endsWith(`/${name}`));
if (!name || !home) {
  console.error(
    `test-service: S must name a service or frontend: ${units.map((u) => u.split('/')[1]).join(', ')}`,
  );
  process.exit(2);
}

const named = new RegExp(`(^|[./-])${name}([./-])`);
const tierFiles = ['api', 'contract', 'topology', 'e2e']
  .flatMap((tier) => {
    const dir = path.join(root, 'tests', tier);
    return existsSync(dir) ? readdirSync(dir).map((f) => `tests/${tier}/${f}`) : [];
  })
  .filter((f) => f.endsWith('.test.ts') && named.test(path.basename(f)));
const files = [home, ...tierFiles];

if (flag === '--list') {
  console.log(files.join('\n'));
  process.exit(0);
}
console.log(`test-service ${name}: ${files.join(' ')}`);
const run = spawnSync('npx', ['vitest', 'run', ...files], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
