import picomatch from "picomatch";

/**
 * Matches a worktree-relative posix path with picomatch: `**` spans directories, `*` and `?` stay
 * within one segment, `{a,b}` alternates, `[ab]` and `[!ab]` are character classes (posix), and dot
 * files match like any other (the agent asks for `*.env` meaning `.env` too). A pattern without "/"
 * matches the file name at any depth (`*.ts`), as in .gitignore; a pattern with "/" the whole path.
 */
export function createGlobMatcher(glob: string): (relativePath: string) => boolean {
  const pattern = glob.replace(/^\.\//, "");
  const matches = picomatch(pattern, { dot: true, posix: true, windows: false, basename: !pattern.includes("/") });
  // One argument only: picomatch's second (returnObject) would make a filter's index return an object.
  return (relativePath) => matches(relativePath);
}
