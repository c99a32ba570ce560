// `crabtalk agents list|show|create|update|delete` over the agent operations.
import { InvalidArgumentError, type Command } from "commander";
import { readFileSync } from "node:fs";
import type { AgentInfo } from "../../protocol/gen/crabtalk_pb.ts";
import { applyFlags, configFromInfo, configFromSource, fallbackOf, type AgentConfigFlags } from "../agent-config.ts";
import { withClient, type ConnectOptions } from "../connect.ts";
import { agentsTable } from "../listings.ts";
import { toPlain } from "../plain-json.ts";
import { action } from "./run.ts";

type WriteOptions = AgentConfigFlags & { print?: boolean; prompt?: string; promptFile?: string };

/** The system prompt given with --prompt or --prompt-file (- = stdin), or undefined when neither was given. */
async function promptFrom(opts: WriteOptions): Promise<string | undefined> {
  if (opts.prompt !== undefined && opts.promptFile !== undefined) throw new Error("give --prompt or --prompt-file, not both");
  if (opts.promptFile === "-" && opts.file === "-") throw new Error("--file and --prompt-file cannot both read standard input");
  if (opts.promptFile === undefined) return opts.prompt;
  if (opts.promptFile === "-") return await Bun.stdin.text();
  try {
    return readFileSync(opts.promptFile, "utf8");
  } catch (err) {
    throw new Error(
      `cannot read the prompt file ${opts.promptFile}: ${(err as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (err as Error).message}`,
    );
  }
}

export function registerAgentCommands(program: Command, conn: () => ConnectOptions): void {
  const agents = program
    .command("agents")
    .description("list, show, create, update and delete agents")
    .addHelpText(
      "after",
      `
Agents live in local/CrabTalk.toml ([agents.NAME]) with their prompt in
local/agents/NAME.md; changes take effect at once. The default agent crab is
configured in config.toml ([system.crab]), see crabtalk config.`,
    );

  agents
    .command("list")
    .description("list registered agents")
    .option("--json", "print a JSON array")
    .action(
      action(async (opts: { json?: boolean }) => {
        const list = await withClient(conn(), (client) => client.listAgents());
        console.log(opts.json ? JSON.stringify(toPlain(list)) : agentsTable(list));
      }),
    );

  agents
    .command("show")
    .description("show one agent's settings")
    .argument("<name>", "agent name")
    .option("--json", "print a JSON object")
    .action(
      action(async (name: string, opts: { json?: boolean }) => {
        const info = await withClient(conn(), (client) => client.getAgent(name));
        console.log(opts.json ? JSON.stringify(toPlain(info)) : describeAgent(info));
      }),
    );

  configFlags(
    agents
      .command("create")
      .description("create an agent with its system prompt (--prompt or --prompt-file; else an empty prompt file if it has none)")
      .argument("<name>", "letters, digits and -, up to 64 characters"),
  )
    .addHelpText(
      "after",
      `
Examples:
  crabtalk agents create reviewer --description "reviews diffs" --model gpt-4o --prompt "You review diffs."
  crabtalk agents create writer --prompt-file writer.md
  crabtalk agents create planner --json '{"thinking": true, "max_iterations": 40}'`,
    )
    .action(
      action(async (name: string, opts: WriteOptions) => {
        const config = applyFlags((await configFromSource(opts)) ?? {}, opts);
        const prompt = await promptFrom(opts);
        const info = await withClient(conn(), (client) => client.createAgent(name, JSON.stringify(config), prompt));
        console.log(`created agent ${info.name}`);
      }),
    );

  configFlags(agents.command("update").description("change an agent's settings").argument("<name>", "agent name"))
    .addHelpText(
      "after",
      `
With --json or --file the given config replaces the whole agent config (keys
left out get their defaults); flags then override single keys. With flags
only, the agent's current settings are kept and just those keys change.
--prompt or --prompt-file replaces the system prompt; without them it stays.`,
    )
    .action(
      action(async (name: string, opts: WriteOptions) => {
        const source = await configFromSource(opts);
        const prompt = await promptFrom(opts);
        const info = await withClient(conn(), async (client) => {
          const base = source ?? configFromInfo(await client.getAgent(name));
          return client.updateAgent(name, JSON.stringify(applyFlags(base, opts)), prompt);
        });
        console.log(`updated agent ${info.name}`);
      }),
    );

  agents
    .command("delete")
    .description("delete an agent: its [agents.NAME] entry and its prompt file local/agents/NAME.md")
    .argument("<name>", "agent name")
    .action(
      action(async (name: string) => {
        await withClient(conn(), (client) => client.deleteAgent(name));
        console.log(`deleted agent ${name}`);
      }),
    );
}

function configFlags(cmd: Command): Command {
  return cmd
    .option("--json <config>", 'agent config as JSON, e.g. \'{"description": "…", "model": "gpt-4o"}\'')
    .option("--file <path>", "read the agent config JSON from a file (- for standard input)")
    .option("--prompt <text>", "the agent's system prompt (written to local/agents/NAME.md)")
    .option("--prompt-file <path>", "read the system prompt from a file (- for standard input)")
    .option("--description <text>", "what the agent is for (shown to other agents)")
    .option("--model <name>", "model to use (default: the active model)")
    .option("--max-iterations <n>", "tool-calling steps before a run stops", parsePositive)
    .option("--thinking", "request reasoning from the model")
    .option("--no-thinking", "do not request reasoning")
    .option("--members <names>", "agents it may delegate to, comma-separated", (v: string) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .option(
      "--approve <rule>",
      'a tool call that waits for your yes, e.g. bash or "bash:rm *" (repeat for several; see docs/approvals.md)',
      (v: string, previous: string[] | undefined) => [...(previous ?? []), v],
    );
}

function parsePositive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("a whole number of at least 1");
  return n;
}

function describeAgent(a: AgentInfo): string {
  const rows: [string, string][] = [
    ["name", a.name],
    ["description", a.description || "-"],
    ["model", a.model ?? "(the active model)"],
    ["max_iterations", String(a.maxIterations)],
    ["thinking", a.thinking ? "yes" : "no"],
    ["members", a.members.join(", ") || "-"],
    ["skills", a.skills.join(", ") || "-"],
    ["mcps", a.mcps.join(", ") || "-"],
    ["fallback", fallbackOf(a).join(", ") || "-"],
    ["compact_threshold", a.compactThreshold === undefined ? "off" : String(a.compactThreshold)],
    ["compact_tool_max_len", String(a.compactToolMaxLen)],
    ["approve", a.approve.map((r) => JSON.stringify(r)).join(", ") || "-"],
  ];
  return rows.map(([k, v]) => `${`${k}:`.padEnd(22)}${v}`).join("\n");
}
