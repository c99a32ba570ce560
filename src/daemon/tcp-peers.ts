// Who may talk to the daemon over loopback TCP: only its own OS user. On Linux
// the peer's uid is asked of the kernel (src/transport/peer-uid.ts); where it cannot be looked up,
// TCP stays off unless `[system.tcp] enabled = true` says otherwise.
import { canLookUpPeers, PeerUids, type TcpPair } from "../transport/peer-uid.ts";
import type { TcpAdmission } from "../transport/listen.ts";
import type { TcpConfig } from "../config/schema.ts";
import type { Logger } from "./log.ts";

export interface TcpPolicy {
  /** False: no TCP listener at all. */
  listen: boolean;
  admit: TcpAdmission;
  /** Said once at start when TCP is open to every local user, or off. */
  warning?: string;
}

export function tcpPolicy(config: TcpConfig, log: Logger, checkable = canLookUpPeers()): TcpPolicy {
  const owner = process.getuid?.();
  if (checkable && owner !== undefined) {
    const peers = new PeerUids();
    // A flood of refused connections writes one line a second, counting the rest.
    let lastLogged = 0;
    let unlogged = 0;
    const verdict = (pair: TcpPair, uid: number | undefined): boolean => {
      if (uid === owner) return true;
      const now = Date.now();
      if (now - lastLogged < 1000) {
        unlogged++;
        return false;
      }
      const fields = { peer: `${pair.remoteAddress}:${pair.remotePort}`, uid: uid ?? "unknown" };
      log.warn("refused a TCP connection from another OS user", unlogged > 0 ? { ...fields, also_refused: unlogged } : fields);
      lastLogged = now;
      unlogged = 0;
      return false;
    };
    return {
      listen: config.enabled !== false,
      // Synchronous when the kernel answers at once: a refusal then costs no promise.
      admit: (pair) => {
        const uid = peers.uidOf(pair);
        return uid instanceof Promise ? uid.then((u) => verdict(pair, u)) : verdict(pair, uid);
      },
    };
  }
  if (config.enabled === true) {
    return {
      listen: true,
      admit: () => true,
      warning: "TCP is on ([system.tcp] enabled = true) but this OS cannot tell who connects: every local user can use this daemon",
    };
  }
  return {
    listen: false,
    admit: () => false,
    warning: "TCP is off: this OS cannot tell who connects over TCP (set [system.tcp] enabled = true to accept any local user)",
  };
}
