// Skills through a real daemon (docs/memory.md#skills, docs/tools.md#skill, docs/protocol.md#packages-hub-and-skills).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/protocol/client.ts";
import { ResourceKind, SourceKind } from "../../src/protocol/gen/crabtalk_pb.ts";
import { cleanup, tempHome } from "../support/daemon.ts";
import { startLlmDaemon, type LlmDaemon } from "../support/llm-daemon.ts";
import { sessionLines } from "../support/session-files.ts";

let env: LlmDaemon;
let client: Client;
let home: string;

function writeSkill(name: string, description: string, body: string): void {
  const dir = join(home, "local/skills", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
}

beforeAll(async () => {
  home = tempHome();
  writeSkill("greet", "Say hello nicely", "Always greet with 'Ahoy'.");
  writeSkill("audit", "Check a repository", "Run the audit checklist.");
  env = await startLlmDaemon("openai", { home });
  client = await env.daemon.client();
});
afterAll(async () => {
  await client.close();
  await env.stop();
  cleanup(home);
});

const lastStreamed = () => env.fake.requests.filter((r) => r.body?.stream === true).at(-1)!.body;

test("ListSkills lists local skills, enabled, with their source", async () => {
  const skills = await client.listSkills();
  const greet = skills.find((s) => s.name === "greet")!;
  expect(greet).toMatchObject({ enabled: true, source: "local", sourceKind: SourceKind.LOCAL });
  expect(skills.map((s) => s.name)).toContain("audit");
});

test("the system prompt lists the skills in a <resources> block", async () => {
  await client.send({ agent: "crab", content: "hi", sender: "skills-prompt" });
  const system = lastStreamed().messages[0].content as string;
  expect(system).toContain("<resources>");
  expect(system).toContain("- greet: Say hello nicely");
  expect(system).toContain("</resources>");
});

test("a slash command expands the skill into the message, and that is what is stored", async () => {
  await client.send({ agent: "crab", content: "/greet the crew", sender: "slash" });
  const user = lastStreamed().messages.at(-1);
  expect(user.content).toBe("the crew\n\n<skill name=\"greet\">\nAlways greet with 'Ahoy'.\n</skill>");
  const stored = sessionLines(join(home, "sessions"), "crab_slash_");
  expect(stored[1]).toEqual({ role: "user", content: "the crew\n\n<skill name=\"greet\">\nAlways greet with 'Ahoy'.\n</skill>" });
  await client.send({ agent: "crab", content: "/nosuchskill here", sender: "slash" });
  expect(lastStreamed().messages.at(-1).content).toBe("/nosuchskill here");
});

test("the skill tool loads a skill fresh from disk and lists matches", async () => {
  writeSkill("greet", "Say hello nicely", "Greet with 'Ahoy there', edited.");
  env.fake.script(
    {
      toolCalls: [
        { id: "s1", name: "skill", arguments: JSON.stringify({ name: "greet" }) },
        { id: "s2", name: "skill", arguments: JSON.stringify({ name: "" }) },
      ],
    },
    { text: "loaded" },
  );
  const results: Record<string, { output: string; isError: boolean }> = {};
  for await (const e of client.stream({ agent: "crab", content: "load it", sender: "tool" })) {
    if (e.event.case === "toolResult") results[e.event.value.callId] = e.event.value;
  }
  expect(results.s1.isError).toBe(false);
  expect(results.s1.output).toStartWith("Greet with 'Ahoy there', edited.");
  expect(results.s1.output).toContain(`Skill directory: ${join(home, "local/skills")}`);
  expect(results.s2.output.split("\n").sort()).toEqual(["audit: Check a repository", "greet: Say hello nicely"]);
});

test("a disabled skill is listed as such and no longer expands", async () => {
  await client.setEnabled(ResourceKind.SKILL, "greet", false);
  expect((await client.listSkills()).find((s) => s.name === "greet")?.enabled).toBe(false);
  await client.send({ agent: "crab", content: "/greet again", sender: "disabled" });
  expect(lastStreamed().messages.at(-1).content).toBe("/greet again");
  await client.setEnabled(ResourceKind.SKILL, "greet", true);
});

test("an agent scoped to one skill sees only it and cannot load others", async () => {
  await client.createAgent("auditor", JSON.stringify({ skills: ["audit"] }));
  env.fake.script({ toolCalls: [{ id: "x1", name: "skill", arguments: JSON.stringify({ name: "greet" }) }] }, { text: "no" });
  const results: { output: string; isError: boolean }[] = [];
  for await (const e of client.stream({ agent: "auditor", content: "try", sender: "scoped" })) {
    if (e.event.case === "toolResult") results.push(e.event.value);
  }
  expect(results[0]).toMatchObject({ isError: true, output: "skill not available: greet" });
  const system = env.fake.requests.filter((r) => r.body?.stream === true && JSON.stringify(r.body.messages).includes('"try"'))[0].body.messages[0].content;
  expect(system).toContain("- audit: Check a repository");
  expect(system).not.toContain("- greet");
});
