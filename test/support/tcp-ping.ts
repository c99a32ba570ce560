// Run as any OS user: one Ping over loopback TCP to the port in argv[2].
// Prints "pong" when answered, "closed" when the daemon hangs up first.
import { CLIENT, RawConnection, SERVER, frame, lenField, serverVariant } from "./raw-proto.ts";

const conn = await RawConnection.open({ port: Number(process.argv[2]) });
conn.write(frame(lenField(CLIENT.ping, [])));
const reply = await conn.readFrame(10_000);
console.log(reply === null ? "closed" : serverVariant(reply).tag === SERVER.pong ? "pong" : "other");
conn.destroy();
process.exit(0); // readFrame leaves a timer behind
