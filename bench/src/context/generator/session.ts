import { MARKERS, type ContentBlock, type Message } from "@hatloop/context";
import { createRng, type Rng } from "../../util/rng.js";
import { SCENARIOS, type Scenario } from "./scenarios.js";
import { scheduleFor, type Schedule } from "./schedule.js";
import { commandOutput, diffOutput, fillerFailure, listOutput, readFileOutput, searchOutput, testOutput } from "./tool-output.js";
import type { PlantedFact, SyntheticSession } from "./types.js";
import { codeBlock, codeLine, fillerPath, identifier, narration } from "./vocabulary.js";
import { plantedFacts } from "./facts.js";
import { scratchpadSignal } from "./scratchpad.js";

// A seeded Ralph-loop session as the loop would store it: the task, then per iteration one
// assistant message (narration, signals, one to four parallel tool calls) and one user message (the
// tool results, or hatloop's continuation prompt). Tool output is most of the tokens, as in real
// sessions; planted facts appear where the schedule puts them and nowhere else.

export interface GenerateOptions {
  seed: number;
  iterations: number;
}

interface Call {
  name: string;
  input: Record<string, unknown>;
  output: string;
  isError: boolean;
}

interface Iteration {
  text: string[];
  calls: Call[];
  steering: string | null;
}

interface State {
  rng: Rng;
  scenario: Scenario;
  schedule: Schedule;
  n: number;
  editPaths: string[];
  done: Set<number>;
  decisionsMade: string[];
}

export function generateSession(options: GenerateOptions): SyntheticSession {
  const { seed, iterations: n } = options;
  const rng = createRng(seed);
  const scenario = SCENARIOS[seed % SCENARIOS.length]!;
  const schedule = scheduleFor(n);
  const pathsRng = rng.fork("paths");
  const editPaths = [
    ...scenario.files,
    ...Array.from({ length: Math.max(8, Math.round(n / 20)) }, () => fillerPath(pathsRng, pathsRng.chance(0.3))),
  ];
  const state: State = { rng, scenario, schedule, n, editPaths: [...new Set(editPaths)], done: new Set(), decisionsMade: [] };

  const task = `${scenario.goal}\n\nConstraints:\n- ${scenario.taskConstraint}\n- Run ${scenario.testCommand} before you call the task complete.`;
  const messages: Message[] = [{ role: "user", content: [{ type: "text", text: task }] }];
  for (let i = 1; i <= n; i++) {
    const it = iteration(state, i);
    const uses: ContentBlock[] = it.calls.map((c, k) => ({ type: "tool_use", id: toolId(seed, i, k), name: c.name, input: c.input }));
    messages.push({ role: "assistant", content: [{ type: "text", text: it.text.join("\n\n") }, ...uses] });
    const results: ContentBlock[] = it.calls.map((c, k) => ({
      type: "tool_result",
      tool_use_id: toolId(seed, i, k),
      content: c.output,
      ...(c.isError ? { is_error: true } : {}),
    }));
    const notes = it.steering ? [`${MARKERS.steer} ${it.steering}`] : [];
    if (it.calls.length === 0)
      notes.push(
        `${MARKERS.continuation} Iteration ${i + 1}. Continue as the creator. When your part is done, publish one of: EVENT:implementation.done, EVENT:task.blocked.`,
      );
    messages.push({ role: "user", content: [...results, ...notes.map((text): ContentBlock => ({ type: "text", text }))] });
  }
  const facts: PlantedFact[] = plantedFacts(scenario, schedule);
  return { name: `synthetic-${scenario.name}-${n}-s${seed}`, seed, iterations: n, messages, facts };
}

function toolId(seed: number, i: number, k: number): string {
  return `toolu_${seed.toString(36)}_${i.toString(36)}_${k}`;
}

function iteration(state: State, i: number): Iteration {
  const { rng, scenario, schedule } = state;
  const it: Iteration = { text: [], calls: [], steering: null };
  const planted = plant(state, i, it);
  if (!planted) filler(state, i, it);
  if (i === schedule.steer) it.steering = scenario.steerConstraint;
  if (i === schedule.checklistAdd) it.text.push(scenario.checklist.map((item, k) => `CHECKLIST_ADD:${k + 1}:${item}`).join("\n"));
  const doneK = schedule.checklistDone.indexOf(i);
  if (doneK >= 0 && i > schedule.checklistAdd) {
    state.done.add(doneK);
    it.text.push(`CHECKLIST_DONE:${doneK + 1}`);
  }
  if (i === schedule.nextStep) it.text.push(scenario.nextStep.text);
  const periodic = i > schedule.checklistAdd && i % schedule.scratchpadEvery === 0 && i < schedule.failingTest;
  if (periodic || i === schedule.finalScratchpad) {
    const open = scenario.checklist.find((_, k) => !state.done.has(k));
    if (open && i !== schedule.finalScratchpad) it.text.push(`Next: ${open.toLowerCase()}.`);
    it.text.push(
      scratchpadSignal({
        scenario,
        done: state.done,
        decisionsMade: state.decisionsMade,
        final: i === schedule.finalScratchpad,
        lastAction: narration(rng, identifier(rng)),
      }),
    );
  }
  // The agent's reasoning: a few sentences per response, about the first call's subject.
  const about = it.calls[0] ? keyOf(it.calls[0]) : identifier(rng);
  const reasoning = Array.from({ length: rng.int(3, 9) }, (_, k) => narration(rng, k === 0 ? about : identifier(rng))).join(" ");
  const snippet = rng.chance(0.3) ? `\n\n\`\`\`ts\n${codeBlock(rng, rng.int(4, 18)).join("\n")}\n\`\`\`` : "";
  it.text.unshift(reasoning + snippet);
  return it;
}

/** The planted-fact events of iteration i; false when there are none (filler decides the calls). */
function plant(state: State, i: number, it: Iteration): boolean {
  const { rng, scenario, schedule } = state;
  let any = false;
  const d = schedule.decisions.indexOf(i);
  if (d >= 0) {
    it.text.push(scenario.decisions[d]!.text);
    state.decisionsMade.push(scenario.decisions[d]!.text);
    any = true;
  }
  schedule.supersededOld.forEach((at, k) => {
    if (at !== i) return;
    const s = scenario.superseded[k]!;
    it.text.push(s.oldText);
    it.calls.push(edit(s.file, codeLine(rng, 0), s.oldCode));
    any = true;
  });
  schedule.supersededNew.forEach((at, k) => {
    if (at !== i) return;
    const s = scenario.superseded[k]!;
    it.text.push(s.newText);
    it.calls.push(edit(s.file, s.oldCode, s.newCode));
    any = true;
  });
  schedule.incidentals.forEach((at, k) => {
    if (at !== i) return;
    const inc = scenario.incidentals[k]!;
    const output = inc.tool === "read_file" ? readFileOutput(rng, inc.line) : commandOutput(rng, inc.line);
    it.calls.push({ name: inc.tool, input: inc.input, output, isError: false });
    any = true;
  });
  if (i === schedule.failingTest) {
    const f = scenario.failingTest;
    it.text.push(`Running the focused test for "${f.name}" again.`);
    it.calls.push({ name: "run_command", input: { command: f.command }, output: testOutput(rng, [f]), isError: true });
    any = true;
  }
  return any;
}

function edit(path: string, oldStr: string, newStr: string): Call {
  return { name: "edit_file", input: { path, old_str: oldStr, new_str: newStr }, output: `Edited ${path}: 1 replacement.`, isError: false };
}

/** Ordinary work, weighted by phase: explore first, then edit and test. */
function filler(state: State, i: number, it: Iteration): void {
  const { rng, scenario, schedule, n } = state;
  const exploring = i < 0.15 * n;
  const testsAllowed = i < schedule.failingTest;
  const roll = rng.next();
  const kind = exploring
    ? roll < 0.5
      ? "read"
      : roll < 0.75
        ? "search"
        : roll < 0.85
          ? "list"
          : roll < 0.95
            ? "test"
            : "think"
    : roll < 0.35
      ? "read"
      : roll < 0.47
        ? "search"
        : roll < 0.5
          ? "list"
          : roll < 0.64
            ? "test"
            : roll < 0.82
              ? "edit"
              : roll < 0.87
                ? "write"
                : roll < 0.91
                  ? "diff"
                  : "think";
  const parallel = rng.chance(0.35) ? rng.int(2, 4) : 1;
  switch (kind === "test" && !testsAllowed ? "read" : kind) {
    case "read":
      for (let k = 0; k < parallel; k++)
        it.calls.push({
          name: "read_file",
          input: { path: rng.chance(0.3) ? rng.pick(scenario.files) : fillerPath(rng, rng.chance(0.25)) },
          output: readFileOutput(rng),
          isError: false,
        });
      return;
    case "search":
      for (let k = 0; k < parallel; k++)
        it.calls.push({ name: "search", input: { pattern: identifier(rng), path: "src" }, output: searchOutput(rng), isError: false });
      return;
    case "list":
      it.calls.push({
        name: "list_files",
        input: { path: rng.pick(["src", "test", "src/" + identifier(rng).toLowerCase()]) },
        output: listOutput(rng, "src"),
        isError: false,
      });
      return;
    case "test": {
      const failures = rng.chance(0.45) ? [fillerFailure(rng)] : [];
      it.calls.push({
        name: "run_command",
        input: { command: scenario.testCommand },
        output: testOutput(rng, failures),
        isError: failures.length > 0,
      });
      return;
    }
    case "edit":
      it.calls.push(edit(rng.pick(state.editPaths), codeBlock(rng, rng.int(1, 8)).join("\n"), codeBlock(rng, rng.int(3, 40)).join("\n")));
      return;
    case "write": {
      const path = rng.pick(state.editPaths);
      const content = codeBlock(rng, rng.int(40, 260)).join("\n");
      it.calls.push({
        name: "write_file",
        input: { path, content },
        output: `Wrote ${content.split("\n").length} lines to ${path}.`,
        isError: false,
      });
      return;
    }
    case "diff":
      it.calls.push({ name: "git_diff", input: {}, output: diffOutput(rng, state.editPaths.slice(0, rng.int(1, 4))), isError: false });
      return;
    default:
      it.text.push(`Thinking through the ${identifier(rng)} flow before the next change.`);
  }
}

function keyOf(call: Call): string {
  const v = call.input["path"] ?? call.input["pattern"] ?? call.input["command"];
  return typeof v === "string" ? v : call.name;
}
