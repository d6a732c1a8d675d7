import type { ActionResult, ConsoleAction } from "@hatloop/console";
import type { HatloopConfig } from "@hatloop/core";
import type { DbStore } from "@hatloop/db";

// What the console's buttons do, through the same code as the commands that do it in a terminal.

export function consoleActions(store: DbStore, config: HatloopConfig): (action: ConsoleAction) => Promise<ActionResult> {
  void store;
  void config;
  return async (action) => ({ ok: false, message: `${action.kind} is not wired yet` });
}
