// Run as any OS user: Pings over loopback TCP to the port in argv[2], on
// argv[3] connections one after another (default 1), from the local port in
// argv[4] when given (each connection reset when done, so the port is free
// again at once). Prints one word per
// connection: "pong" when answered, "closed" when the daemon hangs up first
// (or resets the connection before it is even reported open).
import { CLIENT, RawConnection, SERVER, frame, lenField, serverVariant } from "./raw-proto.ts";

const outcomes: string[] = [];
for (let i = 0; i < Number(process.argv[3] ?? 1); i++) {
  const localPort = process.argv[4] ? Number(process.argv[4]) : undefined;
  const conn = await RawConnection.open({ port: Number(process.argv[2]), localPort }).catch((err: unknown) => {
    // A port still held is a failed test setup, not a refusal.
    if ((err as { code?: string }).code === "EADDRINUSE") throw err;
    return null;
  });
  if (conn === null) {
    outcomes.push("closed");
    continue;
  }
  conn.write(frame(lenField(CLIENT.ping, [])));
  const reply = await conn.readFrame(10_000);
  outcomes.push(reply === null ? "closed" : serverVariant(reply).tag === SERVER.pong ? "pong" : "other");
  if (localPort) conn.reset();
  else conn.destroy();
}
console.log(outcomes.join(" "));
process.exit(0); // readFrame leaves a timer behind
