// The checks of `crabtalk doctor`: each says what it found and, when it
// failed, what to do about it. Offline unless `online` is set.
import { existsSync, realpathSync, statSync } from "node:fs";
import { dirname } from "node:path";
import type { HomePaths } from "../../base/home-paths.ts";
import type { DaemonConfig } from "../../config/schema.ts";
import { VERSION, versionLine } from "../../version.ts";
import { connectClient } from "../connect.ts";
import { findManager, isCompiled, selfCommand } from "../daemon-control.ts";
import { sandboxCheck } from "./sandbox-check.ts";
import { daemonProviderChecks, localProviderChecks, modelCheck } from "./provider-checks.ts";
import { unknownKeyList } from "../../config/schema-keys.ts";
import type { Client } from "../../protocol/client.ts";
import { PROVIDER_KIND_TABLE, detectedKeyVars } from "../../base/provider-kinds.ts";

type Outcome = "ok" | "fail" | "info";

export interface CheckResult {
  outcome: Outcome;
  what: string;
  /** What to do, for a failure. */
  fix?: string;
}

type Env = Record<string, string | undefined>;

const ok = (what: string): CheckResult => ({ outcome: "ok", what });
const info = (what: string): CheckResult => ({ outcome: "info", what });
const fail = (what: string, fix: string): CheckResult => ({ outcome: "fail", what, fix });

function binaryChecks(env: Env): CheckResult[] {
  const self = selfCommand();
  const results = [ok(`${versionLine()} at ${self.join(" ")}`)];
  if (!isCompiled()) {
    results.push(info("running from source: the PATH check applies to an installed binary"));
    return results;
  }
  const found = Bun.which("crabtalk", { PATH: env.PATH ?? "" });
  const here = realpathSync(process.execPath);
  if (!found) {
    const dir = dirname(here);
    results.push(fail(`${dir} is not on PATH`, `add it: export PATH="${dir}:$PATH" (or re-run the installer with --add-to-path)`));
  } else if (realpathSync(found) !== here) {
    results.push(fail(`'crabtalk' on PATH is ${found}, not this binary`, `remove the other one or put ${dirname(here)} first on PATH`));
  } else {
    results.push(ok(`on PATH as ${found}`));
  }
  return results;
}

function modeCheck(path: string, label: string, strict: boolean): CheckResult {
  if (!existsSync(path)) return info(`${label} ${path} does not exist yet (the daemon creates it)`);
  const st = statSync(path);
  const mode = st.mode & 0o777;
  const octal = mode.toString(8).padStart(3, "0");
  if (process.getuid && st.uid !== process.getuid()) {
    return fail(`${label} ${path} belongs to uid ${st.uid}, not to you`, `chown -R $(id -u) ${path}`);
  }
  const open = strict ? mode & 0o077 : mode & 0o022;
  if (open) return fail(`${label} ${path} has mode ${octal}: other users can ${strict ? "get in" : "write to it"}`, `chmod ${strict ? 700 : "go-w"} ${path}`);
  return ok(`${label} ${path} (mode ${octal})`);
}

async function configCheck(paths: HomePaths): Promise<{ results: CheckResult[]; config?: DaemonConfig }> {
  if (!existsSync(paths.config)) return { results: [info(`no ${paths.config} yet (the daemon writes one at first start)`)] };
  const { loadConfigFile } = await import("../../config/load.ts");
  try {
    const { config, raw } = loadConfigFile(paths.config);
    // Unknown keys load (they are ignored), but a typo'd key is a setting that silently does nothing.
    const unknown = unknownKeyList(raw).map((k) =>
      fail(
        `config.toml: unknown key ${k.path}${k.guess ? ` (did you mean ${k.guess}?)` : ""}; ignored`,
        `${k.guess ? `rename it to ${k.guess} in` : "remove it from"} ${paths.config}, then: crabtalk reload`,
      ),
    );
    return { results: [ok(`${paths.config} is valid`), ...unknown], config };
  } catch (err) {
    return { results: [fail((err as Error).message, `edit ${paths.config}, then: crabtalk reload`)] };
  }
}

const REFERENCE = /\$\{([^{}]+)\}/g;

async function serviceCheck(env: Env): Promise<CheckResult> {
  let manager;
  try {
    manager = await findManager(env);
  } catch (err) {
    return fail((err as Error).message, "unset CRABTALK_SERVICE_MANAGER or give it a valid value");
  }
  if (manager.kind === "none") return info(`${manager.reason}: crabtalk start runs the daemon as a background process`);
  if (!(await manager.installed())) return info(`no ${manager.noun} installed (crabtalk start installs one)`);
  const program = manager.program();
  const self = selfCommand()[0]!;
  if (program !== undefined && program !== self) {
    return fail(`the ${manager.noun} ${manager.definition} runs ${program}, not this binary (${self})`, "crabtalk restart (it rewrites the definition)");
  }
  return ok(`the ${manager.noun} ${manager.definition} runs this binary`);
}

async function daemonChecks(client: Client | undefined): Promise<CheckResult[]> {
  if (!client) return [fail("the daemon does not answer", "crabtalk start (then crabtalk logs if it does not come up)")];
  const started = performance.now();
  const stats = await client.getStats();
  const results = [ok(`the daemon answers (${(performance.now() - started).toFixed(1)} ms)`)];
  if (stats.version && stats.version !== VERSION) {
    results.push(fail(`the daemon runs ${stats.version}, this CLI is ${VERSION}`, "crabtalk restart"));
  } else {
    results.push(ok(`the daemon and the CLI are both ${VERSION}`));
  }
  return results;
}

async function onlineChecks(config: DaemonConfig, env: Env): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const [name, p] of Object.entries(config.provider)) {
    const raw = p.base_url ?? PROVIDER_KIND_TABLE[p.kind].probeUrl?.({ region: p.region });
    if (!raw) continue;
    const url = raw.replace(REFERENCE, (_, v: string) => env[v] ?? "");
    try {
      const res = await fetch(url, { method: "GET", signal: AbortSignal.timeout(5000), redirect: "manual" });
      results.push(ok(`provider ${name}: ${url} answers (HTTP ${res.status})`));
    } catch (err) {
      results.push(fail(`provider ${name}: ${url} is not reachable (${(err as Error).message})`, "check the network, a proxy, or base_url"));
    }
  }
  return results;
}

export async function runChecks(paths: HomePaths, env: Env, options: { online?: boolean } = {}): Promise<CheckResult[]> {
  const results = binaryChecks(env);
  results.push(modeCheck(paths.home, "home", false));
  results.push(modeCheck(paths.runDir, "run directory", true));
  const { results: configResults, config } = await configCheck(paths);
  results.push(...configResults);
  const manager = await findManager(env).then(
    (m) => m.kind,
    () => "unknown",
  );
  const client = await connectClient({}).catch(() => undefined);
  try {
    // Keys and the model as the daemon has them; without a daemon, as this shell and the file have them.
    const models = config ? Object.values(config.provider).flatMap((p) => p.models) : [];
    if (client) {
      const providers = await daemonProviderChecks(client, paths, manager);
      results.push(
        ...(providers.length > 0 ? providers : [info(`no [provider.*] configured (the daemon looks for ${detectedKeyVars().join(", ")} or a local Ollama)`)]),
      );
      results.push(modelCheck((await client.getStats()).activeModel || undefined, paths, models));
    } else if (config) {
      results.push(...localProviderChecks(config, env, paths, manager));
      results.push(modelCheck(config.system.crab.model, paths, models));
    }
    results.push(await sandboxCheck(config, env));
    results.push(await serviceCheck(env));
    results.push(...(await daemonChecks(client)));
  } finally {
    await client?.close();
  }
  if (options.online && config) results.push(...(await onlineChecks(config, env)));
  return results;
}
