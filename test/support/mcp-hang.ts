// A stdio "MCP server" that reads its input and never answers, not even
// `initialize`: what a hung server looks like to the daemon.
process.stdin.resume();
setInterval(() => {}, 1 << 30);
