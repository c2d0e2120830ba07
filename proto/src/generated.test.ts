// proto/gen is committed: it must be exactly what `buf generate` makes from the .proto files,
// and the protos must pass buf's STANDARD lint. Fails when someone edits a .proto and forgets to
// run `npm run -w @kaboodle/proto generate`, or hand-edits gen/.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const protoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.resolve(protoDir, '../node_modules/.bin');
// buf finds the protoc-gen-es plugin on PATH.
const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}` };
const temp: string[] = [];

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

afterAll(async () => {
  await Promise.all(temp.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('proto/', () => {
  it('passes buf lint (STANDARD)', async () => {
    const { stdout, stderr } = await run(path.join(bin, 'buf'), ['lint'], { cwd: protoDir, env });
    expect(stdout + stderr).toBe('');
  }, 60_000);

  it('has gen/ exactly as buf generate makes it', async () => {
    const out = await mkdtemp(path.join(tmpdir(), 'kaboodle-proto-'));
    temp.push(out);
    await run(path.join(bin, 'buf'), ['generate', '-o', out], { cwd: protoDir, env });
    const committed = await listFiles(path.join(protoDir, 'gen'));
    const fresh = await listFiles(path.join(out, 'gen'));
    expect(committed, 'run npm run -w @kaboodle/proto generate').toEqual(fresh);
    for (const file of fresh) {
      const [a, b] = await Promise.all([
        readFile(path.join(protoDir, 'gen', file), 'utf8'),
        readFile(path.join(out, 'gen', file), 'utf8'),
      ]);
      expect(a, `${file} differs from a fresh buf generate`).toBe(b);
    }
  }, 60_000);
});
