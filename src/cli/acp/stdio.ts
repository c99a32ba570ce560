// The ACP transport of `crabtalk acp`: newline-delimited JSON-RPC on the
// process's stdin and stdout (docs/editors.md). stdout belongs to the
// protocol alone, so anything that would print there goes to stderr instead.
import { ndJsonStream, type Stream } from "@agentclientprotocol/sdk";
import { Readable } from "node:stream";

/** Sends console.log/info/debug to stderr: one stray line on stdout would break the editor's JSON-RPC. */
export function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

export function stdioStream(): Stream {
  const output = new WritableStream<Uint8Array>({
    write: (chunk) =>
      new Promise<void>((resolve, reject) => {
        process.stdout.write(chunk, (err) => (err ? reject(err) : resolve()));
      }),
  });
  const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  return ndJsonStream(output, input);
}
