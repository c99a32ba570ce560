// What a token's scope lets the console offer (docs/remote.md, "Tokens and
// scopes"): a read token sees everything but starts, answers or stops nothing.
import type { Me } from "./api.ts";

/** Why an operation needing `operate` is not offered, or undefined when it is. */
export function cannotOperate(me: Me): string | undefined {
  if (me.scope === "operate" || me.scope === "admin") return undefined;
  return `Needs a token of scope operate: "${me.name}" is a read token`;
}
