// The console's shell: logs in (token or pairing link), then shows one view at
// a time under a navigation bar. The event subscription lives here so the live
// view and the running/idle marks keep up whatever view is open.
import { useEffect, useMemo, useState } from "preact/hooks";
import { logOut, pair, pairingCode, whoAmI, type Me } from "./api.ts";
import { Requests, subscribeEvents } from "./connection.ts";
import { useEventLog } from "./event-log.ts";
import { ChatView } from "./views/chat.tsx";
import { ConversationView } from "./views/conversation.tsx";
import { EventsView } from "./views/events.tsx";
import { LoginView } from "./views/login.tsx";
import { SessionsView } from "./views/sessions.tsx";
import { SystemView } from "./views/system.tsx";
import { UsageView } from "./views/usage.tsx";

export type View =
  | { name: "sessions" }
  | { name: "conversation"; filePath: string }
  | { name: "chat"; resumeFile?: string }
  | { name: "events" }
  | { name: "usage" }
  | { name: "system" };

const TABS: { name: View["name"]; label: string }[] = [
  { name: "sessions", label: "Sessions" },
  { name: "chat", label: "Chat" },
  { name: "events", label: "Live" },
  { name: "usage", label: "Usage" },
  { name: "system", label: "System" },
];

type Auth = { state: "checking" } | { state: "out"; notice?: string } | { state: "in"; me: Me; notice?: string };

export function App() {
  const [auth, setAuth] = useState<Auth>({ state: "checking" });

  useEffect(() => {
    /** Pairs with the link's code, if the address has one; else asks who the cookie is. */
    const arrive = async (pairingOnly: boolean) => {
      const code = pairingCode(location.hash);
      if (code !== undefined) {
        // The code leaves the address bar (and so the history) before anything else is done with it.
        history.replaceState(null, "", location.pathname + location.search);
        const paired = await pair(code);
        if ("me" in paired) return setAuth({ state: "in", me: paired.me, notice: `This device is paired as "${paired.me.name}" (${paired.me.scope}).` });
        const me = await whoAmI();
        return setAuth(me ? { state: "in", me, notice: paired.error } : { state: "out", notice: paired.error });
      }
      if (pairingOnly) return;
      const me = await whoAmI().catch(() => undefined);
      setAuth(me ? { state: "in", me } : { state: "out" });
    };
    void arrive(false);
    // A pairing link opened in a tab already on the console changes only the fragment: no page load.
    const onHash = () => void arrive(true);
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);

  if (auth.state === "checking") return <p class="boot">Checking your login…</p>;
  if (auth.state === "out") {
    return <LoginView notice={auth.notice} onLoggedIn={(me) => setAuth({ state: "in", me })} />;
  }
  return <Console me={auth.me} notice={auth.notice} onLoggedOut={(notice) => setAuth({ state: "out", notice })} />;
}

function Console({ me, notice, onLoggedOut }: { me: Me; notice?: string; onLoggedOut: (notice?: string) => void }) {
  const [view, setView] = useState<View>({ name: "sessions" });
  const requests = useMemo(() => new Requests(), []);
  const log = useEventLog();
  const [live, setLive] = useState(false);
  const [shownNotice, setShownNotice] = useState(notice);

  useEffect(() => {
    // Once this console is gone (logged out here), an answer still on its way
    // must not end a login again: it would put its notice over a newer one.
    let mounted = true;
    const subscription = subscribeEvents(log.add, (isLive) => {
      setLive(isLive);
      // A connection refused for good (token revoked or expired, logged out elsewhere) ends the login.
      if (!isLive)
        void whoAmI().then(
          (who) => mounted && who === undefined && onLoggedOut("Your login ended: log in again."),
          () => undefined,
        );
    });
    return () => {
      mounted = false;
      subscription.stop();
      requests.close();
    };
  }, []);

  const logout = async () => {
    await logOut();
    onLoggedOut();
  };

  const current = view.name === "conversation" ? "sessions" : view.name;
  return (
    <div class="console">
      <header>
        <h1>crabtalk</h1>
        <span class={live ? "live on" : "live"} role="status" title={live ? "receiving live events" : "not connected: reconnecting"}>
          {live ? "● live" : "○ offline"}
        </span>
        <span class="who" title={`token "${me.name}", scope ${me.scope}`}>
          {me.name} · {me.scope}
        </span>
        <button type="button" onClick={logout}>
          Log out
        </button>
      </header>
      <nav aria-label="views">
        {TABS.map((tab) => (
          <button type="button" key={tab.name} aria-current={current === tab.name ? "page" : undefined} onClick={() => setView({ name: tab.name } as View)}>
            {tab.label}
          </button>
        ))}
      </nav>
      {shownNotice && (
        <p class="notice" role="status">
          {shownNotice}{" "}
          <button type="button" class="link" onClick={() => setShownNotice(undefined)}>
            Dismiss
          </button>
        </p>
      )}
      <main>
        {view.name === "sessions" && (
          <SessionsView requests={requests} running={log.running} onOpen={(filePath) => setView({ name: "conversation", filePath })} />
        )}
        {view.name === "conversation" && (
          <ConversationView
            requests={requests}
            me={me}
            filePath={view.filePath}
            onBack={() => setView({ name: "sessions" })}
            onContinue={() => setView({ name: "chat", resumeFile: view.filePath })}
          />
        )}
        {/* The chat stays mounted while other views show, so a run streaming in it goes on. */}
        <div hidden={view.name !== "chat"}>
          <ChatView requests={requests} me={me} resumeFile={view.name === "chat" ? view.resumeFile : undefined} />
        </div>
        {view.name === "events" && <EventsView entries={log.entries} />}
        {view.name === "usage" && <UsageView requests={requests} />}
        {view.name === "system" && <SystemView requests={requests} />}
      </main>
    </div>
  );
}
