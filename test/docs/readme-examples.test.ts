// The README's shell examples are run exactly as written (issue 19), so an
// example that stops working fails CI.
//
// What is run: every line of every ```sh block of README.md whose command
// starts with `crabtalk ` or `npx bun src/main.ts `, or pipes into
// `crabtalk ` (`git diff | crabtalk send "review this diff" > review.md`),
// each with `bash -o pipefail -c LINE`, with
// - `crabtalk` on PATH: a wrapper running `bun src/main.ts` of this checkout;
// - CRABTALK_HOME a temporary home whose daemon runs against a fake OpenAI
//   provider (test/support/llm-daemon.ts), so `send` and `chat` get an answer;
// - as working directory a temporary git repository with an uncommitted
//   change (so `git diff` prints something), except `npx bun src/main.ts …`
//   lines, which the README runs from a checkout: those run in the repository.
// Every other line (blank and comment-only lines aside) is in SKIPPED below
// with the reason it cannot run here; the first test checks that the lines not
// run are exactly that list, so a new example cannot escape silently: it is
// run (and then needs a check in CHECKS), or it is listed here.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand, type CliResult } from "../support/cli.ts";
import { cleanup, MAIN, REPO } from "../support/daemon.ts";
import type { RecordedRequest } from "../support/fake-llm.ts";
import { isTitleRequest } from "../support/fake-llm.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";

/** README lines not run, by their command (the line without its trailing comment), and why. */
const SKIPPED: Record<string, string> = {
  "npm ci && npm start": "installs from the npm registry (network) and runs a daemon in the foreground",
  "npm ci && npm test": "the whole suite: .ci/run runs exactly this",
  "curl -fsSL https://github.com/crabtalk/crabtalk/releases/latest/download/install.sh | sh":
    "downloads a release (network); test/install/ runs install.sh against a local release server",
  "crabtalk start": "installs a user service with the real service manager; test/service/ runs it against a fake one",
  "npm ci": "installs from the npm registry (network)",
  "npm start": "runs a daemon in the foreground until Ctrl-C; this test's daemon stands in for it",
  "npx bun test": "the whole suite, this file included",
  "npx bun run typecheck": ".ci/run runs it",
  "npx bun run lint": ".ci/run runs it",
  "npx bun run format": "rewrites files; .ci/run checks the format (lint) instead",
  "npx bun run bench --quick": "benchmarks take minutes; bench/ is not part of the tests",
  "test/load.sh -n 5": "runs .ci/run five times",
};

/** A line's command: the line without a trailing `# comment` (none of the README's commands has a ` #` of its own). */
function commandOf(line: string): string {
  return line.replace(/\s+#.*$/, "").trim();
}

/** Lines of the README's ```sh blocks, blank and comment-only lines left out. */
function shellLines(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  return blocks.flatMap((b) => b.split("\n")).filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
}

function isRun(command: string): boolean {
  return /^(crabtalk|npx bun src\/main\.ts) /.test(command) || /\| *crabtalk /.test(command);
}

const README = readFileSync(join(REPO, "README.md"), "utf8");
const LINES = shellLines(README);
const RUN = LINES.filter((l) => isRun(commandOf(l)) && !(commandOf(l) in SKIPPED));

test("the README's shell lines that are not run are exactly the ones listed as skipped", () => {
  const notRun = new Set(LINES.filter((l) => !RUN.includes(l)).map(commandOf));
  expect([...notRun].sort()).toEqual(Object.keys(SKIPPED).sort());
  // Something is run: the examples did not all move out of reach of this test.
  expect(RUN.length).toBeGreaterThanOrEqual(8);
});

interface Context {
  line: string;
  result: CliResult;
  /** The answer the fake was scripted to give this line's message. */
  answer: string;
  /** Model requests (title requests aside) the fake received while the line ran. */
  requests: RecordedRequest[];
  /** The temporary git repository the line ran in. */
  repo: string;
}

/** Text of the last user message of a Chat Completions request. */
function lastUserText(req: RecordedRequest): string {
  const messages = (req.body as { messages?: { role: string; content: unknown }[] } | undefined)?.messages ?? [];
  const user = messages.filter((m) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content ?? "");
}

/** The quoted message of a `send` line: `send "hello"` → hello. */
function quotedMessage(line: string): string {
  const m = /send (?:--\S+ )*"([^"]*)"/.exec(line);
  if (!m) throw new Error(`no quoted message in ${line}`);
  return m[1];
}

/** What `git diff` printed in the test repository: the change the README's pipe example sends. */
const DIFF_LINE = "+the line a reviewer should see";

/** The subcommand a run line uses (`crabtalk send …` → send). */
function subcommand(command: string): string {
  const m = /(?:^|\| *)(?:crabtalk|npx bun src\/main\.ts) (\S+)/.exec(command);
  if (!m) throw new Error(`no crabtalk command in ${command}`);
  return m[1];
}

/** What each subcommand the README runs must show, beyond its exit status. */
const CHECKS: Record<string, (c: Context) => void> = {
  ping(c) {
    expect(c.result.stdout).toMatch(/pong/i);
  },
  stats(c) {
    expect(c.result.stdout).toMatch(/uptime/i);
    expect(c.result.stdout).toContain("fake-model");
  },
  status(c) {
    expect(c.result.stdout).toMatch(/running/i);
  },
  chat(c) {
    expect(c.requests.map(lastUserText)).toContain(CHAT_INPUT.trim());
    expect(c.result.stdout).toContain(c.answer);
  },
  send(c) {
    const message = quotedMessage(c.line);
    const asked = c.requests.map(lastUserText).find((t) => t.includes(message));
    expect({ line: c.line, asked: asked !== undefined }).toEqual({ line: c.line, asked: true });
    if (/^\s*git diff \|/.test(c.line)) {
      // The message, a blank line, then the piped diff (README: "sends the message, then the diff").
      expect(asked!.startsWith(`${message}\n\n`)).toBe(true);
      expect(asked).toContain(DIFF_LINE);
    }
    const redirect = /> *(\S+)\s*(?:#.*)?$/.exec(c.line)?.[1];
    if (redirect !== undefined) {
      expect(readFileSync(join(c.repo, redirect), "utf8")).toContain(c.answer);
    } else if (/--json/.test(c.line)) {
      // `| jq -c 'select(.type=="end")'`: the one end event, without an error.
      const events = c.result.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; error?: string });
      expect(events.map((e) => e.type)).toEqual(["end"]);
      expect(events[0].error ?? "").toBe("");
    } else {
      expect(c.result.stdout).toContain(c.answer);
    }
  },
};

/** What `crabtalk chat` reads: one message, then end of input. */
const CHAT_INPUT = "hello from the README test\n";

let env: LlmDaemon | undefined;
let bin = "";
let repo = "";

beforeAll(async () => {
  env = await startLlmDaemon("openai");
  // `crabtalk` as the README's reader has it: this checkout's CLI, on PATH.
  bin = mkdtempSync(join(tmpdir(), "crabtalk-readme-bin-"));
  writeFileSync(join(bin, "crabtalk"), `#!/bin/sh\nexec '${process.execPath}' '${MAIN}' "$@"\n`);
  chmodSync(join(bin, "crabtalk"), 0o755);
  // A git repository with an uncommitted change, for `git diff | crabtalk send …`.
  repo = mkdtempSync(join(tmpdir(), "crabtalk-readme-repo-"));
  const git = async (...args: string[]) => {
    const r = await runCommand(["git", "-c", "user.name=test", "-c", "user.email=test@example.com", ...args], { env: { ...process.env }, cwd: repo });
    if (r.code !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  };
  await git("init", "-q");
  writeFileSync(join(repo, "notes.txt"), "the first line\n");
  await git("add", "notes.txt");
  await git("commit", "-q", "-m", "first");
  writeFileSync(join(repo, "notes.txt"), `the first line\n${DIFF_LINE.slice(1)}\n`);
}, 60_000);

afterAll(async () => {
  await env?.stop();
  if (env) cleanup(env.daemon.home);
  for (const dir of [bin, repo]) if (dir) rmSync(dir, { recursive: true, force: true });
});

RUN.forEach((line, i) => {
  test(`README example runs as written: ${line.trim()}`, async () => {
    const command = commandOf(line);
    const check = CHECKS[subcommand(command)];
    expect({ command, hasCheck: check !== undefined }).toEqual({ command, hasCheck: true });
    const { fake, daemon } = env!;
    const answer = `answer ${i} from the fake provider`;
    // Only lines that ask the model consume a scripted answer; others must leave none queued.
    if (["send", "chat"].includes(subcommand(command))) fake.script({ text: answer });
    const before = fake.requests.length;
    const fromCheckout = command.startsWith("npx bun src/main.ts ");
    const result = await runCommand(["bash", "-o", "pipefail", "-c", line], {
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH ?? ""}`,
        CRABTALK_HOME: daemon.home,
        CRABTALK_SERVICE_MANAGER: "none",
        NO_COLOR: "1",
      },
      cwd: fromCheckout ? REPO : repo,
      stdin: subcommand(command) === "chat" ? CHAT_INPUT : "",
    });
    expect({ line, code: result.code, stderr: result.stderr }).toEqual({ line, code: 0, stderr: expect.any(String) });
    const requests = fake.requests.slice(before).filter((r) => !isTitleRequest(r.body));
    check({ line, result, answer, requests, repo });
  }, 60_000);
});
