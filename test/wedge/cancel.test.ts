// Cancel and Kill stop a run in progress at once (provider request aborted,
// tool processes killed, partial answer kept as interrupted), and every run
// has a wall-clock limit (run_timeout) — through the real daemon.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import type { StreamEvent } from "../../src/protocol/gen/crabtalk_pb.ts";
import { daemonError } from "../support/daemon-error.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";
import { historyOf, sessionLines } from "../support/session-files.ts";

type Event = StreamEvent["event"];

async function waitFor(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !ok(); i++) await Bun.sleep(10);
  if (!ok()) throw new Error(`never happened: ${what}`);
}

/**
 * Starts a stream and reads it in the background; `until` resolves once an
 * event matches, `ended` with every event once the stream is over.
 */
function startStream(client: Client, msg: Parameters<Client["stream"]>[0]) {
  const events: Event[] = [];
  let session = 0n;
  const ended = (async () => {
    for await (const e of client.stream(msg)) {
      if (e.event.case === "start") session = e.event.value.session;
      events.push(e.event);
    }
    return events;
  })();
  return {
    events,
    ended,
    session: () => session,
    until: (what: string, match: (e: Event) => boolean) => waitFor(what, () => events.some(match)),
  };
}

function endOf(events: Event[]) {
  const end = events.at(-1)!;
  if (end.case !== "end") throw new Error(`the stream did not end with StreamEnd: ${end.case}`);
  return end.value;
}

const text = (events: Event[]) => events.flatMap((e) => (e.case === "chunk" ? [e.value.content] : [])).join("");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("a stalled run", () => {
  // Unsandboxed: the test reads the tool's pids, which a sandbox would give from its own pid namespace.
  const fx = useLlmDaemon("openai", { extraConfig: '\n[system.tools]\nsandbox = "off"\n' });
  let control: Client;
  let work: string;
  beforeAll(async () => {
    control = await fx.env.daemon.client();
    work = mkdtempSync(join(tmpdir(), "crabtalk-cancel-"));
    await control.createAgent("quick", JSON.stringify({ model: "fake-model", run_timeout: 1 }));
  });
  afterAll(async () => {
    await control.close();
    rmSync(work, { recursive: true, force: true });
  });
  const lines = (sender: string) => sessionLines(join(fx.env.daemon.home, "sessions"), `crab_${sender}_1`);

  test("Cancel stops it at once: the request is aborted and the partial answer kept as interrupted", async () => {
    const abandoned = fx.env.fake.abandoned;
    fx.env.fake.script({ text: "half an answer and then nothing", stallAfterChunks: 3 });
    const run = startStream(fx.client, { agent: "crab", content: "go", sender: "cancelled" });
    await run.until("the first words", (e) => e.case === "chunk");
    await control.cancel(run.session());
    const end = endOf(await run.ended);
    expect(end.error).toBe("run cancelled");
    expect(end.interrupted).toBe(true);
    const [, user, assistant] = lines("cancelled");
    expect(user).toEqual({ role: "user", content: "go" });
    expect(assistant).toEqual({ role: "assistant", content: text(run.events), partial: "interrupted" });
    await waitFor("the provider request is aborted", () => fx.env.fake.abandoned > abandoned);
    // Not running any more, and the session goes on.
    expect((await control.sessions()).find((s) => s.id === run.session())?.active).toBe(false);
    fx.env.fake.script({ text: "back again" });
    expect((await fx.client.send({ agent: "crab", content: "still there?", sender: "cancelled" })).content).toBe("back again");
  });

  test("Cancel kills the run's tool processes, children included", async () => {
    const pids = join(work, "pids");
    const command = `echo $$ > ${pids}.tmp; sleep 600 & echo $! >> ${pids}.tmp; mv ${pids}.tmp ${pids}; wait`;
    fx.env.fake.script({ toolCalls: [{ id: "t1", name: "bash", arguments: JSON.stringify({ command, timeout: 600 }) }] });
    const run = startStream(fx.client, { agent: "crab", content: "run it", sender: "tools", cwd: work });
    // The start event too: a poll can see the file before the stream's first frame is read.
    await waitFor("the tool started", () => run.session() !== 0n && existsSync(pids));
    const [shell, child] = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    expect(alive(shell) && alive(child)).toBe(true);
    await control.cancel(run.session());
    const events = await run.ended;
    expect(endOf(events)).toMatchObject({ error: "run cancelled", interrupted: true });
    const result = events.find((e) => e.case === "toolResult");
    expect(result?.value).toMatchObject({ isError: true });
    await waitFor("the shell and its child are gone", () => !alive(shell) && !alive(child));
    const roles = (await historyOf(control, "crab", "tools")).messages.map((m) => m.role);
    expect(roles).toEqual(["user", "assistant"]);
  });

  test("Kill stops the run in progress too, and forgets the session", async () => {
    fx.env.fake.script({ text: "words before the kill", stallAfterChunks: 3 });
    const run = startStream(fx.client, { agent: "crab", content: "go", sender: "killed" });
    await run.until("the first words", (e) => e.case === "chunk");
    await control.kill(run.session());
    const end = endOf(await run.ended);
    expect(end.interrupted).toBe(true);
    expect(end.error).toContain("was killed");
    expect(lines("killed")[2]).toEqual({ role: "assistant", content: text(run.events), partial: "interrupted" });
    expect((await control.sessions()).some((s) => s.id === run.session())).toBe(false);
  });

  test("run_timeout ends a run that takes too long, with the partial answer kept", async () => {
    fx.env.fake.script({ text: "a slow start", stallAfterChunks: 3 });
    const run = startStream(fx.client, { agent: "quick", content: "go", sender: "slow" });
    const end = endOf(await run.ended);
    expect(end.error).toBe("run exceeded run_timeout (1s)");
    expect(end.interrupted).toBe(true);
    const [, , assistant] = sessionLines(join(fx.env.daemon.home, "sessions"), "quick_slow_1");
    expect(assistant).toEqual({ role: "assistant", content: text(run.events), partial: "interrupted" });
  });

  test("a cron-fired run obeys run_timeout too: no client is needed to end it", async () => {
    const skill = join(fx.env.daemon.home, "local/skills/tick");
    mkdirSync(skill, { recursive: true });
    writeFileSync(join(skill, "SKILL.md"), "---\nname: tick\ndescription: a periodic check\n---\n\nReport the time.\n");
    const r = await fx.client.send({ agent: "quick", content: "hi", sender: "cron-slow" });
    fx.env.fake.script({ text: "a cron answer that stalls", stallAfterChunks: 3 });
    await control.createCron({ schedule: "* * * * * *", skill: "tick", session: r.session, once: true });
    const log = join(fx.env.daemon.home, "logs/daemon.log");
    const cronFailed = /cron \d+ \(\/tick\) in session \d+ .* failed: run exceeded run_timeout \(1s\)/;
    await waitFor("the cron run timed out", () => existsSync(log) && cronFailed.test(readFileSync(log, "utf8")));
    const last = sessionLines(join(fx.env.daemon.home, "sessions"), "quick_cron-slow_1").at(-1);
    expect(last).toMatchObject({ role: "assistant", partial: "interrupted" });
    expect(await control.listCrons()).toEqual([]);
  });

  test("a cancelled Send answers with an error, and no complete answer is saved", async () => {
    fx.env.fake.script({ text: "never finished", stallAfterChunks: 3 });
    const sending = daemonError(fx.client.send({ agent: "crab", content: "go", sender: "sent" }));
    let id: bigint | undefined;
    for (let i = 0; i < 1000 && id === undefined; i++) {
      id = (await control.sessions()).find((s) => s.createdBy === "sent" && s.active)?.id;
      if (id === undefined) await Bun.sleep(10);
    }
    if (id === undefined) throw new Error("the run never started");
    await control.cancel(id);
    expect(await sending).toMatchObject({ code: 500, message: "run cancelled" });
    const answers = lines("sent").filter((l) => l.role === "assistant");
    expect(answers.every((l) => l.partial === "interrupted")).toBe(true);
  });

  test("Cancel of an unknown session is 404; of an idle one, Pong", async () => {
    expect(await daemonError(control.cancel(999_999n))).toMatchObject({ code: 404 });
    const r = await fx.client.send({ agent: "crab", content: "hi", sender: "idle" });
    await control.cancel(r.session);
  });
});
