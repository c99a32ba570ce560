// InstallPackage (docs/packages.md) as a stream of progress: sync the hub,
// read the manifest, clone the package repository, run the setup script,
// install commands, copy the manifest, reload, run the setup prompt, warn.
// All or nothing: until the manifest is copied nothing is visible, and any
// failure undoes what was done and ends the stream with the error.
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { notFound } from "../../protocol/errors.ts";
import { writeFileAtomicSync } from "../../base/atomic-file.ts";
import { discoverSkills } from "../../runtime/skills/discover.ts";
import { manifestAgents, manifestMcps } from "../manifest.ts";
import { skillDirs } from "../skill-dirs.ts";
import type { DaemonState } from "../state.ts";
import { installCommand, npmCommandDir, type Progress } from "./commands.ts";
import { syncClone, withoutCredentials } from "./git.ts";
import { hubUrl, listDir, syncHub } from "./hub.ts";
import { unusableName } from "../../runtime/package-names.ts";
import { installedManifestPath, repoSlug, type PackageId } from "./id.ts";
import { listInstalled } from "./installed.ts";
import { needsRepository, readPackageManifest, type PackageManifest } from "./manifest.ts";
import { resolveAgents, resolveMcps } from "./resolve.ts";
import { runSetupPrompt, runSetupScript } from "./setup.ts";
import { scriptEnv } from "./script-env.ts";
import { userHome } from "../../base/home-paths.ts";
import type { RuntimeLog } from "../../base/runtime-log.ts";

export type { Progress } from "./commands.ts";

export interface InstallRequest {
  pkg: PackageId;
  branch: string;
  /** A local hub directory instead of the configured hub. */
  path: string;
  force: boolean;
}

const step = (text: string): Progress => ({ kind: "step", text });

export async function* installPackage(state: DaemonState, req: InstallRequest): AsyncGenerator<Progress> {
  const { paths } = state;
  const { pkg } = req;
  const target = installedManifestPath(paths.packages, pkg);
  if (existsSync(target) && !req.force) {
    yield step("already installed, use --force to overwrite");
    yield* reloadStep(state);
    return;
  }
  const manifestFile = join(yield* hubDirectory(state, req), pkg.scope, `${pkg.name}.toml`);
  if (!existsSync(manifestFile)) throw notFound(`package '${pkg.id}' is not in the hub (crabtalk search lists what is)`);
  const manifest = readPackageManifest(manifestFile, `${pkg.id}.toml`);
  const undo: (() => Promise<unknown> | void)[] = [];
  try {
    const repo = needsRepository(manifest) ? yield* cloneRepository(state, manifest, undo) : undefined;
    const script = manifest.package.setup?.script;
    if (script) {
      yield step("running setup script…");
      const env = scriptEnv(state.env, { CRABTALK_HOME: paths.home });
      for await (const line of runSetupScript(script, repo, repo ?? userHome(state.env), env)) yield { kind: "setup_output", text: line };
    }
    for (const [name, cmd] of Object.entries(manifest.commands)) {
      const installing = installCommand(paths.home, name, cmd, scriptEnv(state.env));
      let next = await installing.next();
      while (!next.done) {
        yield next.value;
        next = await installing.next();
      }
      undo.push(next.value);
    }
    const previous = existsSync(target) ? readFileSync(target, "utf8") : undefined;
    mkdirSync(dirname(target), { recursive: true });
    writeFileAtomicSync(target, readFileSync(manifestFile, "utf8"));
    undo.push(async () => {
      if (previous === undefined) removeManifest(target);
      else writeFileAtomicSync(target, previous);
      await state.reload();
    });
    yield* reloadStep(state);
    undo.length = 0; // installed: nothing to undo from here on
    for (const name of Object.keys(manifest.commands)) rmSync(`${npmCommandDir(paths.home, name)}.old`, { recursive: true, force: true });
    const prompt = manifest.package.setup?.prompt;
    if (prompt) yield* setupPrompt(state, prompt, repo);
    yield* warnings(state, pkg, manifest);
  } catch (err) {
    for (const u of undo.reverse()) await Promise.resolve(u()).catch(() => {});
    throw err;
  }
}

async function* hubDirectory(state: DaemonState, req: InstallRequest): AsyncGenerator<Progress, string> {
  if (req.path) {
    if (!existsSync(req.path)) throw new Error(`hub directory ${req.path} does not exist`);
    yield step(`using hub at ${req.path}`);
    return req.path;
  }
  const url = hubUrl(state.config.config.hub.url, state.env);
  yield step(`syncing hub ${withoutCredentials(url)}…`);
  return await syncHub(state.paths.hub, url, req.branch);
}

async function* cloneRepository(state: DaemonState, manifest: PackageManifest, undo: (() => void)[]): AsyncGenerator<Progress, string> {
  const url = manifest.package.repository;
  const dir = join(state.paths.cacheRepos, repoSlug(url));
  if (!existsSync(dir)) undo.push(() => rmSync(dir, { recursive: true, force: true }));
  yield step(`cloning ${withoutCredentials(url)}…`);
  mkdirSync(state.paths.cacheRepos, { recursive: true });
  await syncClone(url, dir, manifest.package.branch);
  return dir;
}

export async function* reloadStep(state: DaemonState): AsyncGenerator<Progress> {
  yield step("reloading daemon…");
  await state.reload();
}

/** The setup prompt's run is part of the package's first use, not of its install: a failure is a warning. */
async function* setupPrompt(state: DaemonState, prompt: string, repo: string | undefined): AsyncGenerator<Progress> {
  yield step("running setup prompt…");
  try {
    for await (const line of runSetupPrompt(state.host, prompt, repo, repo)) yield { kind: "setup_output", text: line };
  } catch (err) {
    yield { kind: "warning", text: (err as Error).message };
  }
}

export function removeManifest(target: string): void {
  rmSync(target, { force: true });
  try {
    rmdirSync(dirname(target)); // only when empty
  } catch {
    // other packages of the scope remain
  }
}

function* warnings(state: DaemonState, pkg: PackageId, manifest: PackageManifest): Generator<Progress> {
  const { paths } = state;
  const messages: string[] = [];
  const collect = (m: string) => messages.push(m);
  // Warnings of a dry resolution go to the user with the install, not to the daemon's log.
  const toUser: RuntimeLog = { warn: collect };
  const installed = listInstalled(paths.packages, paths.cacheRepos);
  resolveMcps(manifestMcps(paths.localManifest), installed, toUser);
  resolveAgents(manifestAgents(paths.localManifest), installed, toUser);
  discoverSkills(skillDirs(paths, installed), [], toUser);
  // Prompt files alone register agents too: one whose name is unusable is skipped (package-names.ts).
  const repo = installed.find((p) => p.id === pkg.id)?.repo;
  for (const file of repo ? listDir(join(repo, "agents")) : []) {
    const unusable = file.endsWith(".md") && unusableName("agent", file.slice(0, -".md".length), pkg.id);
    if (unusable) collect(unusable);
  }
  // Clashes this package lost, and those it won against a package later in the order.
  const names = [...Object.values(manifest.mcps).map((m) => m.name), ...Object.keys(manifest.agents)];
  const concerns = (m: string) => m.includes(` from ${pkg.id} `) || (m.includes(" conflicts with ") && names.some((n) => m.includes(`'${n}'`)));
  for (const m of new Set(messages)) if (concerns(m)) yield { kind: "warning", text: m };
  for (const mcp of Object.values(manifest.mcps)) {
    if (mcp.auth && !existsSync(paths.tokenFile(mcp.name))) {
      yield {
        kind: "warning",
        text: `MCP '${mcp.name}' needs OAuth and has no token yet (${paths.tokenFile(mcp.name)}): it will fail to connect until it has one`,
      };
    }
  }
  const envNames = Object.values(manifest.mcps).flatMap((m) => Object.keys(m.env));
  if (envNames.length > 0) {
    yield step(`set ${[...new Set(envNames)].join(", ")} in the [env] table of config.toml (or in the MCP's env) before use`);
  }
}
