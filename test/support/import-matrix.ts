// Counts imports between the top-level folders of src/ (docs/architecture.md,
// "Known violations"): which layer reaches into which, and how often.
// `bun test/support/import-matrix.ts` prints the matrix; importMatrix() is
// there for a test that wants to hold the layering once the violations are gone.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** One import of a module in another top-level folder of src/. */
export interface CrossImport {
  from: string;
  to: string;
  file: string;
  specifier: string;
  typeOnly: boolean;
}

// Static `import … from`, `export … from`, side-effect `import "…"`, dynamic import() and require().
const SPECIFIERS = [
  /^\s*(import|export)\s+(type\s+)?[^'";]*?\sfrom\s+["']([^"']+)["']/gm,
  /^\s*import\s+["']([^"']+)["']/gm,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
  /\brequire\(\s*["']([^"']+)["']\s*\)/g,
];

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** `src/<folder>/…` → folder; files directly in src/ (main.ts, version.ts) count as `(root)`. */
function folderOf(src: string, file: string): string {
  const rel = relative(src, file);
  return rel.includes(sep) ? rel.split(sep)[0] : "(root)";
}

export function crossImports(src: string): CrossImport[] {
  const out: CrossImport[] = [];
  for (const file of tsFiles(src)) {
    const text = readFileSync(file, "utf8");
    const from = folderOf(src, file);
    for (const pattern of SPECIFIERS) {
      for (const m of text.matchAll(pattern)) {
        const specifier = m[3] ?? m[1];
        if (!specifier.startsWith(".")) continue;
        const target = resolve(dirname(file), specifier);
        if (!target.startsWith(src + sep)) continue;
        const to = folderOf(src, target);
        if (to === from) continue;
        out.push({ from, to, file: relative(src, file), specifier, typeOnly: m[2] !== undefined });
      }
    }
  }
  return out;
}

/** The matrix as text: rows import from columns; `n (t)` = n imports, t of them type-only. */
export function formatMatrix(imports: readonly CrossImport[]): string {
  const folders = [...new Set(imports.flatMap((i) => [i.from, i.to]))].sort();
  const cell = (from: string, to: string): string => {
    const hits = imports.filter((i) => i.from === from && i.to === to);
    if (hits.length === 0) return ".";
    const types = hits.filter((i) => i.typeOnly).length;
    return types > 0 ? `${hits.length} (${types})` : String(hits.length);
  };
  const rows = [["from \\ to", ...folders], ...folders.map((f) => [f, ...folders.map((t) => cell(f, t))])];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows
    .map((r) =>
      r
        .map((v, c) => v.padEnd(widths[c]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

if (import.meta.main) {
  const src = resolve(import.meta.dir, "../../src");
  const imports = crossImports(src);
  console.log(formatMatrix(imports));
  console.log("\nrow imports column; n (t) = n import statements, t of them `import type`");
  if (process.argv.includes("--list")) {
    for (const i of imports) console.log(`${i.from} -> ${i.to}\t${i.file}\t${i.specifier}${i.typeOnly ? "\t(type)" : ""}`);
  }
}
