// `crabtalk send` through a real daemon against fakes of Gemini, Bedrock and
// Azure OpenAI (the real SDKs run): text, thinking, a `bash` tool round trip,
// usage, retries, refused keys and a stream cut mid-answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import { cleanup } from "../support/daemon.ts";
import { cutGate, isTitleRequest } from "../support/fake-llm.ts";
import { TEST_KEY, startLlmDaemon, type LlmDaemon, type ProviderFlavour } from "../support/llm-daemon.ts";

/** Where each wire format keeps the conversation, to find the tool result the model was sent. */
const conversation = (flavour: ProviderFlavour, body: { contents?: unknown; messages?: unknown } | undefined): unknown =>
  flavour === "google" ? body?.contents : body?.messages;

for (const flavour of ["google", "bedrock", "azure"] as const) {
  describe(flavour, () => {
    let env: LlmDaemon;
    const cli = (args: string[]) => runCli(args, { home: env.daemon.home });
    const chats = () => env.fake.requests.filter((r) => !isTitleRequest(r.body));

    beforeAll(async () => {
      env = await startLlmDaemon(flavour, { extraConfig: "thinking = true\n" });
    });
    afterAll(async () => {
      await env.stop();
      cleanup(env.daemon.home);
    });

    test("send prints the answer; --json carries thinking, chunks and an end naming provider, model and usage", async () => {
      env.fake.script({ text: `Hello from ${flavour}.` });
      const plain = await cli(["send", "hello"]);
      expect(plain.stderr).toBe("");
      expect(plain.stdout).toBe(`Hello from ${flavour}.\n`);

      env.fake.script({ thinking: "pondering", text: "json answer", usage: { prompt: 40, completion: 7 } });
      const r = await cli(["send", "--json", "again"]);
      expect(r.code).toBe(0);
      const events = r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      const types = events.map((e) => e.type);
      expect(types.indexOf("thinking")).toBeGreaterThan(0);
      expect(types.indexOf("thinking")).toBeLessThan(types.indexOf("chunk"));
      expect(
        events
          .filter((e) => e.type === "chunk")
          .map((e) => e.content)
          .join(""),
      ).toBe("json answer");
      const end = events.at(-1);
      expect(end).toMatchObject({ type: "end", error: "", provider: "fake", model: "fake-model" });
      expect(end.usage.prompt_tokens).toBe(40);
      expect(end.usage.completion_tokens).toBeGreaterThanOrEqual(7);
    });

    test("a bash tool call round trip: the command runs and its output goes back to the model", async () => {
      env.fake.script(
        { toolCalls: [{ id: "call-1", name: "bash", arguments: JSON.stringify({ command: "echo from-bash-tool" }) }] },
        { text: "the tool said hi" },
      );
      const r = await cli(["send", "--json", "run it"]);
      expect(r.code).toBe(0);
      const events = r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(events.find((e) => e.type === "tool_result")?.output).toContain("from-bash-tool");
      expect(events.at(-1)).toMatchObject({ type: "end", error: "" });
      const followUp = JSON.stringify(conversation(flavour, chats().at(-1)?.body));
      expect(followUp).toContain("from-bash-tool");
    });

    test("429 then success is retried and the send succeeds", async () => {
      env.fake.script({ error: { status: 429, message: "slow down" } }, { text: "after the wait" });
      const r = await cli(["send", "retry please"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe("after the wait\n");
    });

    test("401 ends the run with an error naming the provider, without the key", async () => {
      env.fake.script({ error: { status: 401, message: `bad key ${TEST_KEY}` } });
      const r = await cli(["send", "who am i"]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain("provider 'fake' refused the API key");
      expect(r.stderr + r.stdout).not.toContain(TEST_KEY);
    });

    test("a stream cut mid-answer ends the run with an error; the session file stays loadable", async () => {
      // Cut once send has printed a chunk: past the first content, so no retry.
      const cut = cutGate();
      env.fake.script({ text: "one two three four five six", cutAfterChunks: 3, cutWhen: cut.when });
      const before = chats().length;
      const r = await runCli(["send", "--json", "cut me"], {
        home: env.daemon.home,
        onStdout: (soFar) => soFar.includes('"type":"chunk"') && cut.open(),
      });
      const end = r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
        .at(-1);
      expect(end.type).toBe("end");
      expect(end.error).toContain("provider 'fake'");
      expect(chats().length - before).toBe(1);
      const dir = join(env.daemon.home, "sessions");
      for (const name of readdirSync(dir).filter((f) => f.endsWith(".jsonl"))) {
        for (const line of readFileSync(join(dir, name), "utf8").split("\n").filter(Boolean)) JSON.parse(line);
      }
      env.fake.script({ text: "still here" });
      const next = await cli(["send", "resume"]);
      expect(next.code).toBe(0);
      expect(next.stdout).toBe("still here\n");
    });
  });
}
