// The Helm chart and the kustomize overlays, rendered offline and every object validated: built-in
// kinds against the Kubernetes API schemas, operator kinds against their published CRD schemas
// (support/chart.ts). No cluster is needed. Engines, security and observability have their own files
// (chart-engines, chart-security, chart-observability).
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  TARGETS,
  byKind,
  chart,
  container,
  envNames,
  envOf,
  helm,
  isOperatorResource,
  named,
  parse,
  render,
  renderFailure,
  root,
  validateAll,
} from './support/chart.ts';
import type { K8sObject } from './support/chart.ts';

const run = promisify(execFile);
const kustomizeSh = path.join(root, 'deploy/k8s/kustomize.sh');

describe('Helm chart', () => {
  let single: K8sObject[];
  let distributed: K8sObject[];

  beforeAll(async () => {
    [single, distributed] = await Promise.all([render(), render('deploymentMode=distributed')]);
  });

  it('passes helm lint in both modes', async () => {
    for (const mode of ['single', 'distributed']) {
      const out = await helm(['lint', chart, '--set', `deploymentMode=${mode}`]);
      expect(out).toContain('0 chart(s) failed');
    }
  });

  it('renders only valid objects in both modes, operator resources included', async () => {
    await validateAll(single);
    const seen = await validateAll(distributed);
    expect(single.length).toBeGreaterThan(5);
    expect(distributed.length).toBeGreaterThan(60);
    // Every operator kind the chart renders by default was checked against its vendored CRD schema.
    expect([...seen].filter((k) => k.startsWith('crd:')).sort()).toEqual([
      'crd:barmancloud.cnpg.io/v1/ObjectStore',
      'crd:elasticsearch.k8s.elastic.co/v1/Elasticsearch',
      'crd:kafka.strimzi.io/v1/Kafka',
      'crd:kafka.strimzi.io/v1/KafkaNodePool',
      'crd:kafka.strimzi.io/v1/KafkaTopic',
      'crd:kafka.strimzi.io/v1/KafkaUser',
      'crd:minio.min.io/v2/Tenant',
      'crd:postgresql.cnpg.io/v1/Cluster',
      'crd:postgresql.cnpg.io/v1/Pooler',
      'crd:postgresql.cnpg.io/v1/ScheduledBackup',
    ]);
    expect(seen).toContain('@kubernetes-models/cert-manager:cert-manager.io/v1/Certificate');
  });

  it('runs every target in one Deployment in single mode, on a kept volume', () => {
    const deployments = byKind(single, 'Deployment');
    expect(deployments.map((d) => d.metadata.name)).toEqual(['kb-kaboodle']);
    const [deployment] = deployments;
    expect(deployment!.spec!.replicas).toBe(1);
    expect(deployment!.spec!.strategy.type).toBe('Recreate');
    expect(container(deployment!).args).toEqual(['--target=all']);
    expect(envNames(deployment!)).not.toContain('DATABASE_URL'); // embedded Postgres on the volume
    const pvc = named(single, 'PersistentVolumeClaim', 'kb-kaboodle-data');
    expect(pvc.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
    expect(byKind(single, 'HorizontalPodAutoscaler')).toEqual([]);
    expect(byKind(single, 'PodDisruptionBudget')).toEqual([]);
    expect(single.filter(isOperatorResource)).toEqual([]);
    const ingress = named(single, 'Ingress', 'kb-kaboodle');
    expect(ingress.spec!.rules[0].http.paths).toEqual([
      {
        path: '/',
        pathType: 'Prefix',
        backend: { service: { name: 'kb-kaboodle', port: { name: 'http' } } },
      },
    ]);
  });

  it('runs one Deployment, Service and ServiceAccount per target in distributed mode, gRPC on headless Services', () => {
    for (const target of TARGETS) {
      const deployment = named(distributed, 'Deployment', `kb-kaboodle-${target}`);
      expect(container(deployment).args).toEqual([`--target=${target}`]);
      expect(deployment.spec!.template.spec.serviceAccountName).toBe(`kb-kaboodle-${target}`);
      const account = named(distributed, 'ServiceAccount', `kb-kaboodle-${target}`);
      expect(
        (account as unknown as { automountServiceAccountToken: boolean }).automountServiceAccountToken,
      ).toBe(false);
      const service = named(distributed, 'Service', `kb-kaboodle-${target}`);
      const ports = (service.spec!.ports as Array<{ name: string }>).map((p) => p.name);
      expect(ports).toEqual(target === 'web' ? ['http'] : ['http', 'grpc']);
      if (target !== 'web')
        expect(named(distributed, 'Service', `kb-kaboodle-${target}-grpc`).spec!.clusterIP).toBe('None');
      expect(named(distributed, 'PodDisruptionBudget', `kb-kaboodle-${target}`).spec!.maxUnavailable).toBe(1);
    }
    expect(byKind(distributed, 'Deployment')).toHaveLength(TARGETS.length);
    const config = named(distributed, 'ConfigMap', 'kb-kaboodle-config').data!;
    expect(config['PROCESSING_GRPC_ADDRESS']).toBe('kb-kaboodle-processing-grpc:9090');
    expect(config['AUTH_URL']).toBe('http://kb-kaboodle-auth:8080');
  });

  it('lets a team ship its target on its own image, the rest keeping the release image', async () => {
    const objects = await render(
      'deploymentMode=distributed',
      'image.tag=1.0.0',
      'services.search.image.repository=registry.example/search-team/kaboodle',
      'services.search.image.tag=1.1.0-rc1',
      'services.web.image.tag=1.0.1',
    );
    const image = (t: string) => container(named(objects, 'Deployment', `kb-kaboodle-${t}`)).image;
    expect(image('search')).toBe('registry.example/search-team/kaboodle:1.1.0-rc1');
    expect(image('web')).toBe('kaboodle/kaboodle:1.0.1');
    expect(image('auth')).toBe('kaboodle/kaboodle:1.0.0');
    // The reindex Job runs search's code, so search's image.
    expect(container(named(objects, 'Job', 'kb-kaboodle-search-reindex')).image).toBe(image('search'));
  });

  it('points the shell at a remote its team deployed on its own, through the web target only', async () => {
    const objects = await render(
      'deploymentMode=distributed',
      'remotes.vault.url=/mf/vault/1.4.0/mf-manifest.json',
    );
    const web = envOf(named(objects, 'Deployment', 'kb-kaboodle-web'));
    expect(web.find((e) => e.name === 'REMOTE_VAULT_URL')?.value).toBe('/mf/vault/1.4.0/mf-manifest.json');
    expect(web.find((e) => e.name === 'REMOTE_DASHBOARD_URL')).toBeUndefined();
    expect(envNames(named(objects, 'Deployment', 'kb-kaboodle-search'))).not.toContain('REMOTE_VAULT_URL');
    expect(await renderFailure('remotes.vault.url=javascript:alert(1)')).toMatch(
      /remotes\/vault\/url|pattern/,
    );
  });

  it('ships a helm test that checks /readyz of every target through its Service', () => {
    for (const [objects, targets] of [
      [single, ['kb-kaboodle']],
      [distributed, TARGETS.map((t) => `kb-kaboodle-${t}`)],
    ] as const) {
      const pod = named(objects, 'Pod', 'kb-kaboodle-test-readyz');
      expect(pod.metadata.annotations?.['helm.sh/hook']).toBe('test');
      expect(pod.spec!.containers[0].args).toEqual(targets.map((name) => `http://${name}:8080/readyz`));
    }
  });

  it('autoscales search on CPU and processing on CPU, or on its consumer lag with KEDA', async () => {
    const hpas = byKind(distributed, 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.spec!.scaleTargetRef.name).sort()).toEqual([
      'kb-kaboodle-processing',
      'kb-kaboodle-search',
    ]);
    expect(named(distributed, 'Deployment', 'kb-kaboodle-processing').spec!.replicas).toBeUndefined();
    expect(named(distributed, 'Deployment', 'kb-kaboodle-auth').spec!.replicas).toBe(2);

    const keda = await render('deploymentMode=distributed', 'keda.enabled=true');
    await validateAll(keda);
    expect(byKind(keda, 'HorizontalPodAutoscaler').map((h) => h.metadata.name)).toEqual([
      'kb-kaboodle-search',
    ]);
    const scaled = named(keda, 'ScaledObject', 'kb-kaboodle-processing');
    expect(scaled.spec!.maxReplicaCount).toBe(10);
    expect(scaled.spec!.triggers[0]).toMatchObject({
      type: 'kafka',
      metadata: { consumerGroup: 'processing', topic: 'kaboodle.file.uploaded.v1', lagThreshold: '32' },
    });
    expect(named(keda, 'TriggerAuthentication', 'kb-kaboodle-processing-kafka')).toBeDefined();
  });

  it('routes each path to the target that owns it; deep links to screens stay on the shell', () => {
    const paths = named(distributed, 'Ingress', 'kb-kaboodle').spec!.rules[0].http.paths as Array<{
      path: string;
      pathType: string;
      backend: { service: { name: string } };
    }>;
    const route = Object.fromEntries(
      paths.map((p) => [`${p.pathType} ${p.path}`, p.backend.service.name.replace('kb-kaboodle-', '')]),
    );
    expect(route).toEqual({
      'Prefix /api/auth': 'auth',
      'Prefix /process/status': 'ingestion',
      'Prefix /process/cancel': 'ingestion',
      // Exact: /process/anything else is a screen of the shell. GET /process itself reaches
      // ingestion through an Ingress (it cannot match methods), which answers it with the shell.
      'Exact /process': 'ingestion',
      'Exact /upload': 'ingestion',
      'Exact /api/documents/search': 'search',
      'Prefix /api/search': 'search',
      'Prefix /api/documents': 'catalogue',
      'Prefix /api/inventory': 'catalogue',
      'Prefix /api/kaboodles': 'catalogue',
      'Prefix /api/activity': 'catalogue',
      'Prefix /api/stats': 'catalogue',
      'Prefix /': 'web',
    });
  });

  it('sends only POST /process and POST /upload to ingestion through the Gateway API; GET opens the screen', async () => {
    const objects = await render(
      'deploymentMode=distributed',
      'gatewayApi.enabled=true',
      'gatewayApi.parentRefs[0].name=public',
    );
    await validateAll(objects);
    const rules = named(objects, 'HTTPRoute', 'kb-kaboodle').spec!.rules as Array<{
      matches: Array<{ path: { type: string; value: string }; method?: string }>;
      backendRefs: Array<{ name: string }>;
    }>;
    const ruleFor = (value: string) => rules.find((r) => r.matches[0]!.path.value === value);
    for (const screen of ['/process', '/upload']) {
      expect(ruleFor(screen)?.matches[0]).toEqual({ path: { type: 'Exact', value: screen }, method: 'POST' });
      expect(ruleFor(screen)?.backendRefs[0]?.name).toBe('kb-kaboodle-ingestion');
    }
    // A GET matches no method-bound rule and falls through to `/`, the web shell.
    expect(ruleFor('/')?.backendRefs[0]?.name).toBe('kb-kaboodle-web');
    expect(ruleFor('/')?.matches[0]?.method).toBeUndefined();
    expect(ruleFor('/api/documents/search')?.matches[0]).toEqual({
      path: { type: 'Exact', value: '/api/documents/search' },
      method: 'POST',
    });
  });

  it('gives the services that own data a DATABASE_URL as their own role, and search, processing and web none', () => {
    for (const target of TARGETS) {
      const env = envOf(named(distributed, 'Deployment', `kb-kaboodle-${target}`));
      const db = env.find((e) => e.name === 'DATABASE_URL');
      if (['processing', 'web', 'search'].includes(target)) {
        expect(db, target).toBeUndefined();
        continue;
      }
      expect(db?.value).toBe(
        `postgresql://${target}@kb-kaboodle-pg-pooler:5432/kaboodle?sslmode=verify-full&sslrootcert=/etc/kaboodle/postgres-ca/ca.crt`,
      );
      expect(env.find((e) => e.name === 'PGPASSWORD')?.valueFrom?.secretKeyRef).toEqual({
        name: `kb-kaboodle-pg-${target}`,
        key: 'password',
      });
    }
  });

  it('runs every pod as non-root on a read-only root filesystem; liveness never asks another service', () => {
    for (const deployment of [...byKind(single, 'Deployment'), ...byKind(distributed, 'Deployment')]) {
      const pod = deployment.spec!.template.spec;
      const c = container(deployment);
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(c.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
      expect(c.livenessProbe.httpGet.path).toBe('/healthz');
      expect(c.readinessProbe.httpGet.path).toBe('/readyz');
      expect(c.resources.requests.memory).toBeTruthy();
    }
  });

  it('tags every span and metric with the pod, node and namespace it comes from', () => {
    const env = envOf(named(distributed, 'Deployment', 'kb-kaboodle-search'));
    expect(env.find((e) => e.name === 'NODE_NAME')?.valueFrom?.fieldRef?.fieldPath).toBe('spec.nodeName');
    expect(env.find((e) => e.name === 'OTEL_RESOURCE_ATTRIBUTES')?.value).toBe(
      'k8s.pod.name=$(POD_NAME),k8s.namespace.name=$(POD_NAMESPACE),k8s.node.name=$(NODE_NAME),k8s.deployment.name=kb-kaboodle-search,service.instance.id=$(POD_NAME),deployment.environment.name=kaboodle',
    );
    const config = named(distributed, 'ConfigMap', 'kb-kaboodle-config').data!;
    expect(config['OTEL_TRACES_SAMPLER']).toBe('parentbased_traceidratio');
    expect(config['OTEL_TRACES_SAMPLER_ARG']).toBe('0.1');
  });

  it('refuses values that cannot work, listing every problem', async () => {
    const failure = await renderFailure(
      'deploymentMode=distributed',
      'engines.postgres.enabled=false',
      'engines.kafka.enabled=false',
      'engines.elasticsearch.enabled=false',
      'secrets.existingSecret=everything',
      'config.PORT=1',
    );
    expect(failure).toContain('config.PORT: set by the chart');
    expect(failure).toContain('services.auth: distributed mode needs a shared database');
    expect(failure).toContain('config.KAFKA_BROKERS: distributed mode needs Kafka');
    expect(failure).toContain(
      'config.ELASTICSEARCH_URL: distributed mode needs Elasticsearch: the embedded index lives on one pod',
    );
    expect(failure).toContain('secrets.existingSecret: would hand every credential to every pod');
    expect(failure).not.toContain('services.search: distributed mode needs a shared database');
    expect(await renderFailure('deploymentMode=both')).toMatch(/deploymentMode.*single.*distributed/);
  });
});

describe('kustomize (deploy/k8s)', () => {
  it('keeps the committed base identical to a fresh render of the chart', async () => {
    const committed = await readFile(path.join(root, 'deploy/k8s/base/kaboodle.yaml'), 'utf8');
    const fresh = await helm([
      'template',
      'kaboodle',
      chart,
      '--namespace',
      'kaboodle',
      '--values',
      path.join(root, 'deploy/k8s/base/values.yaml'),
      '--skip-tests',
    ]);
    // Compared as objects: the committed file is prettier-formatted.
    expect(parse(committed), 'run deploy/k8s/render-base.sh').toEqual(parse(fresh));
  });

  it.each(['dev', 'prod'])('builds the %s overlay into valid objects in its namespace', async (overlay) => {
    const { stdout } = await run(kustomizeSh, [path.join(root, 'deploy/k8s/overlays', overlay)], {
      cwd: root,
      maxBuffer: 32 * 1024 * 1024,
    });
    const objects = parse(stdout);
    await validateAll(objects);
    const namespace = overlay === 'dev' ? 'kaboodle-dev' : 'kaboodle';
    for (const o of objects.filter((x) => x.kind !== 'Namespace'))
      expect(o.metadata.namespace).toBe(namespace);
    expect(byKind(objects, 'Deployment')).toHaveLength(TARGETS.length);
    const image = container(named(objects, 'Deployment', 'kaboodle-auth')).image;
    expect(image).toBe(overlay === 'dev' ? 'kaboodle/kaboodle:dev' : 'kaboodle/kaboodle:0.2.0');
    if (overlay === 'prod') {
      expect(named(objects, 'Ingress', 'kaboodle').spec!.tls[0].hosts).toEqual(['kaboodle.example.com']);
      expect(named(objects, 'Deployment', 'kaboodle-auth').spec!.replicas).toBe(3);
    } else {
      // Generated Secrets get a content hash; the Deployments must follow the renamed reference.
      const secret = byKind(objects, 'Secret').find((s) => s.metadata.name.startsWith('kaboodle-database-'));
      const ref = envOf(named(objects, 'Deployment', 'kaboodle-auth')).find((e) => e.name === 'DATABASE_URL')
        ?.valueFrom?.secretKeyRef?.name;
      expect(ref).toBe(secret?.metadata.name);
      expect(byKind(objects, 'PodDisruptionBudget')).toEqual([]);
    }
  });
});

describe('Dockerfile (cannot be built here: no Docker engine)', () => {
  it('pins the Node of .nvmrc, runs `kaboodle` as the non-root user the chart expects', async () => {
    const [dockerfile, nvmrc, dockerignore, values] = await Promise.all([
      readFile(path.join(root, 'Dockerfile'), 'utf8'),
      readFile(path.join(root, '.nvmrc'), 'utf8'),
      readFile(path.join(root, '.dockerignore'), 'utf8'),
      readFile(path.join(chart, 'values.yaml'), 'utf8'),
    ]);
    expect(dockerfile).toContain(`ARG NODE_VERSION=${nvmrc.trim()}\n`);
    const stages = [...dockerfile.matchAll(/^FROM (\S+) AS (\S+)$/gm)].map((m) => [m[1], m[2]]);
    expect(stages).toEqual([
      ['node:${NODE_VERSION}-slim', 'manifests'],
      ['node:${NODE_VERSION}-slim', 'build'],
      ['node:${NODE_VERSION}-slim', 'runtime'],
    ]);
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    const uid = /^USER (\d+):(\d+)$/m.exec(runtime);
    expect(Number(uid?.[1])).toBeGreaterThan(0);
    expect(runtime).toMatch(/^ENTRYPOINT \["kaboodle"\]$/m);
    // The pod's runAsUser must be the image's user, or /data would not be writable.
    const podSecurity = parse(values)[0] as unknown as {
      podSecurityContext: { runAsUser: number; fsGroup: number };
    };
    expect(podSecurity.podSecurityContext.runAsUser).toBe(Number(uid?.[1]));
    expect(podSecurity.podSecurityContext.fsGroup).toBe(Number(uid?.[2]));
    expect(dockerignore.split('\n')).toEqual(
      expect.arrayContaining(['**/node_modules', '.git', '.tools', '.data']),
    );
  });
});
