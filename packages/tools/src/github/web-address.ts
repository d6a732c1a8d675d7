// A remote's web address and GitHub's compare page for a branch, to open a pull request by hand
// when gh cannot. Remotes that are paths or file:// URLs have no web address.

/** https://host/owner/repo for https, ssh and scp-style (git@host:owner/repo.git) remotes; credentials dropped. */
export function webAddressOf(remote: string): string | null {
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+?)(?:\.git)?\/?$/.exec(remote);
  if (scp && !/^[a-z]+:\/\//i.test(remote)) return `https://${scp[1]}/${scp[2]}`;
  let url: URL;
  try {
    url = new URL(remote);
  } catch {
    return null;
  }
  if (!["https:", "http:", "ssh:", "git:"].includes(url.protocol)) return null;
  const path = url.pathname.replace(/\.git\/?$/, "").replace(/\/+$/, "");
  if (!path || path === "/") return null;
  // An ssh port is not the web server's; an https one is.
  const web = url.protocol === "http:" || url.protocol === "https:";
  return `${url.protocol === "http:" ? "http" : "https"}://${web ? url.host : url.hostname}${path}`;
}

/** GitHub's "open a pull request" page for `head` (against `base`, else the default branch). */
export function compareUrlOf(web: string, head: string, base: string | null): string {
  const ref = (name: string) => name.replace(/[^A-Za-z0-9._/-]/g, encodeURIComponent);
  return `${web}/compare/${base ? `${ref(base)}...` : ""}${ref(head)}?expand=1`;
}
