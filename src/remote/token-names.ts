// What a remote token may be called and which scopes exist (docs/remote.md#tokens-and-scopes).
import { badRequest } from "../protocol/errors.ts";

export const SCOPES = ["read", "operate", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A short name of letters, digits, `.`, `_` and `-`: it shows in lists and logs. 400 otherwise. */
export function checkTokenName(name: string): string {
  if (!NAME.test(name)) {
    throw badRequest(`bad token name '${name.slice(0, 80)}': 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit`);
  }
  return name;
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The scope named, `fallback` for ""; 400 for anything else. */
export function checkScope(value: string, fallback?: Scope): Scope {
  if (value === "" && fallback) return fallback;
  if (!isScope(value)) throw badRequest(`bad scope '${value.slice(0, 80)}': one of ${SCOPES.join(", ")}`);
  return value;
}

/** Scopes in order: each allows what the one before it does. */
export function scopeAllows(held: Scope, needed: Scope): boolean {
  return SCOPES.indexOf(held) >= SCOPES.indexOf(needed);
}
