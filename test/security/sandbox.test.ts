// The tool sandbox (docs/security.md): with bubblewrap, a model's bash sees
// a read-only filesystem but its working directory, the writable paths and a
// private /tmp; the crabtalk home and credential stores are invisible; an
// agent can have no network. Needs a working bwrap (.ci/run installs it).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { cleanup } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";

let env: LlmDaemon;
let client: Client;
let work: string; // the session's working directory
let outside: string; // an ordinary writable directory, outside /tmp
let allowed: string; // named in [system.tools] writable
let userHome: string; // the daemon's $HOME, with a credential store

beforeAll(async () => {
  work = mkdtempSync("/var/tmp/crabtalk-work-");
  outside = mkdtempSync("/var/tmp/crabtalk-outside-");
  allowed = mkdtempSync("/var/tmp/crabtalk-allowed-");
  userHome = mkdtempSync("/var/tmp/crabtalk-user-");
  mkdirSync(join(userHome, ".ssh"));
  writeFileSync(join(userHome, ".ssh/id_ed25519"), "PRIVATE KEY MATERIAL");
  writeFileSync(join(userHome, ".netrc"), "machine example.com password hunter2hunter2");
  env = await startLlmDaemon("openai", {
    env: { HOME: userHome },
    extraConfig: `
[system.tools]
sandbox = "required"
writable = ["${allowed}"]
`,
  });
  client = await env.daemon.client();
  await client.createAgent("offline", JSON.stringify({ network: false }));
  await client.createAgent("trusted", JSON.stringify({ sandbox: "off" }));
});

afterAll(async () => {
  await client?.close();
  await env?.stop();
  for (const dir of [work, outside, allowed, userHome]) cleanup(dir);
});

interface BashResult {
  stdout: string;
  stderr: string;
  exit_code: number;
}

async function bash(command: string, opts: { agent?: string; cwd?: string } = {}): Promise<BashResult> {
  env.fake.script({ toolCalls: [{ id: "c1", name: "bash", arguments: JSON.stringify({ command }) }] }, { text: "done" });
  let output = "";
  for await (const e of client.stream({ agent: opts.agent ?? "crab", content: "run it", sender: "sandbox-test", cwd: opts.cwd ?? work, newChat: true })) {
    if (e.event.case === "toolResult") output = e.event.value.output;
  }
  try {
    return JSON.parse(output) as BashResult;
  } catch {
    return { stdout: "", stderr: output, exit_code: -1 };
  }
}

test("a sandboxed bash cannot read config.toml or anything of the crabtalk home", async () => {
  const r = await bash(`cat "$CRABTALK_HOME/config.toml"; ls "$CRABTALK_HOME"; ls "$CRABTALK_HOME/sessions"`);
  expect(r.exit_code).not.toBe(0);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("No such file or directory");
  expect(r.stdout + r.stderr).not.toContain("fake-model");
});

test("it can write inside its working directory and the writable paths, not outside them", async () => {
  const r = await bash(
    `echo in > inside.txt && echo ok-inside; echo w > ${allowed}/allowed.txt && echo ok-allowed; echo x > ${outside}/escaped.txt || echo refused-outside; echo y > "$CRABTALK_HOME/planted" || echo refused-home`,
  );
  expect(r.stdout.split("\n")).toEqual(["ok-inside", "ok-allowed", "refused-outside", "refused-home", ""]);
  expect(r.stderr).toContain("Read-only file system");
  expect(readFileSync(join(work, "inside.txt"), "utf8")).toBe("in\n");
  expect(readFileSync(join(allowed, "allowed.txt"), "utf8")).toBe("w\n");
  expect(existsSync(join(outside, "escaped.txt"))).toBe(false);
  expect(existsSync(join(env.daemon.home, "planted"))).toBe(false);
});

test("its /tmp is private: what it writes there is gone and the real /tmp is untouched", async () => {
  const name = `crabtalk-private-${process.pid}-${Date.now()}`;
  const hostFile = join(mkdtempSync("/tmp/crabtalk-host-"), "host-file");
  writeFileSync(hostFile, "host");
  const r = await bash(`echo secret > /tmp/${name} && cat /tmp/${name}; cat ${hostFile} || echo no-host-file`);
  expect(r.stdout).toBe("secret\nno-host-file\n");
  expect(existsSync(join("/tmp", name))).toBe(false);
  cleanup(join(hostFile, ".."));
});

test("credential stores under $HOME are invisible", async () => {
  const r = await bash(`cat ~/.ssh/id_ed25519; ls -A ~/.ssh | wc -l; cat ~/.netrc; echo "[$HOME]"`);
  expect(r.stdout).not.toContain("PRIVATE KEY");
  expect(r.stdout).not.toContain("hunter2");
  expect(r.stdout).toContain("0\n");
  expect(r.stdout).toContain(`[${userHome}]`);
});

test("it sees no process of the host: the daemon's environment is out of reach", async () => {
  const daemonPid = env.daemon.proc.pid;
  const r = await bash(`cat /proc/${daemonPid}/environ 2>&1 | head -c 100; echo; ls /proc | grep -c '^[0-9]'`);
  expect(r.stdout).not.toContain("CRABTALK_HOME=");
  expect(Number(r.stdout.trim().split("\n").at(-1))).toBeLessThan(10);
});

test("network stays on by default and is off for an agent with network = false", async () => {
  const port = new URL(env.fake.url).port;
  const probe = `(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo connected || echo unreachable`;
  expect((await bash(probe)).stdout.trim()).toBe("connected");
  expect((await bash(probe, { agent: "offline" })).stdout.trim()).toBe("unreachable");
});

test('an agent with sandbox = "off" runs unsandboxed although the system requires it', async () => {
  const r = await bash(`cat "$CRABTALK_HOME/config.toml" > /dev/null && echo readable`, { agent: "trusted" });
  expect(r.stdout.trim()).toBe("readable");
});

test("a working directory inside the crabtalk home is refused, nothing runs", async () => {
  const r = await bash("echo ran > ran.txt", { cwd: join(env.daemon.home, "sessions") });
  expect(r.exit_code).toBe(-1);
  expect(r.stderr).toContain("inside a path the sandbox hides");
  expect(existsSync(join(env.daemon.home, "sessions", "ran.txt"))).toBe(false);
});

test("symlinks do not get around it: a link to config.toml reads nothing, a link out of the cwd writes nothing", async () => {
  const r = await bash(`ln -sf "$CRABTALK_HOME/config.toml" cfg && cat cfg; ln -sfn ${outside} out && echo z > out/via-link.txt || echo refused-link`);
  expect(r.stdout).toBe("refused-link\n");
  expect(existsSync(join(outside, "via-link.txt"))).toBe(false);
});
