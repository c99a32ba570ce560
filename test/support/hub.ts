// Local git repositories for hub tests: a hub of manifests and package
// repositories, created by the test with the real git.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { REPO } from "./daemon.ts";
import type { Client } from "../../src/protocol/client.ts";
import type { FakeLLM } from "./fake-llm.ts";

function git(args: string[], cwd: string): void {
  const r = Bun.spawnSync(["git", ...args], {
    cwd,
    env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" },
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
}

/** A git repository at a new temporary directory holding `files` (path → content), committed. */
export function gitRepo(files: Record<string, string>, prefix = "crabtalk-repo-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(["init", "-q", "-b", "main"], dir);
  git(["add", "-A"], dir);
  git(["commit", "-q", "-m", "init"], dir);
  return dir;
}

/** Adds or replaces files and commits them. */
export function commitFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(["add", "-A"], dir);
  git(["commit", "-q", "-m", "update"], dir);
}

/** A git hub of the real hub manifests kept in test/fixtures/hub. */
export function realHub(): string {
  const dir = mkdtempSync(join(tmpdir(), "crabtalk-realhub-"));
  cpSync(join(REPO, "test/fixtures/hub"), dir, { recursive: true });
  git(["init", "-q", "-b", "main"], dir);
  git(["add", "-A"], dir);
  git(["commit", "-q", "-m", "hub"], dir);
  return dir;
}

/**
 * A directory with `crabtalk-echo-test`: a program that runs the example
 * component (examples/component/echo.ts) under the current bun; `marker` is
 * an argument that lets the test find its processes.
 */
export function echoComponentBin(marker: string): string {
  const bin = mkdtempSync(join(tmpdir(), "crabtalk-bin-"));
  const path = join(bin, "crabtalk-echo-test");
  writeFileSync(path, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(REPO, "examples/component/echo.ts"))} ${marker} "$@"\n`);
  chmodSync(path, 0o755);
  return bin;
}

/** Polls `get` until `ok` holds of its value (or `ms` pass); returns the last value. */
export async function until<T>(get: () => Promise<T>, ok: (v: T) => boolean, ms = 15000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (ok(v) || Date.now() > end) return v;
    await Bun.sleep(50);
  }
}

/** Has the default agent call MCP tool `tool` through the `mcp` tool (the fake model asks for it); returns the tool's output. */
export async function agentCallsMcpTool(fake: FakeLLM, client: Client, tool: string, args: Record<string, unknown>): Promise<string> {
  fake.script({ toolCalls: [{ id: "t1", name: "mcp", arguments: JSON.stringify({ name: tool, args: JSON.stringify(args) }) }] }, { text: "done" });
  let output = "";
  for await (const e of client.stream({ agent: "crab", content: `call ${tool}`, sender: "hub-tests", newChat: true })) {
    if (e.event.case === "toolResult") output = e.event.value.output;
  }
  return output;
}
