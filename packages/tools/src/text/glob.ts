// A small glob matcher (Node 20 has no stable path.matchesGlob): `**` spans directories,
// `*` and `?` stay within one segment, `{a,b}` alternates, `[...]` is a character class.

export function globToRegExp(glob: string): RegExp {
  let out = "";
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slashAfter = glob[i + 2] === "/";
        i += slashAfter ? 2 : 1;
        // "**/" matches zero or more whole directories; a trailing "**" matches everything.
        out += slashAfter ? "(?:.*/)?" : ".*";
      } else {
        out += "[^/]*";
      }
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "{") {
      braceDepth++;
      out += "(?:";
    } else if (c === "}" && braceDepth > 0) {
      braceDepth--;
      out += ")";
    } else if (c === "," && braceDepth > 0) {
      out += "|";
    } else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end === -1) {
        out += "\\[";
      } else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        out += `[${body}]`;
        i = end;
      }
    } else {
      out += c.replace(/[.+^$()|\\/]/g, "\\$&");
    }
  }
  return new RegExp(`^${out}$`);
}

/**
 * Matches a worktree-relative posix path. A pattern without "/" matches the file name at any
 * depth (`*.ts`), as in .gitignore; a pattern with "/" matches the whole path.
 */
export function createGlobMatcher(glob: string): (relativePath: string) => boolean {
  const pattern = glob.replace(/^\.\//, "");
  const regex = globToRegExp(pattern);
  if (pattern.includes("/")) return (p) => regex.test(p);
  return (p) => regex.test(p.slice(p.lastIndexOf("/") + 1));
}
