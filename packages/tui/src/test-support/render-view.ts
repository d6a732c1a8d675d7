import { render } from "ink-testing-library";
import stripAnsi from "strip-ansi";

/** A rendered view and its last frame as plain text. */
export function frame(element: React.ReactElement) {
  const app = render(element);
  return { app, text: () => stripAnsi(app.lastFrame() ?? "") };
}

export const tick = () => new Promise((r) => setTimeout(r, 20));

/** Ticks until `done` holds (at most ~2 s): keys are handled and rendered later on a loaded machine. */
export const settle = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await tick();
};
