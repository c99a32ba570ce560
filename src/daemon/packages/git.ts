// git, run through Bun.spawn: clone shallowly, fetch and hard-reset.
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { withoutCredentials } from "../../base/url-credentials.ts";

export class GitError extends Error {}

export { withoutCredentials };

/** Runs git; a non-zero exit throws with what git said. Never prompts for credentials. */
export async function git(args: string[], cwd?: string): Promise<string> {
  if (!Bun.which("git")) throw new GitError("git is not installed: install git to use the hub (e.g. apt-get install git)");
  // No helper-running transports (ext::) whatever the user's git config says.
  const proc = Bun.spawn(["git", "-c", "protocol.ext.allow=never", ...args], {
    cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) {
    const said = withoutCredentials(stderr.trim().split("\n").slice(-2).join(" / "));
    throw new GitError(`git ${args[0]} failed (exit ${code})${said ? `: ${said}` : ""}`);
  }
  return stdout;
}

/** A branch name git cannot mistake for an option. */
const BRANCH = /^[A-Za-z0-9_][A-Za-z0-9._/-]{0,199}$/;

/** A shallow clone of `url` into `dir`, or, when `dir` already is one, fetch + hard reset to the branch. */
export async function syncClone(url: string, dir: string, branch: string): Promise<void> {
  if (branch && (!BRANCH.test(branch) || branch.includes(".."))) throw new GitError(`invalid branch name '${branch}'`);
  if (url.startsWith("-")) throw new GitError(`invalid repository URL '${withoutCredentials(url)}'`);
  if (existsSync(join(dir, ".git"))) {
    const remote = (await git(["remote", "get-url", "origin"], dir).catch(() => "")).trim();
    if (remote === url) {
      const ref = branch || "HEAD";
      await git(["fetch", "--depth", "1", "origin", ref], dir);
      await git(["reset", "--hard", "FETCH_HEAD"], dir);
      return;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  await git(["clone", "--depth", "1", ...(branch ? ["--branch", branch] : []), "--", url, dir]);
}
