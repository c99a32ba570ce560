// Keeping secrets out of what is shown: the config's redaction and the hub's
// messages both hide the credentials a repository URL may carry.

/** A URL with its credentials (`https://user:token@host`) shown as `<redacted>`: for messages and logs. */
export function withoutCredentials(text: string): string {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/@\s]+@/g, "$1<redacted>@");
}
