// Zero trust in the rendered chart: each target's pods see only their own secrets (web none), every
// gRPC target has a certificate naming its identity, and NetworkPolicies open traffic edge by edge —
// checked against the edges the code itself declares (the services' allowed gRPC callers).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TARGETS, byKind, named, render, root, secretsOf } from './support/chart.ts';
import type { K8sObject, Loose } from './support/chart.ts';

let objects: K8sObject[];
beforeAll(async () => {
  objects = await render(
    'deploymentMode=distributed',
    'secrets.values.OPENAI_API_KEY=sk-test',
    'secrets.values.AUTH_KEY_SECRET=auth-key',
    'networkPolicy.ingressFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=ingress-nginx',
  );
});

const deployment = (t: string) => named(objects, 'Deployment', `kb-kaboodle-${t}`);

describe('secrets: each target its own', () => {
  it('hands each pod only the Secrets its target uses, and the web pod none', () => {
    expect(secretsOf(deployment('web'))).toEqual([]);
    expect(secretsOf(deployment('auth'))).toEqual([
      'kb-kaboodle-auth', // its KafkaUser's password
      'kb-kaboodle-auth-grpc-tls',
      'kb-kaboodle-auth-secrets',
      'kb-kaboodle-kafka-cluster-ca-cert',
      'kb-kaboodle-pg-auth',
      'kb-kaboodle-pg-ca',
    ]);
    expect(secretsOf(deployment('search'))).toEqual([
      'kb-kaboodle-es-es-http-certs-public',
      'kb-kaboodle-es-search',
      'kb-kaboodle-kafka-cluster-ca-cert',
      'kb-kaboodle-search',
      'kb-kaboodle-search-grpc-tls',
    ]);
    // Another service's credentials never: no pod reads a Secret named after another target.
    for (const target of TARGETS) {
      const others = TARGETS.filter((t) => t !== target);
      for (const secret of secretsOf(deployment(target)))
        for (const other of others)
          expect(secret, `${target} reads ${secret}`).not.toMatch(new RegExp(`-${other}(-|$)`));
    }
  });

  it('writes each chart-managed value only into the Secret of the targets that read it', () => {
    const secrets = Object.fromEntries(byKind(objects, 'Secret').map((s) => [s.metadata.name, s.stringData]));
    expect(secrets['kb-kaboodle-processing-secrets']).toEqual({ OPENAI_API_KEY: 'sk-test' });
    expect(secrets['kb-kaboodle-auth-secrets']).toEqual({ AUTH_KEY_SECRET: 'auth-key' });
    expect(secrets['kb-kaboodle-web-secrets']).toBeUndefined();
    expect(secrets['kb-kaboodle-search-secrets']).toBeUndefined();
  });
});

describe('mutual TLS between services', () => {
  it('issues every gRPC target a certificate whose URI names it, and mounts it in that pod only', () => {
    const certificates = byKind(objects, 'Certificate').filter((c) => c.metadata.name.endsWith('-grpc-tls'));
    expect(certificates.map((c) => c.spec!.uris).sort()).toEqual(
      ['auth', 'catalogue', 'ingestion', 'processing', 'search'].map((t) => [`spiffe://kaboodle/${t}`]),
    );
    const processing = named(objects, 'Certificate', 'kb-kaboodle-processing-grpc-tls');
    expect(processing.spec!.dnsNames).toContain('kb-kaboodle-processing-grpc');
    expect(processing.spec!.usages).toEqual(['server auth', 'client auth']);
    const env = deployment('processing').spec!.template.spec.containers[0].env as Array<{
      name: string;
      value: string;
    }>;
    expect(env.find((e) => e.name === 'GRPC_TLS_CERT_FILE')?.value).toBe('/etc/kaboodle/grpc-tls/tls.crt');
    expect(JSON.stringify(deployment('web').spec)).not.toContain('grpc-tls');
  });

  it('sets GRPC_INSECURE only when told a mesh does mTLS', async () => {
    expect(named(objects, 'ConfigMap', 'kb-kaboodle-config').data!['GRPC_INSECURE']).toBeUndefined();
    const meshed = await render('deploymentMode=distributed', 'grpcTls.enabled=false');
    expect(named(meshed, 'ConfigMap', 'kb-kaboodle-config').data!['GRPC_INSECURE']).toBe('true');
    expect(byKind(meshed, 'Certificate')).toEqual([]);
  });
});

describe('NetworkPolicies, edge by edge', () => {
  const policy = (t: string) => named(objects, 'NetworkPolicy', `kb-kaboodle-${t}`).spec as Loose;
  /** Components whose pods may open `port` on target's pods. */
  function callersOn(target: string, port: number): string[] {
    return (policy(target).ingress as Loose[])
      .filter((rule) => rule.ports.some((p: Loose) => p.port === port))
      .flatMap((rule) => (rule.from ?? [{ any: true }]) as Loose[])
      .map(
        (peer) =>
          peer.podSelector?.matchLabels?.['app.kubernetes.io/component'] ?? (peer.any ? '*' : 'external'),
      )
      .sort();
  }
  /** Components target's pods may open `port` on. */
  function calleesOf(target: string, port: number): string[] {
    return (policy(target).egress as Loose[])
      .filter((rule) => rule.ports?.some((p: Loose) => p.port === port))
      .flatMap((rule) => rule.to as Loose[])
      .map((peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/component'])
      .filter(Boolean)
      .sort();
  }

  it('denies all traffic in and out of every Kaboodle pod unless a policy allows it', () => {
    const deny = named(objects, 'NetworkPolicy', 'kb-kaboodle-default-deny').spec as Loose;
    expect(deny.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(deny.ingress).toBeUndefined();
    expect(deny.egress).toBeUndefined();
  });

  it('opens gRPC exactly along the edges the services authorise in code', async () => {
    // The code's declared callers (implementGrpcService's third argument), read from the sources.
    const declared = {
      catalogue: await callersInCode('services/catalogue/src/catalogue.grpc.ts'),
      processing: await callersInCode('services/processing/src/processing.grpc.ts'),
    };
    expect(declared).toEqual({ catalogue: ['search'], processing: ['search'] });
    expect(callersOn('catalogue', 9090)).toEqual(['search', 'search-reindex']);
    expect(callersOn('processing', 9090)).toEqual(['search', 'search-reindex']);
    for (const t of ['auth', 'ingestion', 'search']) expect(callersOn(t, 9090), t).toEqual([]);
    expect(calleesOf('search', 9090)).toEqual(['catalogue', 'processing']);
    // The web pod reaches no service at all: DNS and nothing else.
    expect((policy('web').egress as Loose[]).map((r) => r.ports.map((p: Loose) => p.port))).toEqual([
      [53, 53],
    ]);
  });

  it('lets the ingress reach public targets, Prometheus every /metrics, and only session checkers reach auth', () => {
    expect(callersOn('web', 8080)).toEqual(['external', 'external', 'helm-test']);
    expect(callersOn('processing', 8080)).toEqual(['external', 'helm-test']); // Prometheus, helm test
    expect(callersOn('auth', 8080)).toEqual([
      'catalogue',
      'external',
      'external',
      'helm-test',
      'ingestion',
      'search',
    ]);
    expect(calleesOf('processing', 8080)).toEqual([]);
    expect(calleesOf('search', 8080)).toEqual(['auth']);
  });

  it('lets each target reach only the engines it uses', () => {
    const engines = (t: string) =>
      (policy(t).egress as Loose[])
        .flatMap((r) => (r.to ?? []) as Loose[])
        .map((peer) => Object.keys(peer.podSelector?.matchLabels ?? {})[0])
        .filter((k) => k && k !== 'app.kubernetes.io/name' && k !== 'k8s-app')
        .sort();
    expect(engines('processing')).toEqual(['strimzi.io/cluster', 'v1.min.io/tenant']);
    expect(engines('search')).toEqual(['elasticsearch.k8s.elastic.co/cluster-name', 'strimzi.io/cluster']);
    expect(engines('auth')).toEqual(['cnpg.io/cluster', 'cnpg.io/poolerName', 'strimzi.io/cluster']);
    expect(engines('web')).toEqual([]);
  });
});

async function callersInCode(file: string): Promise<string[]> {
  const text = await readFile(path.join(root, file), 'utf8');
  const block = /\{\s*(?:\w+:\s*\[[^\]]*\],?\s*)+\}\s*,?\s*\);\s*\}\s*$/m.exec(text)?.[0] ?? '';
  return [...new Set([...block.matchAll(/'([a-z-]+)'/g)].map((m) => m[1]!))].sort();
}

describe('secrets you create (deploy/k8s/create-secrets.sh)', () => {
  it('makes exactly the Secrets the chart references and nothing generates', async () => {
    const { mkdtemp, writeFile, chmod, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    // A stand-in for kubectl (no cluster here): `get` finds nothing, `create` records the name.
    const bin = await mkdtemp(path.join(tmpdir(), 'fake-kubectl-'));
    const log = path.join(bin, 'log');
    await writeFile(
      path.join(bin, 'kubectl'),
      `#!/bin/sh\ncase "$3" in get) exit 1;; create) echo "$6" >> ${log};; esac\n`,
    );
    await chmod(path.join(bin, 'kubectl'), 0o755);
    try {
      await promisify(execFile)(path.join(root, 'deploy/k8s/create-secrets.sh'), ['kaboodle', 'kb'], {
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      });
      const created = (await readFile(log, 'utf8')).trim().split('\n').sort();
      // Referenced by pods, Jobs and operator resources...
      const referenced = new Set<string>();
      const walk = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(walk);
        else if (v && typeof v === 'object')
          for (const [k, x] of Object.entries(v)) {
            if (
              [
                'secretName',
                'passwordSecret',
                'secretKeyRef',
                'secretRef',
                'accessKeyId',
                'secretAccessKey',
                'configuration',
              ].includes(k)
            ) {
              const name = typeof x === 'string' ? x : (x as { name?: string })?.name;
              if (name) referenced.add(name);
            }
            walk(x);
          }
      };
      walk(objects.filter((o) => o.kind !== 'Certificate'));
      // ...less what the chart, the operators and cert-manager make themselves.
      const made =
        /-secrets$|-es-roles$|-cluster-ca-cert$|-es-http-certs-public$|-pg-ca$|-grpc-tls$|-grpc-ca$|^kb-kaboodle-(auth|ingestion|processing|catalogue|search|operator)$|^kb-kaboodle-minio-policies$|^kb-kaboodle-config$/;
      expect([...referenced].filter((n) => !made.test(n)).sort()).toEqual(created);
    } finally {
      await rm(bin, { recursive: true, force: true });
    }
  });
});
