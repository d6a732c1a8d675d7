import { useRef } from "react";
import { clampTop, type DetailView } from "../components/detail-lines.js";
import type { DetailRef, EntryDetail } from "../state/types.js";

/** Reads an entry's whole content from the session's stored messages (the CLI's store; the TUI has no database). */
export type DetailLoader = (ref: DetailRef) => Promise<string>;

/**
 * The open entry, if any: shown at once with what its event carried, then replaced by the stored
 * content when `load` brings it. A load that finishes after the view was closed (or another entry
 * opened) is dropped.
 */
export function useDetail(load: DetailLoader | undefined, rerender: () => void) {
  const view = useRef<DetailView | null>(null);
  const opened = useRef(0);
  const set = (next: DetailView | null) => {
    view.current = next;
    rerender();
  };
  const open = (detail: EntryDetail) => {
    const id = ++opened.current;
    const ref = load ? detail.ref : undefined;
    set({ title: detail.title, text: detail.body, note: ref ? "loading the whole content from the store…" : null, top: 0 });
    if (!ref || !load) return;
    const settle = (change: Partial<DetailView>) => {
      if (opened.current === id && view.current) set({ ...view.current, ...change });
    };
    load(ref).then(
      (text) => settle({ text, note: null }),
      (error: unknown) =>
        settle({ note: `the stored content could not be read (${error instanceof Error ? error.message : String(error)})` }),
    );
  };
  const close = () => {
    opened.current++;
    set(null);
  };
  /** A key while open: ↑↓ PgUp PgDn Home End scroll (within the content, `width` x `height`), Esc or q closes; false once closed. */
  const keyPress = (input: string, key: ScrollKeys, width: number, height: number): boolean => {
    const current = view.current;
    if (!current || key.escape || input === "q") {
      close();
      return false;
    }
    const page = Math.max(1, height - 2);
    const top = clampTop(current, width, height);
    const next = key.upArrow
      ? top - 1
      : key.downArrow
        ? top + 1
        : key.pageUp
          ? top - page
          : key.pageDown
            ? top + page
            : key.home
              ? 0
              : null;
    if (next !== null || key.end) set({ ...current, top: clampTop({ ...current, top: next ?? Number.MAX_SAFE_INTEGER }, width, height) });
    return true;
  };
  return { view, open, keyPress };
}

interface ScrollKeys {
  escape: boolean;
  upArrow: boolean;
  downArrow: boolean;
  pageUp: boolean;
  pageDown: boolean;
  home: boolean;
  end: boolean;
}
