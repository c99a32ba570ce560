// The shared config and credentials files (docs/providers.md#bedrock--aws-bedrock),
// parsed by the rules of the AWS SDK's parseIni and merged as its
// parseKnownFiles merges them: `[profile x]` and `[default]` of the config
// file, `[x]` of the credentials file, the latter winning key by key;
// `[sso-session x]` sections of the config file. Comments start with `#` or
// `;` at a line's start or after a space; an empty value opens a sub-section
// whose indented keys are stored as `parent.key`.
import { join } from "node:path";
import { expandHome, homeDir, KIB, readBounded, shownPath } from "./files.ts";
import type { Env } from "./types.ts";

/** Keys of one section, without inherited properties (a section may be named `constructor`). */
export type Section = Record<string, string>;

export interface SharedFiles {
  /** Profiles by name, both files merged. */
  profiles: Map<string, Section>;
  /** `[sso-session x]` sections of the config file, by name. */
  ssoSessions: Map<string, Section>;
  /** The files each profile came from, as messages show them. */
  origins: Map<string, string[]>;
  configPath: string;
  credentialsPath: string;
}

/** The SDK's cap is none; these files can hold hundreds of profiles. */
const MAX_FILE_BYTES = 1024 * KIB;

const SECTION_WITH_PREFIX = /^([\w-]+)\s(["'])?([\w-@+.%:/]+)\2$/;
const PREFIXES = new Set(["profile", "sso-session", "services"]);

/** Sections by name as the SDK keys them: `prefix.name` for prefixed ones, the bare name otherwise. */
export function parseIni(text: string): Map<string, Section> {
  const sections = new Map<string, Section>();
  let current: string | undefined;
  let subSection: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const trimmed = (line.split(/(?:^|\s)[;#]/)[0] ?? "").trim();
    if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
      current = undefined;
      subSection = undefined;
      const name = trimmed.slice(1, -1);
      const match = SECTION_WITH_PREFIX.exec(name);
      if (match) {
        if (PREFIXES.has(match[1]!)) current = `${match[1]}.${match[3]}`;
      } else {
        current = name;
      }
      continue;
    }
    if (current === undefined) continue;
    const eq = trimmed.indexOf("=");
    if (eq <= 0) continue;
    const key = trimmed.slice(0, eq).trim();
    const value = trimmed.slice(eq + 1).trim();
    if (value === "") {
      subSection = key;
      continue;
    }
    if (subSection !== undefined && line.trimStart() === line) subSection = undefined;
    let section = sections.get(current);
    if (!section) {
      section = Object.create(null) as Section;
      sections.set(current, section);
    }
    section[subSection !== undefined ? `${subSection}.${key}` : key] = value;
  }
  return sections;
}

/** The profile this resolution uses: AWS_PROFILE, else `default`. */
export function profileName(env: Env): string {
  return env.AWS_PROFILE || "default";
}

export async function loadSharedFiles(env: Env): Promise<SharedFiles> {
  const configPath = expandHome(env.AWS_CONFIG_FILE || join(homeDir(env), ".aws", "config"), env);
  const credentialsPath = expandHome(env.AWS_SHARED_CREDENTIALS_FILE || join(homeDir(env), ".aws", "credentials"), env);
  const [configText, credentialsText] = await Promise.all([
    readBounded(configPath, MAX_FILE_BYTES, shownPath(configPath, env)),
    readBounded(credentialsPath, MAX_FILE_BYTES, shownPath(credentialsPath, env)),
  ]);
  const config = parseIni(configText ?? "");
  const credentials = parseIni(credentialsText ?? "");
  const profiles = new Map<string, Section>();
  const origins = new Map<string, string[]>();
  const ssoSessions = new Map<string, Section>();
  const add = (name: string, section: Section, path: string) => {
    const merged = profiles.get(name) ?? (Object.create(null) as Section);
    Object.assign(merged, section);
    profiles.set(name, merged);
    origins.set(name, [...(origins.get(name) ?? []), shownPath(path, env)]);
  };
  // As the SDK's getConfigData: `[profile default]` replaces `[default]`; unprefixed sections other than default are ignored.
  const configDefault = config.get("profile.default") ?? config.get("default");
  if (configDefault) add("default", configDefault, configPath);
  for (const [key, section] of config) {
    if (key.startsWith("profile.") && key !== "profile.default") add(key.slice("profile.".length), section, configPath);
    else if (key.startsWith("sso-session.")) ssoSessions.set(key.slice("sso-session.".length), section);
  }
  for (const [key, section] of credentials) add(key, section, credentialsPath);
  return { profiles, ssoSessions, origins, configPath, credentialsPath };
}

/** "profile 'dev' in ~/.aws/config", for messages. */
export function profileLabel(files: SharedFiles, name: string, env: Env): string {
  const from = files.origins.get(name);
  if (from && from.length > 0) return `profile '${name}' in ${from.join(" and ")}`;
  return `profile '${name}' (not in ${shownPath(files.configPath, env)} or ${shownPath(files.credentialsPath, env)})`;
}
