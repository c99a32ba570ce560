// The skills hook: tool registration, slash preprocessing and the Skills part
// of the <resources> prompt block (docs/agent-loop.md#system-prompt item 4).
import { afterAll, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_AGENT_SETTINGS } from "../../../src/runtime/agent-settings.ts";
import type { RunScene } from "../../../src/runtime/hooks.ts";
import { skillsHook } from "../../../src/runtime/skills/hook.ts";
import { ToolRegistry } from "../../../src/runtime/tools/registry.ts";
import { agentDef, localDir, removeTempDirs, tempDir, toolCtx, writeSkill } from "./fixtures.ts";
import { SILENT_LOG } from "../../../src/base/runtime-log.ts";

afterAll(removeTempDirs);

function withSkills() {
  const root = tempDir();
  writeSkill(root, "greet", "greet", "Say ahoy.", "Greets people");
  writeSkill(root, "plain", "plain", "No description here.");
  writeSkill(root, "off", "off", "Disabled.", "switched off");
  const warnings: string[] = [];
  return { root, warnings, ...skillsHook({ dirs: [localDir(root)], disabled: ["off"], log: { warn: (m) => warnings.push(m) } }) };
}

const agent = (skills: string[] = []) => ({ ...DEFAULT_AGENT_SETTINGS, name: "crab", skills });

test("the prompt block lists every visible skill inside <resources>", () => {
  const { hook, registry } = withSkills();
  expect(registry.list().map((s) => s.name)).toEqual(["greet", "plain"]);
  const block = hook.promptBlock!(agent());
  expect(block).toStartWith("\n\n<resources>\nSkills: ");
  expect(block).toEndWith("\n- greet: Greets people\n- plain\n</resources>");
  expect(block).toContain("<skill>");
  expect(block).toContain("`skill` tool");
  expect(block).not.toContain("off");
});

test("a scoped agent's block lists only its skills", () => {
  const { hook } = withSkills();
  const block = hook.promptBlock!(agent(["plain"]));
  expect(block).toContain("- plain\n</resources>");
  expect(block).not.toContain("greet");
});

test("no block when the agent can see no skill", () => {
  const { hook } = withSkills();
  expect(hook.promptBlock!(agent(["nosuch"]))).toBe("");
  const empty = skillsHook({ dirs: [localDir(join(tempDir(), "missing"))], disabled: [], log: SILENT_LOG });
  expect(empty.hook.promptBlock!(agent())).toBe("");
});

test("discovery warnings go to warn", () => {
  const a = tempDir();
  const b = tempDir();
  writeSkill(a, "dup", "dup");
  writeSkill(b, "dup", "dup");
  const warnings: string[] = [];
  skillsHook({ dirs: [localDir(a), localDir(b)], disabled: [], log: { warn: (m) => warnings.push(m) } });
  expect(warnings).toHaveLength(1);
});

test("preprocess expands slash commands within the scene agent's scope", () => {
  const { hook } = withSkills();
  const scene = (skills: string[]): RunScene => ({ agent: agentDef(skills), agents: [], cwd: tmpdir(), home: tmpdir(), session: 1n });
  expect(hook.preprocess!("/greet all", scene([]))).toBe('all\n\n<skill name="greet">\nSay ahoy.\n</skill>');
  expect(hook.preprocess!("/greet all", scene(["plain"]))).toBe("/greet all");
  expect(hook.preprocess!("/off", scene([]))).toBe("/off");
});

test("registerTools registers a working skill tool", async () => {
  const { hook, root } = withSkills();
  const tools = new ToolRegistry();
  hook.registerTools!(tools);
  expect(tools.names()).toEqual(["skill"]);
  const out = await tools.dispatch({ id: "1", name: "skill", arguments: '{"name":"greet"}' }, toolCtx());
  expect(out).toEqual({ output: `Say ahoy.\n\nSkill directory: ${join(root, "greet")}`, isError: false });
  expect(tools.schemas()[0].parameters).toMatchObject({ type: "object", required: ["name"] });
});
