// Certificates for tests of mutual TLS, made with the openssl command: a CA and one certificate per
// service identity (URI SAN spiffe://kaboodle/<name>, valid for localhost and 127.0.0.1), written
// to a temporary folder as the Helm chart mounts them (tls.crt, tls.key, ca.crt).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IDENTITY_PREFIX } from '../service-identity.ts';
import type { GrpcTlsFiles } from '../service-identity.ts';

export interface TestCertificates {
  readonly dir: string;
  /** The files of a service's certificate (made on first ask). `uri: false`: no identity in it. */
  files(name: string, options?: { uri?: boolean }): GrpcTlsFiles;
  remove(): void;
}

const openssl = (args: string[], cwd: string) => execFileSync('openssl', args, { cwd, stdio: 'pipe' });

export function createTestCertificates(prefix = 'kaboodle-certs-'): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const ca = path.join(dir, 'ca.crt');
  const caKey = path.join(dir, 'ca.key');
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=kaboodle test CA',
      '-keyout',
      caKey,
      '-out',
      ca,
    ],
    dir,
  );
  return {
    dir,
    files(name, options = {}) {
      const folder = path.join(dir, options.uri === false ? `${name}-anonymous` : name);
      const files = {
        certFile: path.join(folder, 'tls.crt'),
        keyFile: path.join(folder, 'tls.key'),
        caFile: ca,
      };
      try {
        mkdirSync(folder);
      } catch {
        return files; // made before
      }
      const sans = [
        'DNS:localhost',
        'IP:127.0.0.1',
        ...(options.uri === false ? [] : [`URI:${IDENTITY_PREFIX}${name}`]),
      ];
      writeFileSync(
        path.join(folder, 'ext.cnf'),
        `subjectAltName=${sans.join(',')}\nextendedKeyUsage=serverAuth,clientAuth\n`,
      );
      openssl(
        [
          'req',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:P-256',
          '-nodes',
          '-subj',
          `/CN=${name}`,
          '-keyout',
          'tls.key',
          '-out',
          'tls.csr',
        ],
        folder,
      );
      openssl(
        [
          'x509',
          '-req',
          '-in',
          'tls.csr',
          '-CA',
          ca,
          '-CAkey',
          caKey,
          '-CAcreateserial',
          '-days',
          '1',
          '-extfile',
          'ext.cnf',
          '-out',
          'tls.crt',
        ],
        folder,
      );
      return files;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
