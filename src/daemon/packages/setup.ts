// `[package.setup]` (docs/packages.md): the script runs from the package
// repository with bash; the prompt goes to the default agent as a run.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_AGENT } from "../../runtime/agent-settings.ts";
import type { Host } from "../../runtime/host.ts";
import { startTurn } from "../turn.ts";
import { runStreaming } from "./lines.ts";
import { insideDir } from "./resolve.ts";

/** A file inside `dir` named by `ref`, if there is one (never outside it, symbolic links included). */
function fileIn(dir: string | undefined, ref: string): string | undefined {
  if (!dir || ref.includes("\n")) return undefined;
  const path = join(dir, ref);
  if (!existsSync(path) || !statSync(path).isFile()) return undefined;
  return insideDir(dir, path) ? path : undefined;
}

/** Runs the setup script (a file of the repository, else a bash command line), yielding its output lines. */
export function runSetupScript(script: string, repo: string | undefined, cwd: string, env: Record<string, string | undefined>): AsyncGenerator<string> {
  const file = fileIn(repo, script);
  const argv = file ? ["bash", file] : ["bash", "-c", script];
  return runStreaming(argv, { cwd, env, what: "setup script" });
}

/** Sends the setup prompt (a `.md` file of the repository, else the text itself) to the default agent; yields its output lines. */
/** `cwd`: the run's directory; undefined = the default agent's `cwd`, else the user's home (as any run naming none). */
export async function* runSetupPrompt(host: Host, prompt: string, repo: string | undefined, cwd: string | undefined): AsyncGenerator<string> {
  const file = prompt.endsWith(".md") ? fileIn(repo, prompt) : undefined;
  const content = file ? readFileSync(file, "utf8") : prompt;
  const session = await host.sessions.create(DEFAULT_AGENT, "hub");
  if (cwd !== undefined) session.cwd = cwd;
  try {
    const task = startTurn(host, session, { content, sender: "hub", streaming: false, title: false });
    let pending = "";
    for await (const e of task.events) {
      if (e.type !== "text") continue;
      pending += e.text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      yield* lines;
    }
    if (pending) yield pending;
    const outcome = await task.outcome;
    if (outcome.stopReason === "error") throw new Error(`setup prompt failed: ${outcome.error ?? "run failed"}`);
  } finally {
    host.sessions.kill(session.id);
  }
}
