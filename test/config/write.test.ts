import { afterEach, describe, expect, spyOn, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { parseConfigText } from "../../src/config/load.ts";
import { REDACTED, redactConfigJson, restoreRedacted } from "../../src/config/redact.ts";
import { configJsonToToml } from "../../src/config/write.ts";
import { writeFileAtomicSync as writeFileAtomic } from "../../src/base/atomic-file.ts";
import { tempDir } from "./tmp.ts";

const WRITE_MODULE = path.resolve(import.meta.dir, "../../src/base/atomic-file.ts");

describe("writeFileAtomic", () => {
  const spies: { mockRestore(): void }[] = [];
  afterEach(() => {
    for (const s of spies.splice(0)) s.mockRestore();
  });

  test("writes the text and leaves no temp file", () => {
    const dir = tempDir();
    const file = path.join(dir, "config.toml");
    writeFileAtomic(file, "a = 1\n");
    writeFileAtomic(file, "a = 2\n");
    expect(fs.readFileSync(file, "utf8")).toBe("a = 2\n");
    expect(fs.readdirSync(dir)).toEqual(["config.toml"]);
  });

  test("a new file gets the requested mode; an existing file keeps its mode but never more open than asked", () => {
    const dir = tempDir();
    const file = path.join(dir, "secret.toml");
    writeFileAtomic(file, "x = 1\n");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.chmodSync(file, 0o644);
    writeFileAtomic(file, "x = 2\n");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.chmodSync(file, 0o400);
    writeFileAtomic(file, "x = 3\n", { mode: 0o644 });
    expect(fs.statSync(file).mode & 0o777).toBe(0o400);
    fs.chmodSync(file, 0o640);
    writeFileAtomic(file, "x = 4\n", { mode: 0o644 });
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
  });

  test("a failure before the rename keeps the old file and removes the temp file", () => {
    const dir = tempDir();
    const file = path.join(dir, "config.toml");
    fs.writeFileSync(file, "old = true\n");
    spies.push(
      spyOn(fs, "fsyncSync").mockImplementation(() => {
        throw new Error("disk on fire");
      }),
    );
    expect(() => writeFileAtomic(file, "new = true\n")).toThrow("disk on fire");
    expect(fs.readFileSync(file, "utf8")).toBe("old = true\n");
    expect(fs.readdirSync(dir)).toEqual(["config.toml"]);
  });

  test("a failing rename removes the temp file", () => {
    const dir = tempDir();
    const target = path.join(dir, "taken");
    fs.mkdirSync(path.join(target, "child"), { recursive: true });
    expect(() => writeFileAtomic(target, "x")).toThrow();
    expect(fs.readdirSync(dir)).toEqual(["taken"]);
  });

  test("a process killed mid-write leaves the old file intact", async () => {
    const dir = tempDir();
    const file = path.join(dir, "config.toml");
    fs.writeFileSync(file, "old = true\n");
    // The child dies by SIGKILL right after writing the temp file, before the rename.
    const script = `
      import fs from "node:fs";
      const { writeFileAtomicSync: writeFileAtomic } = await import(${JSON.stringify(WRITE_MODULE)});
      fs.fsyncSync = () => process.kill(process.pid, "SIGKILL");
      writeFileAtomic(${JSON.stringify(file)}, "new = true\\n".repeat(100000));
    `;
    const child = Bun.spawn([process.execPath, "-e", script], { stdout: "ignore", stderr: "pipe" });
    await child.exited;
    expect(child.signalCode).toBe("SIGKILL");
    expect(fs.readFileSync(file, "utf8")).toBe("old = true\n");
    // The crash left its temp file behind, fully written but never renamed.
    const leftovers = fs.readdirSync(dir).filter((n) => n !== "config.toml");
    expect(leftovers).toHaveLength(1);
    expect(leftovers[0]).toStartWith(".config.toml.tmp-");
    expect(parseConfigText(fs.readFileSync(file, "utf8")).raw).toEqual({ old: true });
  });
});

describe("configJsonToToml", () => {
  const TEXT = `
[provider.openai]
api_key = "sk-live"
models = ["gpt-4o"]

[system.crab]
model = "gpt-4o"

[env]
TOKEN = "t"
`;

  test("GetConfig JSON restored and written back gives the same config", () => {
    const before = parseConfigText(TEXT);
    const json = restoreRedacted(redactConfigJson(before.raw) as unknown as Record<string, unknown>, before.raw);
    const text = configJsonToToml(json);
    const after = parseConfigText(text);
    expect(after.config).toEqual(before.config);
    expect(text).toContain('api_key = "sk-live"');
    expect(text).not.toContain(REDACTED);
  });

  test("empty mcps/agents tables are omitted; non-empty ones are written", () => {
    const text = configJsonToToml({ provider: {}, mcps: {}, agents: {}, system: { crab: { model: "m" } } });
    expect(text).not.toContain("mcps");
    expect(text).not.toContain("agents");
    const withMcp = configJsonToToml({ mcps: { fs: { command: "npx" } }, agents: { a: { description: "d" } } });
    const parsed = parseConfigText(withMcp).config;
    expect(parsed.mcps.fs?.command).toBe("npx");
    expect(parsed.agents.a?.description).toBe("d");
  });

  test("null values are dropped; compact_threshold null becomes 0 (disabled)", () => {
    const text = configJsonToToml({ system: { crab: { model: "m", description: null, compact_threshold: null } } });
    const { config, raw } = parseConfigText(text);
    expect(config.system.crab.compact_threshold).toBe(0);
    expect((raw.system as Record<string, Record<string, unknown>>).crab).toEqual({ model: "m", compact_threshold: 0 });
  });
});
