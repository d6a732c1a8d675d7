// Many paths in few tokens, for the resume packet: files are grouped by directory, one line per
// directory, "src/auth/: login.ts, token.ts (new)"; a directory holding a single file is folded into
// its parent ("src/: auth/login.ts, api/user.ts"), so deep one-file directories share a prefix too.
// A long session touches hundreds of files; named this way every one is still named, for much less.
// expandPathTree reads the lines back (the benchmark's scorer and the tests use it).

const SEPARATOR = ": ";

/** One line per directory, directories in order of first appearance, names as given (with notes). */
export function pathTree(paths: readonly string[]): string[] {
  let byDir = new Map<string, string[]>();
  for (const path of paths) add(byDir, split(path));
  // Fold one-file directories into their parents until none is left to fold.
  for (let folded = true; folded;) {
    folded = false;
    const next = new Map<string, string[]>();
    for (const [dir, names] of byDir) {
      if (names.length === 1 && !isRoot(dir)) {
        const up = split(dir);
        add(next, { dir: up.dir, name: `${up.name}/${names[0]}` });
        folded = true;
      } else for (const name of names) add(next, { dir, name });
    }
    byDir = next;
    if ([...byDir.values()].every((names) => names.length > 1 || byDir.size === 1)) break;
  }
  return [...byDir].map(([dir, names]) => (dir === "" ? names.join(", ") : `${dir === "/" ? "" : dir}/${SEPARATOR}${names.join(", ")}`));
}

/** "" holds relative paths at the top, "/" absolute ones: neither folds further. */
function isRoot(dir: string): boolean {
  return dir === "" || dir === "/";
}

function add(byDir: Map<string, string[]>, { dir, name }: { dir: string; name: string }): void {
  const names = byDir.get(dir) ?? byDir.set(dir, []).get(dir)!;
  if (!names.includes(name)) names.push(name);
}

/** The paths named by pathTree's lines (notes such as " (new)" dropped). */
export function expandPathTree(lines: readonly string[]): string[] {
  return lines.flatMap((line) => {
    const text = line.replace(/^\s*-\s*/, "");
    const at = text.indexOf(`/${SEPARATOR}`);
    const dir = at === -1 ? "" : text.slice(0, at + 1);
    const names = (at === -1 ? text : text.slice(at + 1 + SEPARATOR.length)).split(", ");
    return names.map((n) => `${dir}${n.replace(/ \((new|deleted)\)$/, "").trim()}`).filter((p) => p !== dir);
  });
}

function split(path: string): { dir: string; name: string } {
  // A note after the path ("a/b.ts (new)") stays with the name.
  const note = / \((new|deleted)\)$/.exec(path)?.[0] ?? "";
  const bare = note ? path.slice(0, -note.length) : path;
  const slash = bare.lastIndexOf("/");
  if (slash === -1) return { dir: "", name: `${bare}${note}` };
  // An absolute path keeps its leading "/": the top of the tree is "/", not "".
  return { dir: slash === 0 ? "/" : bare.slice(0, slash), name: `${bare.slice(slash + 1)}${note}` };
}
