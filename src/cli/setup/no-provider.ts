// What start, send and chat do when no model can be chosen at all (no
// provider configured, none detected): at a terminal, offer `crabtalk setup`;
// in a pipe, one line naming `crabtalk setup` and the key variables found.
import type { Client } from "../../protocol/client.ts";
import { DEFAULT_AGENT } from "../../base/default-agent.ts";
import { keyVarsIn } from "./key-vars.ts";
import { homePaths, resolveHome } from "../../base/home-paths.ts";

type Env = Record<string, string | undefined>;

/**
 * Whether `agent` has a model to run on: its own, else the active one (which
 * the daemon reports as crab's). True when the agent cannot be looked up:
 * the run then reports that itself.
 */
export async function hasModel(client: Pick<Client, "getAgent">, agent: string): Promise<boolean> {
  try {
    const info = await client.getAgent(agent);
    if (info.model) return true;
    if (agent === DEFAULT_AGENT) return false;
    return Boolean((await client.getAgent(DEFAULT_AGENT)).model);
  } catch {
    return true;
  }
}

/** The one line for a pipe: where the config is, what to run, and the key variables this environment has. */
export function noProviderLine(env: Env): string {
  const found = keyVarsIn(env);
  const first = found[0];
  const hint = first
    ? `; found ${found.map((f) => f.name).join(", ")} here: crabtalk setup --preset ${first.kind} --api-key-env ${first.name} --model <model>`
    : "; no provider key variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, …) is set here";
  const config = homePaths(resolveHome(env)).config;
  return (
    `no model configured in ${config}: run crabtalk setup, ` +
    `or crabtalk providers add NAME --kind KIND --api-key-env VAR --model MODEL (then crabtalk models use MODEL to switch)${hint}`
  );
}

/**
 * Makes sure a model is there before a run (or after start): true to go on.
 * At a terminal the user may set one up now; in a pipe the line is printed
 * (to stderr) and false returned.
 */
export async function ensureProvider(
  client: Client,
  agent: string,
  env: Env = process.env,
  say: (line: string) => void = (line) => process.stderr.write(`crabtalk: ${line}\n`),
): Promise<boolean> {
  if (await hasModel(client, agent)) return true;
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    say(noProviderLine(env));
    return false;
  }
  // The prompt library is loaded only here: commands that have a model never pay for it.
  const p = await import("@clack/prompts");
  const now = await p.confirm({ message: "No provider is configured, so no model can answer. Run crabtalk setup now?" });
  if (p.isCancel(now) || !now) {
    process.stderr.write("crabtalk: no model configured: run crabtalk setup when you are ready\n");
    return false;
  }
  const { interactiveSetup } = await import("./interactive.ts");
  return (await interactiveSetup(client, env)) === 0;
}
