// Broken providers end the run with an error and leave a loadable session:
// a stream cut without its end marker, a 200 body that is no event stream, a
// stream that stalls, an answer over the cap — through the real daemon and
// the real SDKs, against fake servers of both wire formats.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { StreamEvent } from "../../src/protocol/gen/crabtalk_pb.ts";
import { daemonError } from "../support/daemon-error.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";
import { isTitleRequest } from "../support/fake-llm.ts";
import { historyOf, sessionLines } from "../support/session-files.ts";
import { until } from "../support/until.ts";

const CAP = 64 * 1024;

for (const flavour of ["openai", "anthropic"] as const) {
  describe(`a broken ${flavour} provider`, () => {
    // A window that holds a partial answer at the cap (the default for an unknown model, 8,192 tokens, does not).
    const fx = useLlmDaemon(flavour, {
      providerConfig: `stream_idle_timeout = 1\nmax_answer_bytes = ${CAP}\ncontext_limits = { "fake-model" = 128000 }\n`,
    });
    const lines = (sender: string) => sessionLines(join(fx.env.daemon.home, "sessions"), `crab_${sender}_1`);

    /** The session still loads and goes on: the next turn sees what was kept. */
    async function stillUsable(sender: string, kept: string): Promise<void> {
      const history = await historyOf(fx.client, "crab", sender);
      expect(history.messages.map((m) => m.role)).toEqual(kept ? ["user", "assistant"] : ["user"]);
      fx.env.fake.script({ text: "recovered" });
      const r = await fx.client.send({ agent: "crab", content: "again", sender });
      expect(r.content).toBe("recovered");
      const sent = JSON.stringify(fx.env.fake.requests.filter((r) => !isTitleRequest(r.body)).at(-1)!.body);
      if (kept) expect(sent).toContain(kept);
    }

    test("a stream that ends cleanly without its end marker is an error; the answer is kept as partial", async () => {
      fx.env.fake.script({ text: "the first half of", truncate: true });
      const err = await daemonError(fx.client.send({ agent: "crab", content: "tell me", sender: "cut" }));
      expect(err.code).toBe(500);
      expect(err.message).toContain(flavour === "openai" ? "ended without a finish_reason" : "ended without message_stop");
      const [, user, assistant] = lines("cut");
      expect(user).toEqual({ role: "user", content: "tell me" });
      expect(assistant).toEqual({ role: "assistant", content: "the first half of", partial: "error" });
      await stillUsable("cut", "the first half of");
    });

    test("a 200 body that is not an event stream is an error, not an empty answer", async () => {
      fx.env.fake.script({ garbage: "<html><body>502 Bad Gateway</body></html>" });
      const err = await daemonError(fx.client.send({ agent: "crab", content: "hello?", sender: "junk" }));
      expect(err.code).toBe(500);
      expect(err.message).toContain("not an event stream");
      expect(lines("junk").slice(1)).toEqual([{ role: "user", content: "hello?" }]);
      await stillUsable("junk", "");
    });

    test("a stream idle longer than stream_idle_timeout ends with an error and its request is aborted", async () => {
      const abandoned = fx.env.fake.abandoned;
      // Events before the stall carry the first words ("slow " and more, by format).
      fx.env.fake.script({ text: "slow words then silence forever", stallAfterChunks: flavour === "openai" ? 3 : 5 });
      const events: StreamEvent["event"][] = [];
      for await (const e of fx.client.stream({ agent: "crab", content: "go", sender: "stall" })) events.push(e.event);
      const end = events.at(-1)!;
      if (end.case !== "end") throw new Error("no end");
      expect(end.value.error).toContain("idle for more than 1s");
      const streamed = events.flatMap((e) => (e.case === "chunk" ? [e.value.content] : [])).join("");
      expect(streamed.startsWith("slow ")).toBe(true);
      const [, , assistant] = lines("stall");
      expect(assistant).toEqual({ role: "assistant", content: streamed, partial: "error" });
      await until(() => fx.env.fake.abandoned > abandoned, { what: "the stalled request to be abandoned" });
      await stillUsable("stall", streamed);
    });

    test("an answer over max_answer_bytes ends the run with an error and is not saved beyond the cap", async () => {
      fx.env.fake.script({ hugeText: 1024 * 1024 });
      const err = await daemonError(fx.client.send({ agent: "crab", content: "flood me", sender: "huge" }));
      expect(err.code).toBe(500);
      expect(err.message).toContain(`exceeds max_answer_bytes (${CAP} bytes)`);
      const [, , assistant] = lines("huge");
      const kept = assistant as { content: string; partial: string };
      expect(kept.partial).toBe("error");
      expect(kept.content.length).toBeGreaterThan(0);
      expect(kept.content.length).toBeLessThanOrEqual(CAP);
      await stillUsable("huge", "xxxx");
    });

    test("a line that never ends is stopped near the cap, not buffered until the idle limit; nothing of it is kept", async () => {
      // The SDK's decoder buffers a line whole: without a bound this one would grow for a second (the idle limit).
      const abandoned = fx.env.fake.abandoned;
      fx.env.fake.script({ endlessLine: true });
      const err = await daemonError(fx.client.send({ agent: "crab", content: "one line", sender: "line" }));
      expect(err.code).toBe(500);
      expect(err.message).toContain(`exceeds max_answer_bytes (${CAP} bytes)`);
      expect(lines("line").slice(1)).toEqual([{ role: "user", content: "one line" }]);
      await until(() => fx.env.fake.abandoned > abandoned, { what: "the endless request to be abandoned" });
      await stillUsable("line", "");
    });
  });
}
