// Operations 160–164 (docs/protocol.md "Remote access"): tokens, the listener's
// state, pairing links. Over the remote listener they need scope admin (scopes.ts).
import type { Handlers } from "../protocol/server.ts";
import { conflict, unavailable } from "../protocol/errors.ts";
import type { RemoteAccess } from "./remote-access.ts";
import type { TokenRecord } from "./token-store.ts";
import { checkScope, checkTokenName } from "./token-names.ts";

export function remoteHandlers(remote: RemoteAccess): Handlers {
  return {
    createToken: ({ name, scope, expiresInSecs }) => {
      const checked = checkScope(scope);
      checkTokenName(name);
      if (remote.pairing.reserves(name)) throw conflict(`the name '${name}' is reserved by a pending pairing link`);
      const { record, token } = remote.tokens.create(name, checked, Number(expiresInSecs));
      remote.log.info("remote token created", { name, scope: checked });
      return { case: "tokenCreated", value: { info: tokenInfo(record), token } };
    },
    listTokens: () => ({ case: "tokenList", value: { tokens: remote.tokens.list().map(tokenInfo) } }),
    revokeToken: ({ name }) => {
      remote.revoke(name);
      return { case: "pong", value: {} };
    },
    getRemoteStatus: () => ({ case: "remoteStatus", value: remote.status() }),
    createPairing: ({ name, scope }) => {
      const checked = checkScope(scope, "operate");
      checkTokenName(name);
      if (remote.tokens.get(name) || remote.pairing.reserves(name)) throw conflict(`a token named '${name}' exists or is being paired`);
      const url = remote.consoleUrl();
      if (!url) throw unavailable("the remote listener is off: turn it on first ([system.remote] enabled = true, docs/remote.md)");
      const { code, expiresMs } = remote.pairing.create(name, checked);
      remote.log.info("pairing link created", { name, scope: checked });
      return { case: "pairingCreated", value: { url: `${url}#pair=${code}`, expiresMs: BigInt(expiresMs), name, scope: checked } };
    },
  };
}

export function tokenInfo(t: TokenRecord) {
  return {
    name: t.name,
    scope: t.scope,
    createdMs: BigInt(t.created_ms),
    lastUsedMs: BigInt(t.last_used_ms),
    expiresMs: BigInt(t.expires_ms),
  };
}
