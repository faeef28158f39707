/**
 * A static Dockerfile lint for the app images (no Docker engine runs in CI): the parts of the image
 * contract that matter in production, checked from the text.
 */
import { AUTH_GLIBC_TUNABLES, nodeOptionsOf, SERVICE_NODE_OPTIONS, SINGLE_PROCESS_NODE_OPTIONS } from '@mt/stack';

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  image: string;
  name?: string;
  instructions: Instruction[];
}

/** Instructions with line continuations joined and comments dropped, grouped by FROM. */
export function parseDockerfile(text: string): Stage[] {
  const instructions: Instruction[] = [];
  let pending: { text: string; line: number } | undefined;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && !pending)) return;
    const continued = line.endsWith('\\');
    const content = continued ? line.slice(0, -1).trim() : line;
    pending = pending
      ? { ...pending, text: `${pending.text} ${content}` }
      : { text: content, line: index + 1 };
    if (continued) return;
    const match = /^(\S+)\s*(.*)$/.exec(pending.text);
    if (match)
      instructions.push({ keyword: match[1].toUpperCase(), args: match[2].trim(), line: pending.line });
    pending = undefined;
  });

  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.args.replace(/--platform=\S+\s*/, '').split(/\s+/);
      stages.push({ image, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push(instruction);
    }
  }
  return stages;
}

/**
 * The stages a target's image is built from, base first: the target and every stage it stands on through
 * `FROM <stage>`. Empty when no stage has that name.
 */
export function imageChain(stages: readonly Stage[], target: string): Stage[] {
  const chain: Stage[] = [];
  for (let stage = stages.find((s) => s.name === target); stage && !chain.includes(stage); ) {
    chain.unshift(stage);
    const parent: string = stage.image;
    stage = stages.find((s) => s.name === parent);
  }
  return chain;
}

/** A target's image as one stage: the base image of its chain and the chain's instructions in build order. */
export function imageOf(stages: readonly Stage[], target: string): Stage | undefined {
  const chain = imageChain(stages, target);
  if (chain.length === 0) return undefined;
  return { image: chain[0].image, name: target, instructions: chain.flatMap((stage) => stage.instructions) };
}

/** The command of an exec-form (`["a","b"]`) or shell-form instruction, as one string. */
function commandText(args: string): string {
  const trimmed = args.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.map(String).join(' ');
    } catch {
      return trimmed;
    }
  }
  return trimmed;
}

const fromStage = (args: string): string | undefined => /--from=(\S+)/.exec(args)?.[1];

export const BASE_IMAGE = 'node:24-bookworm-slim';

export interface ImageExpectations {
  /** The app, also the name of its image's target stage. */
  app: string;
  port: number;
}

/**
 * Every problem of the app's image (its target stage and the stages it stands on), as readable sentences;
 * an empty list means the image passes.
 */
export function lintDockerfile(text: string, { app, port }: ImageExpectations): string[] {
  const problems: string[] = [];
  const stages = parseDockerfile(text);
  if (stages.length < 2) problems.push(`multi-stage build expected, found ${stages.length} stage(s)`);
  if (stages.length === 0) return problems;
  const image = imageOf(stages, app) ?? stages[stages.length - 1];
  if (image.name !== app) problems.push(`no target stage named ${app}`);

  const stageNames = new Set(stages.map((stage) => stage.name).filter(Boolean));
  for (const stage of stages) {
    if (!stageNames.has(stage.image) && stage.image !== BASE_IMAGE) {
      problems.push(`stage ${stage.name ?? '(unnamed)'} is FROM ${stage.image}, expected ${BASE_IMAGE}`);
    }
  }
  const runs = (stage: Stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);

  const prodDepsStages = stages.filter((stage) =>
    runs(stage).some((run) => /\bnpm ci\b[^&;]*--omit=dev/.test(run)),
  );
  if (prodDepsStages.length === 0)
    problems.push('no stage installs production dependencies with `npm ci --omit=dev`');
  const devDepsStages = stages.filter((stage) =>
    runs(stage).some((run) => /\bnpm (ci|install)\b/.test(run) && !/--omit=dev/.test(run)),
  );

  const buildStages = stages.filter((stage) =>
    runs(stage).some(
      (run) =>
        run.includes(`tools/build/build-app.mjs apps/${app}`) ||
        new RegExp(`\\bnx build ${app}\\b`).test(run),
    ),
  );
  if (buildStages.length === 0)
    problems.push(`no stage builds the app (build-app.mjs apps/${app} or nx build ${app})`);

  const imageInstructions = (keyword: string) => image.instructions.filter((i) => i.keyword === keyword);
  if (image.image !== BASE_IMAGE) problems.push(`the image must start from ${BASE_IMAGE}, not ${image.image}`);
  if (runs(image).some((run) => /\bnpm (ci|install)\b/.test(run))) {
    problems.push('the image installs packages itself instead of copying the production dependencies');
  }

  const copies = imageInstructions('COPY');
  const nodeModulesCopy = copies.find((copy) => /node_modules/.test(copy.args));
  const nodeModulesFrom = nodeModulesCopy && fromStage(nodeModulesCopy.args);
  if (!nodeModulesFrom || !prodDepsStages.some((stage) => stage.name === nodeModulesFrom)) {
    problems.push('the image must copy node_modules from the `npm ci --omit=dev` stage');
  }
  if (devDepsStages.some((stage) => stage.name && stage.name === nodeModulesFrom)) {
    problems.push(`node_modules come from stage ${nodeModulesFrom}, which installs dev dependencies`);
  }
  const bundleCopy = copies.find((copy) => copy.args.includes(`dist/apps/${app}`));
  if (!bundleCopy || !buildStages.some((stage) => stage.name === fromStage(bundleCopy.args))) {
    problems.push(`the image must copy dist/apps/${app} from the build stage`);
  }

  const users = imageInstructions('USER');
  const user = users[users.length - 1]?.args.split(':')[0];
  if (!user) problems.push('the image runs as root: no USER');
  else if (user === 'root' || user === '0') problems.push(`the image runs as root (USER ${user})`);
  else if (!/^\d+$/.test(user))
    problems.push(`USER ${user} is not numeric, so Kubernetes cannot verify runAsNonRoot`);

  const healthchecks = imageInstructions('HEALTHCHECK');
  if (healthchecks.length !== 1)
    problems.push(`one HEALTHCHECK expected in the image, found ${healthchecks.length}`);
  const healthcheck = healthchecks[0]?.args ?? '';
  const probe = commandText(healthcheck.replace(/^(--\S+\s+)*CMD\s+/, ''));
  if (healthchecks.length === 1) {
    if (!/\/livez\b/.test(probe)) problems.push('the HEALTHCHECK must probe /livez');
    if (!/^node\b/.test(probe))
      problems.push('the HEALTHCHECK must run node (slim images have no curl or wget)');
    if (!/--timeout=\d+s/.test(healthcheck)) problems.push('the HEALTHCHECK needs a --timeout');
  }

  const exposed = imageInstructions('EXPOSE').flatMap((i) => i.args.split(/\s+/));
  if (!exposed.includes(String(port)))
    problems.push(`EXPOSE ${port} expected, found ${exposed.join(', ') || 'none'}`);
  const env = imageInstructions('ENV')
    .map((i) => i.args)
    .join(' ');
  if (!new RegExp(`\\bPORT=${port}\\b`).test(env))
    problems.push(`ENV PORT=${port} expected in the image`);
  if (!/\bNODE_ENV=production\b/.test(env))
    problems.push('ENV NODE_ENV=production expected in the image');
  // The launcher's settings, so that an image runs a service as `npm start` does (its single process too).
  // The last ENV that sets NODE_OPTIONS is the image's.
  const nodeOptions = [...env.matchAll(/(?:^|\s)NODE_OPTIONS=("[^"]*"|\S+)/g)].at(-1)?.[1]?.replace(/^"|"$/g, '');
  const expectedOptions = app === 'all-in-one' ? `${SERVICE_NODE_OPTIONS} ${SINGLE_PROCESS_NODE_OPTIONS}` : nodeOptionsOf(app);
  if (nodeOptions !== expectedOptions)
    problems.push(`ENV NODE_OPTIONS="${expectedOptions}" expected in the image, found ${nodeOptions ?? 'none'} (libs/stack nodeOptionsOf)`);
  // The auth service's, also where the all-in-one host runs it.
  if ((app === 'auth-service' || app === 'all-in-one') && !env.includes(`GLIBC_TUNABLES=${AUTH_GLIBC_TUNABLES}`))
    problems.push(`ENV GLIBC_TUNABLES=${AUTH_GLIBC_TUNABLES} expected in the image (libs/stack AUTH_GLIBC_TUNABLES)`);

  // The last CMD is the image's.
  const cmdArgs = imageInstructions('CMD').at(-1)?.args ?? '';
  const cmd = commandText(cmdArgs);
  if (!/^node\b.*\bmain\.js$/.test(cmd))
    problems.push(`CMD must run node main.js (exec form), found "${cmd}"`);
  if (!cmdArgs.trim().startsWith('[')) {
    problems.push('CMD must use the exec form, so node is PID 1 and receives SIGTERM');
  }

  for (const stage of stages) {
    for (const instruction of stage.instructions) {
      if (
        (instruction.keyword === 'ENV' || instruction.keyword === 'ARG') &&
        /SECRET|PRIVATE_KEY|PASSWORD/.test(instruction.args)
      ) {
        problems.push(
          `line ${instruction.line}: ${instruction.keyword} must not carry secrets (${instruction.args})`,
        );
      }
      if (instruction.keyword === 'ADD' && /https?:\/\//.test(instruction.args)) {
        problems.push(`line ${instruction.line}: ADD of a remote URL`);
      }
    }
  }
  return problems;
}

/**
 * Whether the build context (with this .dockerignore) includes a file, with Docker's rules: patterns
 * relative to the context root, `*` within a segment, `**` across segments, `!` re-includes, the last
 * matching pattern wins, and excluding a directory excludes everything under it.
 */
export function isInBuildContext(dockerignore: string, file: string): boolean {
  const patterns = dockerignore
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const glob = (negated ? line.slice(1) : line).replace(/^\/+|\/+$/g, '');
      const source = glob
        .split('/')
        .map((segment) =>
          segment === '**'
            ? '(?:.*)'
            : segment
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replace(/\*/g, '[^/]*')
                .replace(/\?/g, '[^/]'),
        )
        .join('/')
        .replace(/\(\?:\.\*\)\//g, '(?:.*/)?');
      return { negated, regex: new RegExp(`^${source}$`) };
    });
  const segments = file.split('/');
  const candidates = segments.map((_, index) => segments.slice(0, index + 1).join('/'));
  let included = true;
  for (const { negated, regex } of patterns) {
    if (candidates.some((candidate) => regex.test(candidate))) included = negated;
  }
  return included;
}
