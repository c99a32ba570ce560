// doctor's provider and model checks. The keys are checked by the daemon
// (ListProviders reports whether each resolves and from where, never the
// value): a variable set in the user's shell is not in a service's environment.
import type { Client } from "../../protocol/client.ts";
import type { DaemonConfig } from "../../config/schema.ts";
import type { HomePaths } from "../../base/home-paths.ts";
import { noModelHint } from "../../config/no-model-hint.ts";
import { providerKeyStatus, type KeyStatus } from "../../config/provider-keys.ts";
import { DAEMON_LABEL } from "../../service/spec.ts";
import { providerKindSpec } from "../../base/provider-kinds.ts";
import type { CheckResult } from "./checks.ts";

type Env = Record<string, string | undefined>;
/** A key's status as the daemon reports it (ProviderKeyStatus) or as computed here. */
type Status = Omit<KeyStatus, "field" | "source"> & { field: string; source: string };

const ok = (what: string): CheckResult => ({ outcome: "ok", what });
const fail = (what: string, fix: string): CheckResult => ({ outcome: "fail", what, fix });

const FROM: Record<string, string> = {
  config: "written in config.toml",
  environment: "from the daemon's environment",
  env_table: "from [env] in config.toml",
};

/** Where the daemon gets its environment, by how it is run: the place to give it a variable. */
function whereToSet(vars: string[], paths: HomePaths, manager: string): string {
  const name = vars[0] ?? "NAME";
  const envTable = `write ${name} = "…" under [env] in ${paths.config}, then: crabtalk reload`;
  switch (manager) {
    case "systemd":
      return `the daemon runs as a systemd unit and does not see your shell: systemctl --user edit ${DAEMON_LABEL}, add [Service] Environment=${name}=…, then: crabtalk restart; or ${envTable}`;
    case "none":
      return `the daemon has the environment of the shell that started it: export ${name} there, then: crabtalk restart; or ${envTable}`;
    default:
      return `the daemon runs as a ${manager} service and does not see your shell: ${envTable}`;
  }
}

function describe(name: string, kind: string, keys: Status[], paths: HomePaths, manager: string): CheckResult {
  const otherwise = providerKindSpec(kind)?.credentials.otherwise;
  if (otherwise !== undefined && keys.length === 0) return ok(`provider ${name} (${kind}) uses ${otherwise}`);
  const problems: string[] = [];
  const found: string[] = [];
  for (const k of keys) {
    if (k.resolved) found.push(`${k.field} ${FROM[k.source] ?? ""}${k.vars.length ? ` (${k.vars.join(", ")})` : ""}`.trim());
    else if (k.vars.length > 0) {
      // Written as a reference, so a key is meant, even where a base_url server could do without one.
      const unset = k.unset.length ? k.unset : k.vars;
      problems.push(`${k.field} uses \${${unset.join("}, ${")}}, which the daemon has no value for: it would call ${name} without a key`);
    } else if (k.required) problems.push(`${k.field} is missing`);
  }
  if (problems.length === 0) return ok(`provider ${name} (${kind}) has its key${found.length ? `: ${found.join("; ")}` : ""}`);
  const vars = keys.flatMap((k) => (k.resolved ? [] : k.unset));
  const fix =
    vars.length > 0
      ? whereToSet(vars, paths, manager)
      : `write the key into [provider.${name}] of ${paths.config}, or a \${NAME} reference to a variable the daemon has`;
  return fail(`provider ${name}: ${problems.join("; ")}`, fix);
}

/** Asked of the running daemon: its loaded config, its environment. */
export async function daemonProviderChecks(client: Client, paths: HomePaths, manager: string): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const p of await client.listProviders()) {
    if (!p.enabled) continue;
    const kind = ((JSON.parse(p.config) as { kind?: string }).kind ?? "openai") as string;
    results.push(describe(p.name, kind, p.keys, paths, manager));
  }
  return results;
}

/** Without a daemon: the file against this shell's environment, said as such. */
export function localProviderChecks(config: DaemonConfig, env: Env, paths: HomePaths, manager: string): CheckResult[] {
  const disabled = new Set(config.disabled.providers);
  return Object.entries(config.provider)
    .filter(([name]) => !disabled.has(name))
    .map(([name, p]) => {
      const r = describe(name, p.kind, providerKeyStatus(p, env, config.env), paths, manager);
      return { ...r, what: `${r.what.replace("the daemon has no value for", "is not set here")} (checked here: the daemon did not answer)` };
    });
}

/** "no model configured" is a failure: every run would fail with it. */
export function modelCheck(active: string | undefined, paths: HomePaths, models: string[]): CheckResult {
  if (active) return ok(`active model ${active}`);
  const hint = noModelHint(paths.config, models);
  return fail("no model configured: every run would fail", hint.slice(hint.indexOf(": ") + 2));
}
