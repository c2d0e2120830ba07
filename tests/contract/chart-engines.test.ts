// The engines the chart provisions for distributed mode, as operator resources: Strimzi 1.x
// (kafka.strimzi.io/v1) with a KafkaUser per service whose ACLs match the topics that service's code
// uses, CloudNativePG with a role per service, a pooler and backups, ECK with TLS and a least-privilege
// user, MinIO without generated passwords. Validated against the vendored CRD schemas.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Topics } from '@kaboodle/proto';
import { byKind, chart, named, render, renderFailure, validateAll } from './support/chart.ts';
import type { K8sObject } from './support/chart.ts';

interface Acl {
  resource: { type: string; name?: string; patternType?: string };
  operations: string[];
}

let distributed: K8sObject[];
beforeAll(async () => {
  distributed = await render('deploymentMode=distributed');
});

describe('Kafka (Strimzi kafka.strimzi.io/v1)', () => {
  it('serves clients on a TLS listener with SCRAM-SHA-512 and the simple authorizer, topics not auto-created', () => {
    const kafka = named(distributed, 'Kafka', 'kb-kaboodle-kafka');
    expect(kafka.apiVersion).toBe('kafka.strimzi.io/v1');
    expect(kafka.metadata.annotations ?? {}).toEqual({}); // v1: KRaft and node pools are the only mode
    expect(kafka.spec!.kafka.listeners).toEqual([
      { name: 'tls', port: 9093, type: 'internal', tls: true, authentication: { type: 'scram-sha-512' } },
    ]);
    expect(kafka.spec!.kafka.authorization).toEqual({ type: 'simple' });
    expect(kafka.spec!.kafka.config['auto.create.topics.enable']).toBe(false);
    expect(named(distributed, 'ConfigMap', 'kb-kaboodle-config').data).toMatchObject({
      KAFKA_BROKERS: 'kb-kaboodle-kafka-kafka-bootstrap:9093',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_TLS: 'true',
    });
  });

  it('is checked against the v1 schema: what only v1beta2 had is refused', async () => {
    const kafka = named(distributed, 'Kafka', 'kb-kaboodle-kafka');
    const withZookeeper = { ...kafka, spec: { ...kafka.spec, zookeeper: { replicas: 3 } } };
    await expect(validateAll([withZookeeper])).rejects.toThrow(/must NOT have additional properties/);
    const withReplicas = { ...kafka, spec: { ...kafka.spec, kafka: { ...kafka.spec!.kafka, replicas: 3 } } };
    await expect(validateAll([withReplicas])).rejects.toThrow(/kafka\.strimzi\.io\/v1\/Kafka/);
    const topic = byKind(distributed, 'KafkaTopic')[0]!;
    await expect(validateAll([{ ...topic, spec: { ...topic.spec, partitions: 0 } }])).rejects.toThrow(/>= 1/);
  });

  it('provisions every topic the code uses and its dead-letter twin, sized for the autoscaler', () => {
    const topics = byKind(distributed, 'KafkaTopic');
    const names = topics.map((t) => t.spec!.topicName);
    for (const topic of Object.values(Topics)) {
      expect(names).toContain(topic);
      expect(names).toContain(`${topic}.dlq`);
    }
    // 10 processing pods × 4 files each: at least 40 partitions, or pods beyond them would idle.
    for (const t of topics) expect(t.spec!.partitions).toBeGreaterThanOrEqual(40);
    const dlq = topics.find((t) => t.spec!.topicName === `${Topics.fileUploaded}.dlq`)!;
    expect(dlq.spec!.config['retention.ms']).toBe(2592000000);
  });

  it('refuses fewer partitions than processing can use (maxReplicas × concurrency)', async () => {
    const failure = await renderFailure('deploymentMode=distributed', 'engines.kafka.partitions=12');
    expect(failure).toContain(
      'engines.kafka.partitions: 12 partitions cap the cluster at 12 files analysed at once, below services.processing.autoscaling.maxReplicas × concurrency = 40',
    );
  });

  it('gives each service a KafkaUser whose ACLs cover exactly the topics and groups its code uses', async () => {
    const users = Object.fromEntries(
      byKind(distributed, 'KafkaUser').map((u) => [u.metadata.name.replace('kb-kaboodle-', ''), u]),
    );
    expect(Object.keys(users).sort()).toEqual([
      'auth',
      'catalogue',
      'ingestion',
      'operator',
      'processing',
      'search',
    ]);
    const allowed = (service: string, op: string) =>
      (users[service]!.spec!.authorization.acls as Acl[])
        .filter((a) => a.resource.type === 'topic' && a.operations.includes(op))
        .map((a) => a.resource.name ?? '');
    // What the code publishes and subscribes to, read from the sources (so a new topic needs an ACL).
    const uses = await topicUsage();
    for (const service of ['auth', 'ingestion', 'processing', 'catalogue', 'search']) {
      const writes = new Set(allowed(service, 'Write'));
      for (const topic of uses[service]!.publishes)
        expect(writes, `${service} publishes ${topic}`).toContain(topic);
      const reads = new Set(allowed(service, 'Read'));
      for (const topic of uses[service]!.subscribes) {
        expect(reads, `${service} reads ${topic}`).toContain(topic);
        expect(writes, `${service} dead-letters ${topic}`).toContain(`${topic}.dlq`);
      }
      // Nothing else: no wildcard, no topic it never touches.
      for (const a of users[service]!.spec!.authorization.acls as Acl[])
        if (a.resource.type === 'topic') expect(a.resource.patternType).toBe('literal');
      expect(allowed(service, 'Read').filter((t) => !uses[service]!.subscribes.has(t))).toEqual([]);
    }
    expect(allowed('search', 'Write').filter((t) => !t.endsWith('.dlq'))).toEqual([]);
  });

  it('hands each service its own SCRAM password and the cluster CA, no other user’s', () => {
    for (const service of ['auth', 'ingestion', 'processing', 'catalogue', 'search']) {
      const deployment = named(distributed, 'Deployment', `kb-kaboodle-${service}`);
      const env = deployment.spec!.template.spec.containers[0].env as Array<{
        name: string;
        value?: string;
        valueFrom?: { secretKeyRef: { name: string } };
      }>;
      expect(env.find((e) => e.name === 'KAFKA_SASL_USERNAME')?.value).toBe(`kb-kaboodle-${service}`);
      expect(env.find((e) => e.name === 'KAFKA_SASL_PASSWORD')?.valueFrom?.secretKeyRef.name).toBe(
        `kb-kaboodle-${service}`,
      );
    }
    const web = named(distributed, 'Deployment', 'kb-kaboodle-web');
    expect(JSON.stringify(web.spec!.template.spec)).not.toMatch(/KAFKA_SASL|cluster-ca-cert/);
  });
});

describe('PostgreSQL (CloudNativePG)', () => {
  it('makes a login role per service owning only its schema, passwords from Secrets it does not generate', () => {
    const cluster = named(distributed, 'Cluster', 'kb-kaboodle-pg');
    expect(cluster.spec!.enableSuperuserAccess).toBe(false);
    const sql = cluster.spec!.bootstrap.initdb.postInitApplicationSQL as string[];
    for (const service of ['auth', 'ingestion', 'catalogue']) {
      expect(sql).toContain(`CREATE SCHEMA ${service} AUTHORIZATION ${service}`);
      expect(sql).toContain(`ALTER ROLE ${service} SET search_path = ${service}`);
    }
    expect(sql.join('\n')).not.toMatch(/ROLE search|SCHEMA search/);
    expect(cluster.spec!.managed.roles).toEqual(
      ['auth', 'ingestion', 'catalogue'].map((name) => ({
        name,
        ensure: 'present',
        login: true,
        superuser: false,
        createdb: false,
        createrole: false,
        passwordSecret: { name: `kb-kaboodle-pg-${name}` },
      })),
    );
  });

  it('puts PgBouncer in front and archives WAL with scheduled base backups', () => {
    const pooler = named(distributed, 'Pooler', 'kb-kaboodle-pg-pooler');
    expect(pooler.spec).toMatchObject({ cluster: { name: 'kb-kaboodle-pg' }, type: 'rw', instances: 2 });
    expect(pooler.spec!.pgbouncer.poolMode).toBe('session');
    const cluster = named(distributed, 'Cluster', 'kb-kaboodle-pg');
    expect(cluster.spec!.plugins).toEqual([
      {
        name: 'barman-cloud.cloudnative-pg.io',
        isWALArchiver: true,
        parameters: { barmanObjectName: 'kb-kaboodle-pg-backups' },
      },
    ]);
    const store = named(distributed, 'ObjectStore', 'kb-kaboodle-pg-backups');
    expect(store.spec!.retentionPolicy).toBe('30d');
    expect(store.spec!.configuration.destinationPath).toBe('s3://kaboodle-backups/');
    const scheduled = named(distributed, 'ScheduledBackup', 'kb-kaboodle-pg-daily');
    expect(scheduled.spec).toMatchObject({ method: 'plugin', schedule: '0 0 3 * * *' });
  });

  it('sends backups off-cluster when told where', async () => {
    const objects = await render(
      'deploymentMode=distributed',
      'engines.postgres.backup.destinationPath=s3://dr-bucket/kaboodle',
      'engines.postgres.backup.endpointURL=https://s3.eu-west-1.amazonaws.com',
    );
    await validateAll(objects);
    expect(named(objects, 'ObjectStore', 'kb-kaboodle-pg-backups').spec!.configuration).toMatchObject({
      destinationPath: 's3://dr-bucket/kaboodle',
      endpointURL: 'https://s3.eu-west-1.amazonaws.com',
    });
    // No MinIO bucket or user for backups then.
    expect(named(objects, 'Tenant', 'kb-kaboodle-minio').spec!.buckets).toEqual([{ name: 'kaboodle' }]);
  });
});

describe('Elasticsearch (ECK) and MinIO', () => {
  it('keeps TLS on and gives search a user whose role covers the search index only', () => {
    const es = named(distributed, 'Elasticsearch', 'kb-kaboodle-es');
    expect(es.spec!.http).toBeUndefined(); // ECK's default: TLS with its own CA
    expect(es.spec!.auth).toEqual({
      roles: [{ secretName: 'kb-kaboodle-es-roles' }],
      fileRealm: [{ secretName: 'kb-kaboodle-es-search' }],
    });
    const roles = named(distributed, 'Secret', 'kb-kaboodle-es-roles').stringData!['roles.yml']!;
    expect(roles).toContain('names: ["kaboodle-entities", "kaboodle-entities-*"]');
    expect(roles).not.toMatch(/superuser|\ball\b|names: \["\*"\]/);
    const config = named(distributed, 'ConfigMap', 'kb-kaboodle-config').data!;
    expect(config['ELASTICSEARCH_URL']).toBe('https://kb-kaboodle-es-es-http:9200');
    expect(config['ELASTICSEARCH_USERNAME']).toBe('kaboodle-search');
    expect(JSON.stringify(distributed)).not.toContain('es-elastic-user');
  });

  it('reads MinIO root credentials from a Secret you make and gives each service a bucket-scoped user', () => {
    const tenant = named(distributed, 'Tenant', 'kb-kaboodle-minio');
    expect(tenant.spec!.configuration).toEqual({ name: 'kb-kaboodle-minio-root' });
    const policies = named(distributed, 'ConfigMap', 'kb-kaboodle-minio-policies').data!;
    const actions = (service: string) => JSON.parse(policies[`${service}.json`]!).Statement[0].Action;
    expect(actions('processing')).toEqual(['s3:GetObject']);
    expect(actions('ingestion')).toEqual(['s3:PutObject', 's3:GetObject', 's3:DeleteObject']);
    expect(actions('catalogue')).toEqual(['s3:GetObject', 's3:DeleteObject']);
    const job = named(distributed, 'Job', 'kb-kaboodle-minio-setup');
    expect(job.metadata.annotations?.['helm.sh/hook']).toBe('post-install,post-upgrade');
  });

  it('renders the same bytes every time: no generated password, no lookup of live objects', async () => {
    const [a, b] = await Promise.all([
      render('deploymentMode=distributed'),
      render('deploymentMode=distributed'),
    ]);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const templates = await readdir(path.join(chart, 'templates'), { recursive: true });
    for (const file of templates.filter((f) => /\.(yaml|tpl|txt)$/.test(f))) {
      const text = await readFile(path.join(chart, 'templates', file), 'utf8');
      expect(text, file).not.toMatch(/\blookup\b|randAlphaNum|randAscii|genPrivateKey|genCA|uuidv4/);
    }
  });
});

/** Topics each service publishes and subscribes to, read from its sources (services/<name>/src). */
async function topicUsage(): Promise<Record<string, { publishes: Set<string>; subscribes: Set<string> }>> {
  const root = path.join(chart, '../..');
  const byKey = Object.fromEntries(Object.entries(Topics)) as Record<string, string>;
  const out: Record<string, { publishes: Set<string>; subscribes: Set<string> }> = {};
  for (const service of ['auth', 'ingestion', 'processing', 'catalogue', 'search']) {
    const dir = path.join(root, 'services', service, 'src');
    const files = (await readdir(dir, { recursive: true })).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('testing'),
    );
    const publishes = new Set<string>();
    const subscribes = new Set<string>();
    for (const file of files) {
      const text = await readFile(path.join(dir, file), 'utf8');
      for (const m of text.matchAll(/topics:\s*\[([^\]]*)\]/g))
        for (const k of m[1]!.matchAll(/Topics\.(\w+)/g)) subscribes.add(byKey[k[1]!]!);
      for (const m of text.matchAll(/\btopic:\s*Topics\.(\w+)/g)) publishes.add(byKey[m[1]!]!);
      for (const m of text.matchAll(/\b(?:outgoing|createEvent|encodeEvent|publish)\(\s*Topics\.(\w+)/g))
        publishes.add(byKey[m[1]!]!);
    }
    out[service] = { publishes, subscribes };
  }
  // Subscriptions spelled through a constant list (catalogue's CATALOGUE_TOPICS) and the kit's session
  // revocations, which every service that verifies sessions subscribes to.
  const catalogue = await readFile(path.join(root, 'services/catalogue/src/file-events.consumer.ts'), 'utf8');
  const list = /CATALOGUE_TOPICS\s*=\s*\[([^\]]*)\]/.exec(catalogue)?.[1] ?? '';
  for (const k of list.matchAll(/Topics\.(\w+)/g)) out.catalogue!.subscribes.add(byKey[k[1]!]!);
  for (const s of ['ingestion', 'catalogue', 'search']) out[s]!.subscribes.add(Topics.sessionRevoked);
  return out;
}
