// Names and files a hostile client or model controls: FIFOs named like session
// files, over-long senders, error messages naming the home, control
// characters in logged names.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DaemonError, type Client } from "../../src/protocol/client.ts";
import { cleanup, tempHome } from "../support/daemon.ts";
import { runCommand } from "../support/cli.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";

let env: LlmDaemon;
let client: Client;
let home: string;
const sessions = () => join(home, "sessions");
const FORGED = "2026-01-01T00:00:00.000Z ERROR forged";

beforeAll(async () => {
  home = tempHome();
  // A memory entry whose file name carries a forged log line; it is not a valid entry, so it is warned about.
  mkdirSync(join(home, "memory/entries"), { recursive: true });
  writeFileSync(join(home, "memory/entries", `x\n${FORGED}.md`), "not an entry");
  env = await startLlmDaemon("openai", { home });
  client = await env.daemon.client();
});
afterAll(async () => {
  await client.close();
  await env.stop();
  cleanup(home);
});

async function mkfifo(name: string): Promise<void> {
  const made = await runCommand(["mkfifo", join(sessions(), name)], { env: { PATH: process.env.PATH } });
  expect(made.code).toBe(0);
}

async function errorOf(call: Promise<unknown>): Promise<DaemonError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DaemonError);
  return err as DaemonError;
}

test("FIFOs named like session files hang nothing: runs of those identities and ListConversations are answered", async () => {
  const first = await client.send({ agent: "crab", content: "hello", sender: "user" });
  expect(first.content).toBe("ok");
  // Eight of them used to tie up every thread reading files.
  const fifos = ["crab_user_999.jsonl", ...Array.from({ length: 8 }, (_, i) => `crab_u${i + 1}_1.jsonl`)];
  for (const name of fifos) await mkfifo(name);
  // One client each: a Client takes one request at a time.
  const run = async (content: string, sender: string) => {
    const own = await env.daemon.client();
    try {
      return await own.send({ agent: "crab", content, sender });
    } finally {
      await own.close();
    }
  };
  const runs = [run("again", "user")];
  for (let i = 1; i <= 8; i++) runs.push(run("hi", `u${i}`));
  for (const r of await Promise.all(runs)) expect(r.content).toBe("ok");
  // The identity's newest regular file was resumed: the earlier exchange is in the model's context.
  const resumed = env.fake.requests.find((r) => JSON.stringify(r.body).includes("again"));
  expect(JSON.stringify(resumed?.body)).toContain("hello");
  const listed = (await client.listConversations()).map((c) => c.filePath.split("/").pop()!);
  expect(listed.length).toBe(9); // user's and u1..u8's
  expect(listed.filter((name) => fifos.includes(name))).toEqual([]);
  expect(await client.listConversations("crab", "user")).toHaveLength(1);
  // The FIFO itself: refused as a conversation, never opened, still there.
  expect((await errorOf(client.getConversationHistory("crab_user_999.jsonl"))).code).toBe(400);
  expect((await errorOf(client.deleteConversation("crab_user_999.jsonl"))).code).toBe(400);
  expect(statSync(join(sessions(), "crab_user_999.jsonl")).isFIFO()).toBe(true);
  // New sessions of a FIFO's identity never take its name.
  const fresh = await client.send({ agent: "crab", content: "new", sender: "u1", newChat: true });
  expect(fresh.content).toBe("ok");
  expect(statSync(join(sessions(), "crab_u1_1.jsonl")).isFIFO()).toBe(true);
}, 30_000);

test("an over-long sender is a 400 naming the field, and no file is made", async () => {
  for (const call of [
    () => client.send({ agent: "crab", content: "hi", sender: "s".repeat(3000) }),
    () => client.listConversations("crab", "s".repeat(3000)),
  ]) {
    const err = await errorOf(call());
    expect(err.code).toBe(400);
    expect(err.message).toContain("sender is too long: 3000 bytes");
  }
  const stream = client.stream({ agent: "crab", content: "hi", sender: "é".repeat(100) });
  expect(
    (
      await errorOf(
        (async () => {
          for await (const _ of stream);
        })(),
      )
    ).code,
  ).toBe(400);
  expect(readdirSync(sessions()).filter((name) => name.includes("sss") || name.includes("éé"))).toEqual([]);
  // The longest allowed sender still makes a session, with a title that fits the file system.
  const longest = await client.send({ agent: "crab", content: "hi", sender: "s".repeat(128) });
  expect(longest.content).toBe("ok");
});

test("error messages name files relative to <home>, never by the home's absolute path", async () => {
  writeFileSync(join(sessions(), "crab_empty_1.jsonl"), "");
  const err = await errorOf(client.getConversationHistory("crab_empty_1.jsonl"));
  expect(err.message).toBe("session file <home>/sessions/crab_empty_1.jsonl is empty");
  const absolute = await errorOf(client.getConversationHistory(join(home, "config.toml")));
  expect(absolute.code).toBe(400);
  expect(absolute.message).not.toContain(home);
});

test("control characters in logged names are escaped: one event, one line", () => {
  const log = readFileSync(join(home, "logs/daemon.log"), "utf8");
  expect(log).toContain(`x\\n${FORGED}.md`);
  for (const line of log.split("\n")) expect(line.startsWith(FORGED)).toBe(false);
});
