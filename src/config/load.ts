/**
 * Reading `config.toml` into a validated DaemonConfig (docs/config.md).
 * Every failure is a ConfigError whose message starts with the file name and
 * names the offending key, so a user can fix it without reading code.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { parse, TomlError } from "smol-toml";
import type { z } from "zod";
import { ConfigError } from "./error.ts";
import { expandVars } from "./expand.ts";
import { configSchema, type DaemonConfig } from "./schema.ts";
import { PROVIDER_KIND_TABLE } from "../base/provider-kinds.ts";
import { checkAgentCwds } from "./working-dir.ts";

export interface LoadedConfig {
  /** The document as written (references unexpanded), for GetConfig and edits. */
  raw: Record<string, unknown>;
  config: DaemonConfig;
}

interface ValidateOptions {
  /** File name used in messages. */
  source?: string;
  /** SetConfig insists on an active model (docs/config.md#the-config-as-json); start and reload do not. */
  requireModel?: boolean;
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** `provider."my.llm".models[0]` — a TOML-style path a user can find in the file. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else {
      const key = String(seg);
      out += (out ? "." : "") + (BARE_KEY.test(key) ? key : JSON.stringify(key));
    }
  }
  return out;
}

function formatIssues(source: string, issues: readonly z.core.$ZodIssue[]): string {
  const parts = issues.map((i) => (i.path.length ? `${formatPath(i.path)}: ${i.message}` : i.message));
  return `${source}: ${parts.join("; ")}`;
}

/** smol-toml yields null-prototype objects; consumers expect ordinary ones. */
function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === null) {
    // fromEntries keeps a "__proto__" key a plain key, as smol-toml did.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v)]));
  }
  return value;
}

/** Parse TOML text into a plain object, turning syntax errors into ConfigErrors. */
export function parseTomlText(text: string, source = "config.toml"): Record<string, unknown> {
  try {
    return toPlain(parse(text)) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof TomlError) {
      const reason = err.message.split("\n")[0]?.replace(/^Invalid TOML document: /, "") ?? "invalid TOML";
      throw new ConfigError(`${source}: syntax error at line ${err.line}, column ${err.column}: ${reason}`);
    }
    throw new ConfigError(`${source}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Throw unless the active model is set (start and SetConfig need one, docs/home.md#start-and-migration). */
export function requireActiveModel(config: DaemonConfig): string {
  const model = config.system.crab.model;
  if (!model) throw new ConfigError("system.crab.model is required in config.toml");
  return model;
}

/** Validate an already-parsed document (TOML or SetConfig JSON) as a config. */
export function validateConfig(raw: unknown, options: ValidateOptions = {}): DaemonConfig {
  const source = options.source ?? "config.toml";
  // Without zod's eval-compiled fast path: a config is validated once per start
  // or reload, and compiling that code costs more than it saves (issue 11).
  const result = configSchema.safeParse(raw, { jitless: true });
  if (!result.success) throw new ConfigError(formatIssues(source, result.error.issues));
  if (options.requireModel) requireActiveModel(result.data);
  return result.data;
}

/** Parse and validate the text of a `config.toml`. */
export function parseConfigText(text: string, source = "config.toml"): LoadedConfig {
  const raw = parseTomlText(text, source);
  return { raw, config: validateConfig(raw, { source }) };
}

/**
 * Kinds that require `model_path` (`llama_cpp`) need an existing one (docs/config.md#providername). Checked apart
 * from parsing so that parsing stays free of file-system effects; the path is
 * expanded first because it may be written as `${MODELS}/x.gguf`.
 */
function checkModelPaths(config: DaemonConfig, env: Record<string, string | undefined>, source = "config.toml"): void {
  for (const [name, p] of Object.entries(config.provider)) {
    if (!PROVIDER_KIND_TABLE[p.kind].config.required?.includes("model_path") || p.model_path === undefined) continue;
    const path = expandVars(p.model_path, env);
    if (!existsSync(path)) {
      throw new ConfigError(`${source}: ${formatPath(["provider", name, "model_path"])}: no file at '${path}'`);
    }
  }
}

/** Read, parse and validate a config file (start and reload). */
export function loadConfigFile(path: string, env: Record<string, string | undefined> = process.env): LoadedConfig {
  const source = basename(path);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ConfigError(`${source}: cannot read ${path}: ${reason}`, 500);
  }
  const loaded = parseConfigText(text, source);
  checkModelPaths(loaded.config, env, source);
  checkAgentCwds(loaded.config, env, source);
  return loaded;
}
