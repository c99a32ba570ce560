// `--scope`: what a remote client's token may do (docs/remote.md, tokens and scopes).
import { InvalidArgumentError } from "commander";

export const SCOPES = ["read", "operate", "admin"] as const;

export function parseScope(value: string): string {
  const scope = value.trim();
  if (!(SCOPES as readonly string[]).includes(scope)) throw new InvalidArgumentError(`a scope is read, operate or admin, not '${value}'`);
  return scope;
}
