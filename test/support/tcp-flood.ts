// Run as another OS user (test/daemon/tcp-peers.test.ts, bench/refused-flood.ts):
// floods the loopback TCP port in argv[2] with connects for at most argv[3]
// seconds and argv[4] connects in all, argv[5] open at once. Each connect
// sends a Ping and waits for the daemon to hang up (or gives up after
// argv[6] ms, default 1000). Prints one JSON line of counts; `answered`
// counts connections the daemon replied on (none, when it refuses them all).
import { CLIENT, frame, lenField } from "./raw-proto.ts";

const [port, seconds, maxConnects, concurrency, patienceMs = 1000] = process.argv.slice(2).map(Number);
const PING = frame(lenField(CLIENT.ping, []));
const deadline = performance.now() + seconds! * 1000;
// refused: hung up on, or reset before the connect was even reported open.
const counts = { connects: 0, refused: 0, failed: 0, timed_out: 0, answered: 0 };

function one(): Promise<void> {
  counts.connects++;
  return new Promise<void>((done) => {
    let settled = false;
    const settle = (outcome: "refused" | "failed" | "timed_out") => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      counts[outcome]++;
      done();
    };
    const timer = setTimeout(() => {
      settle("timed_out");
      void socket.then(
        (s) => s.terminate(),
        () => {},
      );
    }, patienceMs);
    const socket = Bun.connect({
      hostname: "127.0.0.1",
      port: port!,
      socket: {
        open: (s) => void s.write(PING),
        data: () => void counts.answered++,
        close: () => settle("refused"),
        error: () => settle("refused"),
        connectError: (_s, err) => settle((err as { code?: string }).code === "ECONNRESET" ? "refused" : "failed"),
      },
    });
    socket.catch(() => settle("failed"));
  });
}

async function worker(): Promise<void> {
  while (performance.now() < deadline && counts.connects < maxConnects!) await one();
}

await Promise.all(Array.from({ length: concurrency! }, worker));
console.log(JSON.stringify(counts));
process.exit(0);
