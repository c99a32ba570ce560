// Names a package may give its agents and MCP servers (docs/packages.md "What
// a package adds"): they become file names (agents/<name>.md,
// tokens/<name>.json) and CLI arguments, so plain words only. Others (`../x`,
// `a/b`, spaces, control characters) are skipped with a warning that says so.

const PACKAGE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Why `name` of `kind` ("agent", "MCP server") from package `source` is skipped, or undefined when it is usable. */
export function unusableName(kind: string, name: string, source: string): string | undefined {
  if (PACKAGE_NAME.test(name)) return undefined;
  // Quoted as JSON: a control character in a name must not reach a terminal.
  const shown = JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
  return `${kind} ${shown} from ${source} skipped: a package's ${kind} names are 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit`;
}
