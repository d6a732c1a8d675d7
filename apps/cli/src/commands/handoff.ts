import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { renderHandoffJson, renderHandoffMarkdown, renderHandoffYaml, type Handoff } from "@hatloop/context";
import { redactValue } from "@hatloop/core";
import { CliError } from "../errors.js";
import { shortId } from "../format.js";
import { positiveInt } from "../options.js";
import { resolveSession, withStore } from "../runtime.js";
import { findHandoff, withOpenQuestion } from "../session/handoff.js";
import { printJsonText, printText } from "../output/print.js";

const RENDERERS = { md: renderHandoffMarkdown, json: renderHandoffJson, yaml: renderHandoffYaml } as const;

export function registerHandoff(program: Command): void {
  program
    .command("handoff")
    .description("print a session's handoff: task, branch, progress, decisions, next step")
    .argument("<session>", "session id or a unique prefix of it")
    .option("--format <format>", "md, json or yaml", formatOption, "md")
    .option("--checkpoint <n>", "the handoff of checkpoint N instead of the latest", positiveInt)
    .action(async (id: string, flags: { format: keyof typeof RENDERERS; checkpoint?: number }, command: Command) => {
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
    });
}

function formatOption(value: string): keyof typeof RENDERERS {
  if (value in RENDERERS) return value as keyof typeof RENDERERS;
  throw new InvalidArgumentError("expected md, json or yaml");
}
