// Fires when a stream goes quiet for too long. The SDK's timeout only covers the wait for response
// headers; a stream that stalls afterwards would otherwise hang the loop until TCP gives up. The API
// sends `ping` events while it works, so silence this long means the connection is dead.

export class IdleWatchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  fired = false;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {
    this.reset();
  }

  reset(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.onIdle();
    }, this.idleMs);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
