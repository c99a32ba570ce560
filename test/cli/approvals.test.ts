// Approvals in the CLI (docs/approvals.md): `crabtalk send` and `crabtalk
// chat` ask at a terminal (a real pseudo-terminal); from a pipe the call is
// refused at once and the run goes on. Real daemon, fake OpenAI provider.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { isTitleRequest } from "../support/fake-llm.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";
import { runCliAtTerminal } from "../support/terminal.ts";

const t = useLlmDaemon("openai", { extraConfig: 'approve = ["bash"]\n' });
// Every test starts CLI processes (and waits for a terminal at most 20 s): slow on a loaded machine, never hanging.
setDefaultTimeout(30_000);

const bash = (id: string, command: string) => ({ toolCalls: [{ id, name: "bash", arguments: JSON.stringify({ command }) }] });

function scratch(): string {
  return mkdtempSync(join(tmpdir(), "crabtalk-approve-cli-"));
}

/** The content of every tool message in the fake's latest chat request. */
function toolMessages(): string[] {
  const body = t.env.fake.requests.filter((r) => !isTitleRequest(r.body)).at(-1)!.body;
  return body.messages.filter((m: { role: string }) => m.role === "tool").map((m: { content: string }) => m.content);
}

test("send at a terminal: the question shows the command; 1 (yes) runs it", async () => {
  const dir = scratch();
  t.env.fake.script(bash("t1", "echo hello > from-terminal.txt"), { text: "written" });
  const term = runCliAtTerminal(["send", "--sender", "tty-send", "--cwd", dir, "write a file"], t.env.daemon.home);
  try {
    const asked = await term.waitFor("answer› ");
    const screen = term.output();
    expect(screen).toContain("[approval] Agent crab wants bash to run this command:");
    expect(screen).toContain("    echo hello > from-terminal.txt");
    expect(screen).toContain("1. yes — run it this once");
    expect(screen).toContain('3. always — allow "bash" for the rest of this session');
    term.type("1\r");
    await term.waitFor("written", asked);
    expect(await term.exited).toBe(0);
    expect(readFileSync(join(dir, "from-terminal.txt"), "utf8")).toBe("hello\n");
  } finally {
    term.kill();
    rmSync(dir, { recursive: true });
  }
});

test("chat at a terminal: no refuses, always stops asking for that session", async () => {
  const dir = scratch();
  t.env.fake.script(bash("c1", "touch refused"), { text: "not done" }, bash("c2", "touch one"), bash("c3", "touch two"), { text: "both" });
  const term = runCliAtTerminal(["chat", "--sender", "tty-chat", "--cwd", dir], t.env.daemon.home);
  try {
    let at = await term.waitFor("crab› ");
    term.type("first\r");
    at = await term.waitFor("answer› ", at);
    term.type("no\r");
    at = await term.waitFor("not done", at);
    expect(toolMessages()[0]).toStartWith("bash was not run: the user said no");
    expect(existsSync(join(dir, "refused"))).toBe(false);
    at = await term.waitFor("crab› ", at);
    term.type("second\r");
    at = await term.waitFor("answer› ", at);
    term.type("3\r");
    at = await term.waitFor("both", at);
    // One question for two bash calls: the second ran under "always".
    expect(term.output().slice(at).includes("answer› ")).toBe(false);
    expect(term.output().split("[approval]")).toHaveLength(3);
    expect(existsSync(join(dir, "one")) && existsSync(join(dir, "two"))).toBe(true);
    await term.waitFor("crab› ", at);
    term.type("\x04"); // Ctrl-D quits
    expect(await term.exited).toBe(0);
  } finally {
    term.kill();
    rmSync(dir, { recursive: true });
  }
});

test("send from a pipe: refused at once, the run goes on and answers", async () => {
  const dir = scratch();
  t.env.fake.script(bash("p1", "touch piped"), { text: "I could not run it" });
  const r = await runCli(["send", "--sender", "pipe-send", "--cwd", dir, "-"], { home: t.env.daemon.home, stdin: "run it" });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("I could not run it\n");
  expect(r.stderr).toBe("crabtalk: a tool call needing approval was refused: not at an interactive terminal\n");
  expect(toolMessages()[0]).toBe(
    'bash was not run: the user did not approve it and answered: "(no answer: not at an interactive terminal)" (approve rule "bash"). Do not retry the same call; tell the user what you wanted to do.',
  );
  expect(existsSync(join(dir, "piped"))).toBe(false);
  rmSync(dir, { recursive: true });
});

test("chat from a pipe: a piped 'yes' is the next message, never an approval", async () => {
  const dir = scratch();
  t.env.fake.script(bash("q1", "touch piped-chat"), { text: "refused" }, { text: "you said yes" });
  const r = await runCli(["chat", "--sender", "pipe-chat", "--cwd", dir], { home: t.env.daemon.home, stdin: "run it\nyes\n" });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("refused\nyou said yes\n");
  expect(r.stderr).toContain("a tool call needing approval was refused: not at an interactive terminal");
  expect(existsSync(join(dir, "piped-chat"))).toBe(false);
  const body = t.env.fake.requests.filter((q) => !isTitleRequest(q.body)).at(-1)!.body;
  const said = body.messages.filter((m: { role: string; content: string }) => m.role === "user" && !m.content.startsWith("<environment>"));
  expect(said.map((m: { content: string }) => m.content)).toEqual(["run it", "yes"]);
  rmSync(dir, { recursive: true });
});

test("agents create/update/show: --approve rules, kept by an update that changes other keys", async () => {
  const home = t.env.daemon.home;
  const created = await runCli(["agents", "create", "guarded", "--approve", "bash", "--approve", "bash:rm *"], { home });
  expect(created.code).toBe(0);
  expect((await runCli(["agents", "update", "guarded", "--description", "still asks"], { home })).code).toBe(0);
  const shown = await runCli(["agents", "show", "guarded"], { home });
  expect(shown.stdout).toContain('approve:              "bash", "bash:rm *"\n');
  const manifest = readFileSync(join(home, "local/CrabTalk.toml"), "utf8");
  expect(manifest.slice(manifest.indexOf("[agents.guarded]"))).toContain('approve = [ "bash", "bash:rm *" ]');
  const bad = await runCli(["agents", "update", "guarded", "--approve", ":x"], { home });
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("invalid agent config: approve.0: must start with a tool name");
});
