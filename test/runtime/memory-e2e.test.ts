// Memory through a real daemon (docs/memory.md, docs/tools.md#memory-tools).
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { useLlmDaemon } from "../support/llm-daemon.ts";

const t = useLlmDaemon("openai");

const lastStreamed = () => t.env.fake.requests.filter((r) => r.body?.stream === true).at(-1)!.body;
const call = (id: string, name: string, args: unknown) => ({ id, name, arguments: JSON.stringify(args) });

async function results(content: string, sender: string) {
  const out: Record<string, { output: string; isError: boolean }> = {};
  for await (const e of t.client.stream({ agent: "crab", content, sender })) {
    if (e.event.case === "toolResult") out[e.event.value.callId] = e.event.value;
  }
  return out;
}

test("remember writes an entry file; recall finds it; forget removes it", async () => {
  t.env.fake.script(
    {
      toolCalls: [
        call("r1", "remember", { name: "Luna's Vet Appointment!", description: "vet appointment for Luna the cat", content: "Tuesday at 10, Dr. Ortiz" }),
      ],
    },
    { toolCalls: [call("r2", "recall", { query: "when is the vet appointment" })] },
    { text: "noted" },
  );
  const r = await results("remember the vet", "mem");
  expect(r.r1).toEqual(expect.objectContaining({ output: "remembered: Luna's Vet Appointment!", isError: false }));
  const file = join(t.env.daemon.home, "memory/entries/luna-s-vet-appointment.md");
  expect(readFileSync(file, "utf8")).toBe(
    "---\nname: Luna's Vet Appointment!\ndescription: vet appointment for Luna the cat\n---\n\nTuesday at 10, Dr. Ortiz\n",
  );
  expect(r.r2.output).toBe("## Luna's Vet Appointment!\nvet appointment for Luna the cat\n\nTuesday at 10, Dr. Ortiz");

  t.env.fake.script({ toolCalls: [call("f1", "forget", { name: "Luna's Vet Appointment!" }), call("f2", "recall", { query: "zebra" })] }, { text: "gone" });
  const f = await results("forget it", "mem");
  expect(f.f1.output).toBe("forgot: Luna's Vet Appointment!");
  expect(f.f2).toEqual(expect.objectContaining({ output: "no memories found", isError: false }));
  expect(existsSync(file)).toBe(false);
});

test("auto-recall injects matching entries before the user's message", async () => {
  t.env.fake.script(
    { toolCalls: [call("a1", "remember", { name: "coffee", description: "the user's coffee order", content: "flat white, oat milk" })] },
    { text: "saved" },
  );
  await results("save my coffee", "recall-user");
  await t.client.send({ agent: "crab", content: "what coffee do I like?", sender: "recall-user" });
  const messages: (string | null)[] = lastStreamed().messages.map((m: { content: string | null }) => m.content);
  const recall = messages.find((c) => typeof c === "string" && c.startsWith("<recall>"))!;
  expect(recall).toContain("## coffee");
  expect(recall).toContain("flat white, oat milk");
  expect(messages.indexOf(recall)).toBeLessThan(messages.length - 1);
});

test("the memory tool writes MEMORY.md, which enters the system prompt after a reload", async () => {
  t.env.fake.script({ toolCalls: [call("m1", "memory", { content: "The user is Sam, a night owl." })] }, { text: "updated" });
  const r = await results("update your notes", "index");
  expect(r.m1.output).toBe("MEMORY.md updated");
  expect(readFileSync(join(t.env.daemon.home, "memory/MEMORY.md"), "utf8")).toContain("Sam, a night owl");
  await t.client.reload();
  await t.client.send({ agent: "crab", content: "hello", sender: "index" });
  const system = lastStreamed().messages[0].content as string;
  expect(system).toContain("<memory>\nThe user is Sam, a night owl.");
  expect(system).toContain("</memory>");
});
