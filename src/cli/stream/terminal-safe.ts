// Text that came from a model, a tool, a provider or an MCP server, shown on
// a terminal: its control characters are shown, not obeyed. Raw, a model's
// answer could set the window title, clear the screen, move the cursor to
// write over what is shown, or (OSC 52) put text on the user's clipboard.
// A pipe still gets the bytes as they came (docs/security.md#what-reaches-your-terminal).
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `text` with its control characters written as `\u001b` (newlines and tabs kept, carriage returns dropped). */
export function terminalSafe(text: string): string {
  return text.replace(CONTROLS, (c) => (c === "\r" ? "" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
}

/** `text` as stdout may show it: escaped at a terminal, as it came in a pipe. */
export function forStdout(text: string): string {
  return process.stdout.isTTY ? terminalSafe(text) : text;
}
