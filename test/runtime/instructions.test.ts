// Project instructions (docs/agent-loop.md#injected-context): every Crab.md in the working directory
// and its ancestors goes into the run's injected context, root-most first. The
// daemon keeps what it read, but an edit, a removal or a new file is seen on the
// very next turn; what is not a regular file is skipped without harm.
import { expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanup, tempHome } from "../support/daemon.ts";
import { isTitleRequest } from "../support/fake-llm.ts";
import { useLlmDaemon } from "../support/llm-daemon.ts";

const t = useLlmDaemon("openai");

/** The <instructions> block of the last turn's request ("" when it had none). */
async function instructionsSeen(cwd: string, sender: string): Promise<string> {
  await t.client.send({ agent: "crab", content: "go", sender, cwd });
  const turn = t.env.fake.requests.filter((r) => !isTitleRequest(r.body)).at(-1)!;
  const texts: string[] = turn.body.messages.map((m: { content: unknown }) => (typeof m.content === "string" ? m.content : ""));
  return texts.find((c) => c.startsWith("<instructions>")) ?? "";
}

test("an instruction file changed, removed or added on disk is seen on the next turn", async () => {
  const root = tempHome("crabtalk-instr-");
  const sub = join(root, "sub");
  mkdirSync(sub);
  try {
    writeFileSync(join(root, "Crab.md"), "rule one\n");
    writeFileSync(join(sub, "Crab.md"), "rule two\n");
    expect(await instructionsSeen(sub, "instr")).toBe("<instructions>\nrule one\n\nrule two\n</instructions>");
    // Same length, new text: not the size that tells.
    writeFileSync(join(sub, "Crab.md"), "rule TWO\n");
    expect(await instructionsSeen(sub, "instr")).toBe("<instructions>\nrule one\n\nrule TWO\n</instructions>");
    rmSync(join(root, "Crab.md"));
    expect(await instructionsSeen(sub, "instr")).toBe("<instructions>\nrule TWO\n</instructions>");
    writeFileSync(join(root, "Crab.md"), "rule three\n");
    expect(await instructionsSeen(sub, "instr")).toBe("<instructions>\nrule three\n\nrule TWO\n</instructions>");
    // Replaced by a file of another inode with the same size.
    writeFileSync(join(sub, "Crab.md.new"), "rule 2wo\n");
    renameSync(join(sub, "Crab.md.new"), join(sub, "Crab.md"));
    expect(await instructionsSeen(sub, "instr")).toBe("<instructions>\nrule three\n\nrule 2wo\n</instructions>");
    rmSync(join(root, "Crab.md"));
    rmSync(join(sub, "Crab.md"));
    expect(await instructionsSeen(sub, "instr")).toBe("");
  } finally {
    cleanup(root);
  }
});

test("a Crab.md that is a directory or a named pipe is skipped and the turn runs", async () => {
  const root = tempHome("crabtalk-instr-odd-");
  const sub = join(root, "sub");
  mkdirSync(join(root, "Crab.md"), { recursive: true });
  mkdirSync(sub);
  try {
    const fifo = Bun.spawnSync(["mkfifo", join(sub, "Crab.md")]);
    expect(fifo.exitCode).toBe(0);
    expect(await instructionsSeen(sub, "instr-odd")).toBe("");
    rmSync(join(sub, "Crab.md"));
    writeFileSync(join(sub, "Crab.md"), "now a file\n");
    expect(await instructionsSeen(sub, "instr-odd")).toBe("<instructions>\nnow a file\n</instructions>");
  } finally {
    cleanup(root);
  }
});
