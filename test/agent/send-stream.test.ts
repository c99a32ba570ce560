// Send and Stream end to end through the real SDKs against fake providers of
// both wire formats: event order, usage, persistence, resume, new_chat.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DaemonError, type Client } from "../../src/protocol/client.ts";
import type { StreamEvent } from "../../src/protocol/gen/crabtalk_pb.ts";
import { cleanup } from "../support/daemon.ts";
import { cutGate, isTitleRequest } from "../support/fake-llm.ts";
import { sessionLines } from "../support/session-files.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";

async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent["event"][]> {
  const out: StreamEvent["event"][] = [];
  for await (const e of events) out.push(e.event);
  return out;
}

for (const flavour of ["openai", "anthropic"] as const) {
  describe(`against a fake ${flavour} server`, () => {
    let env: LlmDaemon;
    let client: Client;
    const sessionFiles = () => readdirSync(join(env.daemon.home, "sessions")).sort();

    beforeAll(async () => {
      env = await startLlmDaemon(flavour);
      client = await env.daemon.client();
    });
    afterAll(async () => {
      await client.close();
      await env.stop();
      cleanup(env.daemon.home);
    });

    test("Send returns the scripted answer with provider, model and usage", async () => {
      env.fake.script({ text: "Hello from the fake.", usage: { prompt: 12, completion: 7 } });
      const r = await client.send({ agent: "crab", content: "hi", sender: "alice" });
      expect(r.content).toBe("Hello from the fake.");
      expect(r.agent).toBe("crab");
      expect(r.provider).toBe("fake");
      expect(r.model).toBe("fake-model");
      expect(r.usage?.promptTokens).toBe(12);
      expect(r.usage?.completionTokens).toBe(7);
      expect(r.session).toBeGreaterThan(0n);
      const [meta, user, assistant] = sessionLines(join(env.daemon.home, "sessions"), "crab_alice_1");
      expect(meta).toMatchObject({ agent: "crab", created_by: "alice", title: "" });
      expect(user).toEqual({ role: "user", content: "hi" });
      expect(assistant).toEqual({ role: "assistant", content: "Hello from the fake." });
    });

    test("Stream yields start, chunks and end in protocol order; text concatenates", async () => {
      env.fake.script({ text: "one two three four", usage: { prompt: 3, completion: 4 } });
      const events = await collect(client.stream({ agent: "crab", content: "count", sender: "bob" }));
      expect(events[0].case).toBe("start");
      expect(events.at(-1)!.case).toBe("end");
      const chunks = events.filter((e) => e.case === "chunk").map((e) => e.value.content);
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.join("")).toBe("one two three four");
      const end = events.at(-1)!;
      if (end.case !== "end") throw new Error("no end");
      expect(end.value).toMatchObject({ agent: "crab", error: "", provider: "fake", model: "fake-model" });
      expect(end.value.usage?.totalTokens).toBe(7);
    });

    test("thinking is streamed as thinking frames before the text", async () => {
      env.fake.script({ thinking: "let me think", text: "done thinking" });
      const events = await collect(client.stream({ agent: "crab", content: "think", sender: "carol" }));
      const kinds = events.map((e) => e.case);
      const firstThinking = kinds.indexOf("thinking");
      expect(firstThinking).toBeGreaterThan(0);
      expect(firstThinking).toBeLessThan(kinds.indexOf("chunk"));
      expect(
        events
          .filter((e) => e.case === "thinking")
          .map((e) => e.value.content)
          .join(""),
      ).toBe("let me think");
    });

    test("a second send resumes the same session and file; new_chat starts the next seq", async () => {
      const first = await client.send({ agent: "crab", content: "one", sender: "dave" });
      const second = await client.send({ agent: "crab", content: "two", sender: "dave" });
      expect(second.session).toBe(first.session);
      const daveFiles = () => sessionFiles().filter((f) => f.startsWith("crab_dave_"));
      expect(daveFiles()).toHaveLength(1);
      expect(sessionLines(join(env.daemon.home, "sessions"), "crab_dave_1")).toHaveLength(5);
      const third = await client.send({ agent: "crab", content: "three", sender: "dave", newChat: true });
      expect(third.session).not.toBe(first.session);
      expect(daveFiles().map((f) => f.split("_")[2].replace(".jsonl", ""))).toEqual(["1", "2"]);
      // Plain resumes now go to the latest session.
      const fourth = await client.send({ agent: "crab", content: "four", sender: "dave" });
      expect(fourth.session).toBe(third.session);
    });

    test("the model sees the history of the session on resume", async () => {
      await client.send({ agent: "crab", content: "remember 42", sender: "erin" });
      await client.send({ agent: "crab", content: "what number?", sender: "erin" });
      const body = env.fake.requests.filter((r) => !isTitleRequest(r.body)).at(-1)!.body;
      const texts = JSON.stringify(body.messages);
      expect(texts).toContain("remember 42");
      expect(texts).toContain("what number?");
      expect(texts).toContain("working_directory:");
    });

    test("a provider 401 fails Send with 500 and the provider's message; Stream ends with the error", async () => {
      env.fake.script({ error: { status: 401, message: "invalid api key" } });
      const err = await client.send({ agent: "crab", content: "x", sender: "frank" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DaemonError);
      expect((err as DaemonError).code).toBe(500);
      expect((err as DaemonError).message).toContain("invalid api key");
      expect((err as DaemonError).message).not.toContain("test-key-not-a-secret");
      env.fake.script({ error: { status: 401, message: "invalid api key" } });
      const events = await collect(client.stream({ agent: "crab", content: "x", sender: "frank" }));
      expect(events.map((e) => e.case)).toEqual(["start", "end"]);
      const end = events[1];
      if (end.case !== "end") throw new Error("no end");
      expect(end.value.error).toContain("refused the API key (HTTP 401)");
      await client.ping();
      const log = readFileSync(join(env.daemon.home, "logs/daemon.log"), "utf8");
      expect(log).toMatch(/WARN run failed agent=crab session=\d+ model=fake-model stop=error iterations=1 error=".*invalid api key/);
      expect(log).not.toContain("test-key-not-a-secret");
    });

    test("429 then success is retried transparently", async () => {
      const before = env.fake.requests.length;
      env.fake.script({ error: { status: 429, message: "slow down" } }, { text: "after retry" });
      const r = await client.send({ agent: "crab", content: "retry me", sender: "gina" });
      expect(r.content).toBe("after retry");
      expect(env.fake.requests.length - before).toBeGreaterThanOrEqual(2);
    });

    test("a stream cut mid-way ends the run with an error and the daemon keeps serving", async () => {
      // Cut once this client has a chunk: past the first content chunk, so no retry.
      const cut = cutGate();
      env.fake.script({ text: "this answer will be cut short by the server", cutAfterChunks: 6, cutWhen: cut.when });
      const chats = () => env.fake.requests.filter((r) => !isTitleRequest(r.body)).length;
      const before = chats();
      const events: StreamEvent["event"][] = [];
      for await (const e of client.stream({ agent: "crab", content: "cut", sender: "hank" })) {
        events.push(e.event);
        if (e.event.case === "chunk") cut.open();
      }
      const end = events.at(-1)!;
      if (end.case !== "end") throw new Error("no end");
      expect(end.value.error).toContain("provider 'fake'");
      expect(chats() - before).toBe(1); // not retried
      env.fake.script({ text: "still here" });
      expect((await client.send({ agent: "crab", content: "again", sender: "hank" })).content).toBe("still here");
    });
  });
}
