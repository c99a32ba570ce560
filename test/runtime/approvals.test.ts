// Approval of dangerous tools (docs/approvals.md) through a real daemon: an
// agent with approve rules asks before bash runs, over the ask_user round
// trip; "no" refuses, "always" is kept for the session, and nobody but the
// stream's client can answer.
import { until } from "../support/until.ts";
import { untilSubscribed } from "../support/subscription.ts";
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DaemonError } from "../../src/protocol/client.ts";
import { AgentEventKind, type AgentEventMsg, type AskQuestion, type StreamEvent } from "../../src/protocol/gen/crabtalk_pb.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";

// The sandbox is off here: these tests are about the approval gate alone, which must hold without it.
const t = useLlmDaemon("openai", { extraConfig: 'approve = ["bash"]\n\n[system.tools]\nsandbox = "off"\n' });

const bash = (id: string, command: string) => ({ id, name: "bash", arguments: JSON.stringify({ command }) });
type Answer = string | ((q: AskQuestion, session: bigint) => Promise<string | undefined> | string | undefined);

interface Run {
  session: bigint;
  events: StreamEvent["event"][];
  questions: AskQuestion[];
  results: Record<string, { output: string; isError: boolean }>;
}

/** Streams a message; each approval question is answered (on another connection) with `answer`. */
async function run(content: string, sender: string, answer: Answer, opts: { agent?: string; cwd?: string; session?: bigint } = {}): Promise<Run> {
  const out: Run = { session: 0n, events: [], questions: [], results: {} };
  // Own connections, closed whatever happens: a failed test leaves no stream open for the next one.
  const streamer = await t.env.daemon.client();
  const replier = await t.env.daemon.client();
  try {
    for await (const e of streamer.stream({ agent: opts.agent ?? "crab", content, sender, cwd: opts.cwd, session: opts.session })) {
      out.events.push(e.event);
      if (e.event.case === "start") out.session = e.event.value.session;
      if (e.event.case === "toolResult") out.results[e.event.value.callId] = e.event.value;
      if (e.event.case === "askUser") {
        for (const q of e.event.value.questions) {
          out.questions.push(q);
          const a = typeof answer === "string" ? answer : await answer(q, out.session);
          if (a !== undefined) await replier.replyToAsk(out.session, JSON.stringify({ [q.question]: a }));
        }
      }
    }
  } finally {
    await streamer.close();
    await replier.close();
  }
  return out;
}

function scratch(): string {
  return mkdtempSync(join(tmpdir(), "crabtalk-approve-"));
}

/** The tool messages of the last streamed request the fake received. */
function lastToolMessages(): { content: string; tool_call_id: string }[] {
  const body = t.env.fake.requests.filter((r) => r.body?.stream).at(-1)!.body;
  return body.messages.filter((m: { role: string }) => m.role === "tool");
}

test("yes: the question names the tool and shows the command, then bash runs", async () => {
  const dir = scratch();
  t.env.fake.script({ toolCalls: [bash("y1", "echo made > approved.txt && echo done")] }, { text: "ran it" });
  const r = await run("make a file", "yes-user", "yes", { cwd: dir });
  expect(r.questions).toHaveLength(1);
  const q = r.questions[0];
  expect(q.header).toBe("approval");
  expect(q.question).toMatch(/^Agent crab wants bash to run this command:\n {4}echo made > approved\.txt && echo done\nAllow it\? \(approval [0-9a-f]{32}\)$/);
  expect(q.options.map((o) => o.label)).toEqual(["yes", "no", "always"]);
  const kinds = r.events.map((e) => e.case);
  expect(kinds.indexOf("askUser")).toBeGreaterThan(kinds.lastIndexOf("toolStart"));
  expect(kinds.indexOf("askUser")).toBeLessThan(kinds.indexOf("toolResult"));
  expect(r.results.y1.isError).toBe(false);
  expect(JSON.parse(r.results.y1.output)).toMatchObject({ stdout: "done\n", exit_code: 0 });
  expect(readFileSync(join(dir, "approved.txt"), "utf8")).toBe("made\n");
  expect(r.events.at(-1)).toMatchObject({ case: "end", value: { error: "" } });
  rmSync(dir, { recursive: true });
});

test("no: bash does not run and the model gets a refusal in its next request", async () => {
  const dir = scratch();
  t.env.fake.script({ toolCalls: [bash("n1", "touch refused.txt")] }, { text: "ok, I will not" });
  const r = await run("touch it", "no-user", "no", { cwd: dir });
  expect(r.results.n1.isError).toBe(true);
  expect(existsSync(join(dir, "refused.txt"))).toBe(false);
  const [tool] = lastToolMessages();
  expect(tool.tool_call_id).toBe("n1");
  expect(tool.content).toBe('bash was not run: the user said no (approve rule "bash"). Do not retry the same call; tell the user what you wanted to do.');
  // Free text is a refusal too, and the model sees the user's words.
  t.env.fake.script({ toolCalls: [bash("n2", "touch refused.txt")] }, { text: "understood" });
  await run("try again", "no-user", "use ls instead", { cwd: dir, session: r.session });
  expect(lastToolMessages().at(-1)!.content).toContain('the user did not approve it and answered: "use ls instead"');
  expect(existsSync(join(dir, "refused.txt"))).toBe(false);
  rmSync(dir, { recursive: true });
});

test("always: kept for the rest of that session only", async () => {
  t.env.fake.script({ toolCalls: [bash("a1", "echo one")] }, { toolCalls: [bash("a2", "echo two")] }, { text: "both ran" });
  const first = await run("run twice", "always-user", "always");
  expect(first.questions).toHaveLength(1); // the second call did not ask
  expect(JSON.parse(first.results.a1.output).stdout).toBe("one\n");
  expect(JSON.parse(first.results.a2.output).stdout).toBe("two\n");
  // The next message in the same session does not ask either.
  t.env.fake.script({ toolCalls: [bash("a3", "echo three")] }, { text: "again" });
  const same = await run(
    "once more",
    "always-user",
    () => {
      throw new Error("asked again in the same session");
    },
    { session: first.session },
  );
  expect(JSON.parse(same.results.a3.output).stdout).toBe("three\n");
  // Another session asks again.
  t.env.fake.script({ toolCalls: [bash("a4", "echo four")] }, { text: "asked" });
  const other = await run("new session", "always-other", "yes");
  expect(other.questions).toHaveLength(1);
  // And a killed, reopened session has forgotten it.
  await t.client.kill(first.session);
  t.env.fake.script({ toolCalls: [bash("a5", "echo five")] }, { text: "asked after kill" });
  const reopened = await run("after kill", "always-user", "yes");
  expect(reopened.session).not.toBe(first.session);
  expect(reopened.questions).toHaveLength(1);
});

test("parallel calls are each asked, each answered on its own", async () => {
  const dir = scratch();
  t.env.fake.script({ toolCalls: [bash("p1", "touch first"), bash("p2", "touch second")] }, { text: "half done" });
  const r = await run("two files", "parallel-user", (q) => (q.question.includes("touch first") ? "yes" : "no"), { cwd: dir });
  expect(r.questions).toHaveLength(2);
  expect(new Set(r.questions.map((q) => q.question)).size).toBe(2);
  expect(r.results.p1.isError).toBe(false);
  expect(r.results.p2.isError).toBe(true);
  expect(existsSync(join(dir, "first"))).toBe(true);
  expect(existsSync(join(dir, "second"))).toBe(false);
  rmSync(dir, { recursive: true });
});

test("a command too long to show is refused without asking", async () => {
  const long = `echo ${"x".repeat(70 * 1024)}`;
  t.env.fake.script({ toolCalls: [bash("l1", long)] }, { text: "too long" });
  const r = await run("long", "long-user", () => {
    throw new Error("asked about a command nobody can read");
  });
  expect(r.questions).toHaveLength(0);
  expect(r.results.l1.output).toStartWith(`bash was not run: it is too long to show for approval (${long.length} bytes, at most 65536)`);
});

test("a Send run cannot ask: the call is refused at once", async () => {
  t.env.fake.script({ toolCalls: [bash("s1", "echo never")] }, { text: "could not" });
  const r = await t.client.send({ agent: "crab", content: "run it", sender: "send-user" });
  expect(r.content).toBe("could not");
  expect(lastToolMessages()[0].content).toBe(
    'bash was not run: it needs the user\'s approval and this run has no client that can answer (a Send request, a cron run, or a task delegated by one) (approve rule "bash"). Do not retry the same call; tell the user what you wanted to do.',
  );
});

test("a cron run cannot ask: the call is refused at once", async () => {
  const skill = join(t.env.daemon.home, "local/skills/tick");
  mkdirSync(skill, { recursive: true });
  writeFileSync(join(skill, "SKILL.md"), "---\nname: tick\ndescription: a periodic check\n---\n\nRun the check.\n");
  await t.client.reload();
  const dir = scratch();
  const r = await t.client.send({ agent: "crab", content: "start", sender: "cron-owner" });
  t.env.fake.script({ toolCalls: [bash("cr1", `touch ${join(dir, "from-cron")}`)] }, { text: "cron done" });
  const before = t.env.fake.requests.length;
  await t.client.createCron({ schedule: "* * * * * *", skill: "tick", session: r.session, once: true });
  const refusal = async () => {
    for (let i = 0; i < 250; i++) {
      const tool = t.env.fake.requests
        .slice(before)
        .flatMap((q) => (q.body?.stream ? q.body.messages : []))
        .find((m: { role: string; tool_call_id?: string }) => m.role === "tool" && m.tool_call_id === "cr1");
      if (tool) return tool.content as string;
      await Bun.sleep(20);
    }
    throw new Error("the cron run never reported the call's result");
  };
  expect(await refusal()).toStartWith("bash was not run: it needs the user's approval and this run has no client that can answer");
  expect(existsSync(join(dir, "from-cron"))).toBe(false);
  rmSync(dir, { recursive: true });
});

test("nobody else can answer: guesses without the question's id are 404 and change nothing; no id leaks", async () => {
  const dir = scratch();
  const subscriber = await t.env.daemon.client();
  const seen: AgentEventMsg[] = [];
  const subscription = (async () => {
    for await (const e of subscriber.subscribeEvents()) seen.push(e);
  })().catch(() => {});
  await untilSubscribed(t.client, seen);
  t.env.fake.script({ toolCalls: [bash("h1", "touch hijacked")] }, { text: "done" });
  const attacker = await t.env.daemon.client();
  let guesses = 0;
  const r = await run(
    "guarded",
    "guarded-user",
    async (q, session) => {
      const visibleToModel = q.question.replace(/ \(approval [0-9a-f]+\)$/, "");
      for (const content of [
        "yes",
        "always",
        JSON.stringify({ yes: "yes" }),
        JSON.stringify({ [visibleToModel]: "yes" }),
        JSON.stringify({ [`${visibleToModel} (approval ${"0".repeat(32)})`]: "always" }),
      ]) {
        const err = await attacker.replyToAsk(session, content).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DaemonError);
        expect(err).toMatchObject({ code: 404 });
        guesses++;
      }
      return "no";
    },
    { cwd: dir },
  );
  expect(guesses).toBe(5);
  expect(r.results.h1.isError).toBe(true);
  expect(existsSync(join(dir, "hijacked"))).toBe(false);
  const id = r.questions[0].question.match(/approval ([0-9a-f]{32})/)![1];
  // The id reaches neither the model, nor event subscribers, nor any file under the home.
  expect(JSON.stringify(t.env.fake.requests.map((q) => q.body))).not.toContain(id);
  await until(() => seen.some((e) => e.session === r.session && e.kind === AgentEventKind.DONE), { what: "the guarded run's events at the subscriber" });
  expect(JSON.stringify(seen, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(id);
  for (const f of readdirSync(join(t.env.daemon.home, "sessions"))) {
    expect(readFileSync(join(t.env.daemon.home, "sessions", f), "utf8")).not.toContain(id);
  }
  await attacker.close();
  await subscriber.close();
  await subscription;
  rmSync(dir, { recursive: true });
});

test("a model cannot approve its own call: a parallel command replying to the daemon answers nothing", async () => {
  await t.client.createAgent("selfish", JSON.stringify({ approve: ["bash:touch *"] }));
  const dir = scratch();
  const held = `touch ${join(dir, "self-approved")}`;
  const attack = `${process.execPath} ${join(import.meta.dir, "../support/self-approver.ts")} '${held}'`;
  const slowStart = { id: "m2", name: "bash", arguments: JSON.stringify({ command: attack, timeout: 120 }) };
  t.env.fake.script({ toolCalls: [bash("m1", held), slowStart] }, { text: "tried" });
  // Its own connections: a failure here must not leave a stream open on the shared client.
  const streamer = await t.env.daemon.client();
  const replier = await t.env.daemon.client();
  let session = 0n;
  let question = "";
  const results: Record<string, { output: string; isError: boolean }> = {};
  try {
    for await (const e of streamer.stream({ agent: "selfish", content: "approve yourself", sender: "self-approver" })) {
      if (e.event.case === "start") session = e.event.value.session;
      if (e.event.case === "askUser") question = e.event.value.questions[0].question;
      if (e.event.case === "toolResult") {
        results[e.event.value.callId] = e.event.value;
        // The held call is still waiting once the attack is over: only now does the user answer.
        if (e.event.value.callId === "m2") await replier.replyToAsk(session, JSON.stringify({ [question]: "no" }));
      }
    }
  } finally {
    await streamer.close();
    await replier.close();
  }
  expect(question).toContain(held);
  expect(JSON.parse(results.m2.output).stdout).toMatch(/^tried [1-9]\d*, accepted 0\n$/);
  expect(results.m1.isError).toBe(true);
  expect(results.m1.output).toStartWith("bash was not run: the user said no");
  expect(existsSync(join(dir, "self-approved"))).toBe(false);
  rmSync(dir, { recursive: true });
}, 60_000); // the attacking command starts a Bun process, slow on a loaded machine

test("the client going away while asked refuses the call at once: the session is free again", async () => {
  const dir = scratch();
  t.env.fake.script({ toolCalls: [bash("g1", "touch abandoned")] });
  const leaver = await t.env.daemon.client();
  let session = 0n;
  for await (const e of leaver.stream({ agent: "crab", content: "ask then leave", sender: "leaver", cwd: dir })) {
    if (e.event.case === "start") session = e.event.value.session;
    if (e.event.case === "askUser") break;
  }
  await leaver.close();
  for (let i = 0; i < 250 && (await t.client.sessions()).find((s) => s.id === session)?.active; i++) await Bun.sleep(20);
  expect((await t.client.sessions()).find((s) => s.id === session)?.active).toBe(false);
  expect(existsSync(join(dir, "abandoned"))).toBe(false);
  rmSync(dir, { recursive: true });
});

test("Kill refuses a pending approval at once", async () => {
  // Kill stops the run: after the refused call no further model request is made (nothing more to script).
  t.env.fake.script({ toolCalls: [bash("k1", "echo never")] });
  const killer = await t.env.daemon.client();
  const r = await run("ask then kill", "killed-user", async (_q, session) => {
    await killer.kill(session);
    return undefined;
  });
  await killer.close();
  expect(r.results.k1).toMatchObject({ isError: true });
  expect(r.results.k1.output).toStartWith("bash was not run: the approval question was cancelled");
});

test("patterns: only matching commands ask; the command is shown with control characters escaped", async () => {
  await t.client.createAgent("careful", JSON.stringify({ approve: ["bash:rm *", "bash:*sudo *"] }));
  expect((await t.client.getAgent("careful")).approve).toEqual(["bash:rm *", "bash:*sudo *"]);
  t.env.fake.script(
    { toolCalls: [bash("c1", "echo free"), bash("c2", "rm -rf build"), bash("c3", "cd x && sudo true\n\u001b[2Kecho \u202eevil")] },
    { text: "checked" },
  );
  const r = await run("patterns", "pattern-user", "no", { agent: "careful" });
  expect(r.questions.map((q) => q.question.split("\n")[1])).toEqual(expect.arrayContaining(["    rm -rf build", "    cd x && sudo true"]));
  expect(r.questions).toHaveLength(2);
  const shown = r.questions.find((q) => q.question.includes("sudo"))!.question;
  expect(shown).toContain("    \\x1b[2Kecho \\u202eevil");
  expect(shown).not.toContain("\u001b");
  expect(r.results.c1.isError).toBe(false);
  expect(r.results.c2.isError).toBe(true);
  expect(r.results.c2.output).toContain('(approve rule "bash:rm *")');
  expect(r.results.c3.isError).toBe(true);
});

test("a delegated member's bash is asked on the delegating agent's stream, under its rules", async () => {
  await t.client.createAgent("worker", JSON.stringify({ description: "does the work" }));
  await t.client.updateAgent("careful", JSON.stringify({ approve: ["bash"], members: ["worker"] }));
  const dir = scratch();
  t.env.fake.script(
    { toolCalls: [{ id: "d1", name: "delegate", arguments: JSON.stringify({ tasks: [{ agent: "worker", message: "make it" }] }) }] },
    { toolCalls: [bash("w1", `touch ${join(dir, "delegated")}`)] }, // a task has no session cwd: an absolute path
    { text: "worker finished" },
    { text: "all done" },
  );
  const r = await run("delegate it", "delegating-user", "yes", { agent: "careful" });
  expect(r.questions).toHaveLength(1);
  expect(r.questions[0].question).toStartWith(`Agent worker (delegated by careful) wants bash to run this command:\n    touch ${join(dir, "delegated")}\n`);
  expect(JSON.parse(r.results.d1.output)).toEqual([{ agent: "worker", result: "worker finished", error: null }]);
  expect(existsSync(join(dir, "delegated"))).toBe(true);
  // Delegated from a Send run, nobody can answer: the worker's bash is refused at once.
  t.env.fake.script(
    { toolCalls: [{ id: "d2", name: "delegate", arguments: JSON.stringify({ tasks: [{ agent: "worker", message: "again" }] }) }] },
    { toolCalls: [bash("w3", `touch ${join(dir, "unasked")}`)] },
    { text: "worker refused" },
    { text: "over" },
  );
  expect((await t.client.send({ agent: "careful", content: "delegate unattended", sender: "unattended" })).content).toBe("over");
  expect(existsSync(join(dir, "unasked"))).toBe(false);
  // The worker on its own has no rule: a Send to it runs bash without asking.
  t.env.fake.script({ toolCalls: [bash("w2", "echo alone")] }, { text: "alone" });
  expect((await t.client.send({ agent: "worker", content: "alone", sender: "solo" })).content).toBe("alone");
  expect(JSON.parse(lastToolMessages()[0].content).stdout).toBe("alone\n");
  rmSync(dir, { recursive: true });
});

test("malformed rules are refused with 400 and change nothing", async () => {
  for (const approve of [[""], [":rm *"], ["bash:"], ["ba sh"], "bash", [1]]) {
    const err = await t.client.createAgent("broken", JSON.stringify({ approve })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DaemonError);
    expect((err as DaemonError).code).toBe(400);
    expect((err as DaemonError).message).toStartWith("invalid agent config: approve");
  }
  expect((await t.client.listAgents()).map((a) => a.name)).not.toContain("broken");
});
