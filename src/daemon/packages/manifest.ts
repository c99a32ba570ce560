// A package manifest `<scope>/<name>.toml` (docs/packages.md#manifests, docs/packages.md): [package]
// metadata and setup, [mcps.*], [agents.*], [commands.*].
import { readFileSync, statSync } from "node:fs";
import { z } from "zod";
import { ConfigError } from "../../config/error.ts";
import { parseTomlText } from "../../config/load.ts";
import { agentConfigSchema, mcpTableSchema } from "../../config/schema.ts";
import { checkManifestSizes, MAX_MANIFEST_BYTES } from "./manifest-limits.ts";

const text = z.string({ error: "must be a string" });
const words = z.array(text, { error: "must be an array of strings" });

const setupSchema = z.object(
  {
    /** A `.sh` file in the package repository, or a command line run with bash. */
    script: text.optional(),
    /** A prompt sent to the default agent after install: inline, or a `.md` file in the repository. */
    prompt: text.optional(),
  },
  { error: "must be a table" },
);

const packageSchema = z.object(
  {
    name: text.default(""),
    description: text.default(""),
    repository: text.default(""),
    branch: text.default(""),
    keywords: words.default([]),
    logo: text.optional(),
    setup: setupSchema.optional(),
  },
  { error: "must be a table" },
);

/** `[commands.<name>]`: how to get the program; exactly one of crate, npm or bin. */
const commandSchema = z
  .object(
    {
      description: text.default(""),
      /** Rust crate, installed with `cargo install` (upstream). */
      crate: text.optional(),
      /** npm package `<name>[@version]`, installed with the Bun runtime into `.cache/commands/<name>/`. */
      npm: text.optional(),
      /** A program already on PATH. */
      bin: text.optional(),
      /** Arguments the service runs it with (default `run -v` for a crate, none otherwise). */
      args: words.optional(),
    },
    { error: "must be a table" },
  )
  .refine((c) => [c.crate, c.npm, c.bin].filter((v) => v !== undefined).length === 1, {
    message: "needs exactly one of crate, npm or bin",
  })
  // They become arguments of cargo and bun: never options.
  .refine((c) => ![c.crate, c.npm, c.bin].some((v) => v?.startsWith("-")), { message: "crate, npm and bin cannot start with '-'" });
export type CommandConfig = z.output<typeof commandSchema>;

/** Command names become file and service names: plain words only. */
const COMMAND_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const agentSchema = agentConfigSchema.extend({ prompt: text.optional() });

export const packageManifestSchema = z
  .object(
    {
      package: packageSchema.prefault({}),
      mcps: mcpTableSchema.prefault({}),
      agents: z.record(z.string(), agentSchema, { error: "must be a table" }).default({}),
      commands: z.record(z.string(), commandSchema, { error: "must be a table" }).default({}),
    },
    { error: "must be a table" },
  )
  .superRefine((m, ctx) => {
    for (const name of Object.keys(m.commands)) {
      if (!COMMAND_NAME.test(name)) ctx.addIssue({ code: "custom", path: ["commands", name], message: "command names are letters, digits, '.', '_' or '-'" });
    }
  });
export type PackageManifest = z.output<typeof packageManifestSchema>;

/** Parses manifest text; `label` names the file in errors. Refuses text over the size limits (manifest-limits.ts). */
export function parsePackageManifest(source: string, label: string): PackageManifest {
  const bytes = Buffer.byteLength(source);
  if (bytes > MAX_MANIFEST_BYTES) throw tooLarge(label, bytes);
  const doc = parseTomlText(source, label);
  checkManifestSizes(doc, label);
  // Parsed once per load: zod's eval-compiled fast path would cost more than it saves.
  const parsed = packageManifestSchema.safeParse(doc, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${label}: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data;
}

/** Reads and parses a manifest file; never reads one that is not a regular file or over the size limit. */
export function readPackageManifest(path: string, label = path): PackageManifest {
  const st = statSync(path);
  if (!st.isFile()) throw new ConfigError(`${label}: not a regular file`);
  if (st.size > MAX_MANIFEST_BYTES) throw tooLarge(label, st.size);
  return parsePackageManifest(readFileSync(path, "utf8"), label);
}

const tooLarge = (label: string, bytes: number) =>
  new ConfigError(`${label}: the manifest is ${bytes} bytes, over the ${MAX_MANIFEST_BYTES}-byte (1 MiB) limit`);

/**
 * Whether install clones the repository (docs/packages.md): for agents, a setup step, or
 * skills (a package declaring nothing else is a skills package). A package of
 * MCP servers and commands only needs no clone.
 */
export function needsRepository(m: PackageManifest): boolean {
  if (m.package.repository === "") return false;
  const setup = m.package.setup;
  if (Object.keys(m.agents).length > 0 || setup?.script || setup?.prompt) return true;
  return Object.keys(m.mcps).length === 0 && Object.keys(m.commands).length === 0;
}
