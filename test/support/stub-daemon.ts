// A stand-in daemon for client tests: the real framing and dispatch on a
// temp home's socket, with handlers the test writes. For client behaviour the
// real daemon cannot be made to show on demand (e.g. an ask_user frame).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { serveConnection } from "../../src/protocol/serve.ts";
import type { Handlers } from "../../src/protocol/server.ts";
import { listenUnix } from "../../src/transport/listen.ts";
import { tempHome } from "./daemon.ts";

export interface StubDaemon {
  home: string;
  stop(): void;
}

export function startStubDaemon(handlers: Handlers): StubDaemon {
  const home = tempHome("crabtalk-stub-");
  mkdirSync(join(home, "run"), { recursive: true });
  const shutdown = new AbortController();
  const listener = listenUnix(join(home, "run/crabtalk.sock"), (conn) => {
    void serveConnection(conn, { handlers: { ping: () => ({ case: "pong", value: {} }), ...handlers }, shutdown: shutdown.signal }).finally(() => conn.close());
  });
  return {
    home,
    stop() {
      shutdown.abort();
      listener.stop();
    },
  };
}
