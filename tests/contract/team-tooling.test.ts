// What lets teams own their services: CODEOWNERS names a team for every service and remote (and for
// each service's proto package), `make test-service S=<name>` runs one team's tests, and
// `buf breaking` refuses a change that would break another team's callers (checked in CI).
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { root } from './support/chart.ts';

const run = promisify(execFile);

/** The owners of a path under GitHub's rule: the last matching line wins. */
function ownersOf(codeowners: string, file: string): string[] {
  let owners: string[] = [];
  for (const line of codeowners.split('\n')) {
    const [pattern, ...teams] = line.trim().split(/\s+/);
    if (!pattern || pattern.startsWith('#')) continue;
    const re = new RegExp(
      '^' +
        pattern
          .replace(/^\//, '')
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*') +
        (pattern.endsWith('/') ? '' : '(/|$)'),
    );
    if (pattern === '*' || re.test(file)) owners = teams;
  }
  return owners;
}

describe('team ownership', () => {
  it('CODEOWNERS gives every service and remote, and its proto package, to its own team', async () => {
    const codeowners = await readFile(path.join(root, '.github/CODEOWNERS'), 'utf8');
    const units = [
      ...(await readdir(path.join(root, 'services'))).map((d) => `services/${d}`),
      ...(await readdir(path.join(root, 'frontends'))).map((d) => `frontends/${d}`),
    ];
    for (const unit of units) {
      const owners = ownersOf(codeowners, `${unit}/src/index.ts`);
      expect(owners.length, unit).toBeGreaterThan(0);
      if (!['services/platform', 'services/server'].includes(unit))
        expect(owners, `${unit} belongs to a team other than the default`).not.toEqual([
          '@kaboodle/platform-team',
        ]);
    }
    expect(ownersOf(codeowners, 'services/search/src/search.service.ts')).toEqual(['@kaboodle/search-team']);
    expect(ownersOf(codeowners, 'proto/kaboodle/catalogue/v1/catalogue.proto')).toEqual([
      '@kaboodle/catalogue-team',
      '@kaboodle/platform-team',
    ]);
    expect(ownersOf(codeowners, 'charts/kaboodle/values.yaml')).toEqual(['@kaboodle/platform-team']);
  });

  it('make test-service S=search runs search’s unit tests and the tier files named for it, and refuses an unknown name', async () => {
    const { stdout } = await run('node', ['deploy/tools/test-service.ts', 'search', '--list'], { cwd: root });
    const files = stdout.trim().split('\n');
    expect(files[0]).toBe('services/search');
    expect(files).toContain('tests/api/search.api.test.ts');
    expect(files).toContain('tests/contract/search-index.elasticsearch.contract.test.ts');
    expect(files.filter((f) => /auth|catalogue/.test(f))).toEqual([]);
    const bad = await run('node', ['deploy/tools/test-service.ts', 'nonsense'], { cwd: root }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(bad?.code).toBe(2);
    expect(bad?.stderr).toContain('S must name a service or frontend');
  });

  it('buf breaking passes on the tree and refuses a removed field against it', async () => {
    const ok = await run('deploy/tools/proto-breaking.sh', ['HEAD'], { cwd: root });
    expect(ok.stdout).toContain('no breaking change against HEAD');
    // A copy of proto/ with a field dropped, compared with the committed tree the same way.
    const dir = await mkdtemp(path.join(tmpdir(), 'proto-breaking-'));
    try {
      await cp(path.join(root, 'proto'), path.join(dir, 'proto'), {
        recursive: true,
        filter: (src) => !src.includes('node_modules') && !src.includes(`${path.sep}gen`),
      });
      const file = path.join(dir, 'proto/kaboodle/catalogue/v1/catalogue.proto');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/\n\s*string owner_id = 2;\n/, '\n'));
      const against = await mkdtemp(path.join(tmpdir(), 'proto-against-'));
      try {
        await run('sh', ['-c', `git archive HEAD proto | tar -x -C ${against}`], { cwd: root });
        const broken = await run(
          path.join(root, 'node_modules/.bin/buf'),
          ['breaking', 'proto', '--against', `${against}/proto`],
          {
            cwd: dir,
          },
        ).then(
          () => undefined,
          (err: { stdout: string }) => err.stdout,
        );
        expect(broken).toMatch(
          /Previously present field "2" with name "owner_id" on message "Document" was deleted/,
        );
      } finally {
        await rm(against, { recursive: true, force: true });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
