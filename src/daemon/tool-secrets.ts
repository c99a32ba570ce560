// The tools' environment and the secrets to redact, from the config and the
// daemon's environment (docs/security.md "Secrets"). A tool gets the daemon's
// variables minus every one a `${VAR}` in the config references and every
// well-known credential variable, unless `[system.tools] env_passthrough`
// names it; every configured secret value is listed for redaction.
import { secretList } from "../runtime/redact-output.ts";
import { expandVars, type Env } from "../config/expand.ts";
import { PROVIDER_SECRET_KEYS } from "../config/redact.ts";

const REFERENCE = /\$\{([^{}]+)\}/g;

/** Names that hold credentials by convention. */
const CREDENTIAL_NAME = /(^|_)(API_?KEY|TOKEN|SECRET|SECRET_KEY|ACCESS_KEY|ACCESS_KEY_ID|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY|AUTH)$/i;
const CREDENTIAL_NAMES = new Set(["AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_ACCESS_KEY_ID", "SSH_AUTH_SOCK", "GPG_AGENT_INFO", "NETRC"]);

/** Plain facts about the machine a config may reference (`${HOME}/models`): never secrets. */
const NOT_SECRET = new Set(["HOME", "USER", "LOGNAME", "PATH", "SHELL", "PWD", "TMPDIR", "LANG", "TERM", "CRABTALK_HOME"]);

export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAMES.has(name.toUpperCase()) || CREDENTIAL_NAME.test(name);
}

export interface ToolSecrets {
  env: Record<string, string>;
  secrets: string[];
}

/**
 * `documents` are the raw (unexpanded) config and manifest documents;
 * `passthrough` is `[system.tools] env_passthrough`.
 */
export function toolSecrets(documents: readonly unknown[], env: Env, passthrough: readonly string[]): ToolSecrets {
  const referenced = new Set<string>();
  const configured: string[] = [];
  for (const doc of documents) collect(doc, false, referenced, configured);
  const keep = new Set(passthrough);
  const toolEnv: Record<string, string> = {};
  const removedValues: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const secret = !keep.has(name) && !NOT_SECRET.has(name) && (referenced.has(name) || isCredentialName(name));
    if (secret) removedValues.push(value);
    else toolEnv[name] = value;
  }
  const expanded = configured.map((v) => expandVars(v, env));
  return { env: toolEnv, secrets: secretList([...expanded, ...removedValues]) };
}

const SECRET_KEYS = new Set<string>(PROVIDER_SECRET_KEYS);

/** Walks a document: every `${NAME}` anywhere, and the values at secret keys or in `env` tables. */
function collect(value: unknown, secret: boolean, referenced: Set<string>, configured: string[]): void {
  if (typeof value === "string") {
    for (const m of value.matchAll(REFERENCE)) if (!NOT_SECRET.has(m[1]!)) referenced.add(m[1]!);
    if (secret) configured.push(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collect(v, secret, referenced, configured);
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const [k, v] of Object.entries(value)) {
    collect(v, secret || SECRET_KEYS.has(k) || k === "env", referenced, configured);
  }
}
