// Approve rules (docs/approvals.md): `tool` or `tool:pattern`. A call needs
// the user's yes when a rule's tool part matches its name and, when there is
// a pattern, the pattern matches the call's main argument — the command for
// bash, the arguments as compact JSON for any other tool. Both parts are
// globs over the whole string: `*` any run of characters (spaces, slashes
// and newlines included), `?` one character, everything else literal.

/** What a rule is matched against: a tool call's name and its arguments as JSON text. */
export interface RuleCall {
  name: string;
  arguments: string;
}

export interface ParsedRule {
  tool: string;
  pattern?: string;
}

/** Splits at the first `:`; undefined plus a reason for a malformed rule. */
export function parseRule(rule: string): ParsedRule | string {
  const colon = rule.indexOf(":");
  const tool = colon < 0 ? rule : rule.slice(0, colon);
  if (tool === "") return 'must start with a tool name (e.g. "bash" or "bash:rm *")';
  if (/\s/.test(tool)) return "the tool name must not contain whitespace";
  if (colon < 0) return { tool };
  const pattern = rule.slice(colon + 1);
  if (pattern === "") return "has an empty pattern after ':' (write just the tool name to match every call)";
  return { tool, pattern };
}

/** What a pattern is matched against: bash's command, else the arguments re-serialised compactly. */
export function mainArgument(call: RuleCall): string {
  let parsed: unknown;
  try {
    parsed = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    return call.arguments.trim();
  }
  if (call.name === "bash" && parsed && typeof parsed === "object" && typeof (parsed as { command?: unknown }).command === "string") {
    return (parsed as { command: string }).command.trim();
  }
  return JSON.stringify(parsed);
}

/** The rules (of those given) that a call matches. Malformed rules match nothing (config validation rejects them). */
export function matchingRules(rules: readonly string[], call: RuleCall): string[] {
  let argument: string | undefined;
  return rules.filter((rule) => {
    const parsed = parseRule(rule);
    if (typeof parsed === "string" || !globMatches(parsed.tool, call.name)) return false;
    if (parsed.pattern === undefined) return true;
    argument ??= mainArgument(call);
    return globMatches(parsed.pattern, argument);
  });
}

/**
 * Whole-string glob match in O(pattern × text) steps: the classic wildcard
 * walk that backtracks only to the last `*` (a regular expression could take
 * exponential time on a hostile model's long command).
 */
export function globMatches(glob: string, text: string): boolean {
  const p = [...glob];
  const t = [...text];
  let pi = 0;
  let ti = 0;
  let star = -1;
  let resume = 0;
  while (ti < t.length) {
    if (pi < p.length && (p[pi] === "?" || (p[pi] !== "*" && p[pi] === t[ti]))) {
      pi++;
      ti++;
    } else if (pi < p.length && p[pi] === "*") {
      star = pi++;
      resume = ti;
    } else if (star >= 0) {
      pi = star + 1;
      ti = ++resume;
    } else {
      return false;
    }
  }
  while (pi < p.length && p[pi] === "*") pi++;
  return pi === p.length;
}
