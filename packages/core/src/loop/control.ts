// How the outside world steers a running loop: the CLI on Ctrl-C, the TUI's keys. Requests are
// picked up at iteration boundaries, except an interrupt, which also aborts the model call or tool
// that is running (each unanswered tool call then gets an "interrupted" result).

export class LoopControl {
  private readonly abortController = new AbortController();
  private interruptedFlag = false;
  private stopFlag = false;
  private pausedFlag = false;
  private wakers: Array<() => void> = [];
  private readonly steering: string[] = [];
  private typedAnswer: string | null = null;

  get signal(): AbortSignal {
    return this.abortController.signal;
  }

  get interrupted(): boolean {
    return this.interruptedFlag;
  }

  get stopRequested(): boolean {
    return this.stopFlag;
  }

  get paused(): boolean {
    return this.pausedFlag;
  }

  /** Ctrl-C: abort what runs now, then checkpoint and pause. */
  interrupt(): void {
    this.interruptedFlag = true;
    this.abortController.abort(new Error("interrupted"));
    this.wake();
  }

  /** Finish the current iteration, checkpoint, and end the run (resumable). */
  requestStop(): void {
    this.stopFlag = true;
    this.wake();
  }

  /** Hold before the next iteration until `unpause()`. */
  pause(): void {
    this.pausedFlag = true;
  }

  unpause(): void {
    this.pausedFlag = false;
    this.wake();
  }

  /** A message from the user, delivered with the next iteration and kept in the transcript. */
  steer(text: string): void {
    if (text.trim()) this.steering.push(text.trim());
  }

  takeSteering(): string[] {
    return this.steering.splice(0);
  }

  /** The answer to the agent's open question, typed in this terminal. */
  answer(text: string): void {
    if (!text.trim()) return;
    this.typedAnswer = text.trim();
    this.wake();
  }

  takeAnswer(): string | null {
    const answer = this.typedAnswer;
    this.typedAnswer = null;
    return answer;
  }

  /** Sleeps up to `ms`, woken early by an answer, an interrupt or a stop. */
  async nap(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakers.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Resolves when not paused (or when an interrupt or stop makes waiting moot). */
  async waitWhilePaused(onPause: () => void): Promise<void> {
    if (!this.pausedFlag) return;
    onPause();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by a callback or another task while this one awaited; TypeScript keeps the narrowing from before
    while (this.pausedFlag && !this.interruptedFlag && !this.stopFlag) {
      await new Promise<void>((resolve) => this.wakers.push(resolve));
    }
  }

  private wake(): void {
    this.wakers.splice(0).forEach((w) => w());
  }
}
