// What `crabtalk acp` says goes to stderr (editors keep it in their logs);
// stdout carries JSON-RPC only.
export function note(line: string): void {
  process.stderr.write(`crabtalk acp: ${line}\n`);
}
