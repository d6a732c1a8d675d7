import type { Command } from "commander";
import { renderHandoffJson, renderHandoffMarkdown, renderHandoffYaml, type Handoff } from "@hatloop/context";
import { redactValue } from "@hatloop/core";
import { CliError } from "../errors.js";
import { shortId } from "../format.js";
import { resolveSession, withStore } from "../runtime.js";
import { findHandoff, withOpenQuestion } from "../session/handoff.js";
import { printJsonText, printText } from "../output/print.js";

const RENDERERS = { md: renderHandoffMarkdown, json: renderHandoffJson, yaml: renderHandoffYaml } as const;

export async function handoffAction(
  id: string,
  flags: { format: keyof typeof RENDERERS; checkpoint?: number },
  command: Command,
): Promise<void> {
  await withStore(command, async (store) => {
    const session = await resolveSession(store, id);
    const found = await findHandoff(store, session.id, flags.checkpoint);
    if (!found) {
      const which = flags.checkpoint
        ? `checkpoint #${flags.checkpoint} of session ${shortId(session.id)} has no handoff`
        : `session ${shortId(session.id)} has no handoff yet`;
      throw new CliError(which);
    }
    const text = RENDERERS[flags.format](redactValue(withOpenQuestion(found.handoff, session)) as Handoff);
    if (flags.format === "json") printJsonText(text);
    else printText(text.replace(/\n$/, ""));
  });
}
