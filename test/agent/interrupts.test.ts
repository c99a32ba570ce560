// A client that disconnects mid-stream, and a daemon shutting down under open
// streams (docs/protocol.md#connection-rules, docs/home.md#shutdown, docs/agent-loop.md#client-disconnect).
import { expect, test } from "bun:test";
import { join } from "node:path";
import { cleanup } from "../support/daemon.ts";
import { sessionLines } from "../support/session-files.ts";
import { startLlmDaemon } from "../support/llm-daemon.ts";

test("a client that disconnects mid-stream costs nothing else; completed steps are persisted", async () => {
  const env = await startLlmDaemon("openai");
  try {
    env.fake.script({ toolCalls: [{ id: "t1", name: "nothing_here", arguments: "{}" }] });
    const quitter = await env.daemon.client();
    const seen: string[] = [];
    for await (const e of quitter.stream({ agent: "crab", content: "start then leave", sender: "quitter" })) {
      seen.push(e.event.case ?? "");
      if (e.event.case === "toolsComplete") break; // stop reading after the first step
    }
    await quitter.close();
    const other = await env.daemon.client();
    const answer = await other.send({ agent: "crab", content: "hello", sender: "bystander" });
    expect(answer.session).toBeGreaterThan(0n);
    // The first step (user message, tool call, tool result) reached the file.
    const lines = sessionLines(join(env.daemon.home, "sessions"), "crab_quitter_").slice(1) as { role: string; tool_calls: { function: { name: string } }[] }[];
    expect(lines.slice(0, 3).map((l) => l.role)).toEqual(["user", "assistant", "tool"]);
    expect(lines[1].tool_calls[0].function.name).toBe("nothing_here");
    // The session is not left locked: it takes another run.
    const sessions = await other.sessions();
    const quitterSession = sessions.find((s) => s.createdBy === "quitter")!;
    for (let i = 0; i < 100 && (await other.sessions()).find((s) => s.id === quitterSession.id)!.active; i++) await Bun.sleep(20);
    env.fake.script({ text: "back again" });
    expect((await other.send({ agent: "crab", content: "again", session: quitterSession.id })).content).toBe("back again");
    await other.close();
  } finally {
    await env.stop();
    cleanup(env.daemon.home);
  }
});

test("SIGTERM ends open streams with an error saying the daemon is shutting down, then exits 0", async () => {
  const env = await startLlmDaemon("openai");
  try {
    env.fake.script({ text: "never finished", delayMs: 20_000 }, { text: "never finished", delayMs: 20_000 });
    const clients = await Promise.all([env.daemon.client(), env.daemon.client()]);
    const ends = clients.map(async (c, i) => {
      let end: string | undefined;
      for await (const e of c.stream({ agent: "crab", content: "wait", sender: `s${i}` })) {
        if (e.event.case === "end") end = e.event.value.error;
      }
      return end;
    });
    // Both runs are waiting on the model.
    for (let i = 0; i < 100 && env.fake.requests.filter((r) => r.body?.stream).length < 2; i++) await Bun.sleep(20);
    env.daemon.proc.kill("SIGTERM");
    expect(await Promise.all(ends)).toEqual(["daemon is shutting down", "daemon is shutting down"]);
    expect(await env.daemon.proc.exited).toBe(0);
  } finally {
    await env.stop();
    cleanup(env.daemon.home);
  }
});
