// The layering of src/ (docs/architecture.md, "What may import what"): every
// import between top-level folders must follow the table below, which is the
// same table as the docs page's. A new folder needs a row here and there.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { crossImports, type CrossImport } from "../support/import-matrix.ts";

const SRC = resolve(import.meta.dir, "../../src");
const DOC = resolve(import.meta.dir, "../../docs/architecture.md");

/** folder → the folders it may import, bottom first. `(types)` after a folder: `import type` only. */
const RULES: Record<string, string[]> = {
  base: [],
  protocol: ["base"],
  transport: ["protocol", "base"],
  model: ["base"],
  session: ["model (types)", "base"],
  agent: ["model", "session", "base"],
  runtime: ["agent", "model", "session", "protocol", "base"],
  config: ["protocol", "base"],
  service: ["base"],
  component: ["base"],
  remote: ["console", "config (types)", "transport", "protocol", "base"],
  console: ["protocol", "base"],
  daemon: ["config", "runtime", "agent", "model", "session", "service", "component", "remote", "transport", "protocol", "base"],
  cli: ["config", "service", "transport", "protocol", "base"],
  "(root)": ["cli"],
};

/** Single files allowed one more folder, each with why. */
const EXCEPTIONS: { file: string; to: string; why: string }[] = [
  { file: "cli/daemon-command.ts", to: "daemon", why: "`crabtalk daemon` runs the daemon in this process" },
];

function allowed(i: CrossImport): boolean {
  // src/version.ts is a constant: anyone may show it.
  if (i.to === "(root)" && basename(resolve(SRC, dirname(i.file), i.specifier)) === "version.ts") return true;
  if (EXCEPTIONS.some((e) => e.file === i.file && e.to === i.to)) return true;
  const rule = (RULES[i.from] ?? []).find((r) => r.split(" ")[0] === i.to);
  if (rule === undefined) return false;
  return !rule.endsWith("(types)") || i.typeOnly;
}

/** The rows of the docs page's "may import" table. */
function documentedRules(): Record<string, string[]> {
  const text = readFileSync(DOC, "utf8");
  const start = text.indexOf("| folder | may import |");
  expect(start).toBeGreaterThan(-1);
  const rows: Record<string, string[]> = {};
  for (const line of text.slice(start).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    const [folder, may] = line
      .split("|")
      .slice(1, 3)
      .map((c) => c.trim().replaceAll("`", ""));
    rows[folder.replace(/^src\//, "").replace(/\/$/, "")] = may === "—" ? [] : may.split(/,\s*/);
  }
  return rows;
}

describe("layers", () => {
  test("every folder of src/ has a rule", () => {
    const folders = readdirSync(SRC).filter((n) => statSync(join(SRC, n)).isDirectory());
    expect(folders.filter((f) => !(f in RULES))).toEqual([]);
  });

  test("no folder imports one it may not", () => {
    const forbidden = crossImports(SRC)
      .filter((i) => !allowed(i))
      .map((i) => `${i.from} -> ${i.to}${i.typeOnly ? " (type)" : ""}: src/${i.file} imports ${i.specifier}`);
    expect(forbidden).toEqual([]);
  });

  test("the CLI reaches the daemon from one import in one file", () => {
    const intoDaemon = crossImports(SRC).filter((i) => i.from === "cli" && i.to === "daemon");
    expect(intoDaemon.map((i) => `src/${i.file} imports ${i.specifier}`)).toEqual(["src/cli/daemon-command.ts imports ../daemon/daemon.ts"]);
  });

  test("the table is the one in docs/architecture.md", () => {
    expect(documentedRules()).toEqual(RULES);
  });
});
