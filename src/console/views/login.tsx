// Logging in with a token (docs/remote.md, "Tokens and scopes"): the token is
// posted once to /login, which answers with an HttpOnly cookie; the page keeps nothing.
import { useState } from "preact/hooks";
import { logIn, whoAmI, type Me } from "../api.ts";
import { ErrorLine } from "./view-parts.tsx";

export function LoginView({ notice, onLoggedIn }: { notice?: string; onLoggedIn: (me: Me) => void }) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!token.trim()) return setError("Paste a token first (crabtalk tokens create NAME).");
    setBusy(true);
    setError(undefined);
    try {
      const refused = await logIn(token.trim());
      if (refused) return setError(refused);
      setToken("");
      const me = await whoAmI();
      if (me) onLoggedIn(me);
      else setError("Logged in, but the daemon does not know this browser: are cookies blocked?");
    } catch (err) {
      setError(`Cannot reach the daemon: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="login">
      <h1>crabtalk</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={submit}>
        <label for="token">Token</label>
        <input
          id="token"
          type="password"
          autocomplete="off"
          spellcheck={false}
          placeholder="ct_…"
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
          aria-describedby="token-help"
        />
        <p id="token-help" class="help">
          Make one with <code>crabtalk tokens create NAME --scope operate</code>, or open a link from <code>crabtalk remote pair</code>.
        </p>
        <ErrorLine error={error} />
        <button type="submit" disabled={busy}>
          {busy ? "Logging in…" : "Log in"}
        </button>
      </form>
    </main>
  );
}
