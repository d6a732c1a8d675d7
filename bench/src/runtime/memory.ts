// Peak memory of the process, sampled every 50 ms while a part of the bench runs.

export interface MemoryPeak {
  rssMb: number;
  heapUsedMb: number;
}

export class MemorySampler {
  private peak = { rss: 0, heap: 0 };
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs = 50) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  sample(): void {
    const m = process.memoryUsage();
    this.peak = { rss: Math.max(this.peak.rss, m.rss), heap: Math.max(this.peak.heap, m.heapUsed) };
  }

  stop(): MemoryPeak {
    clearInterval(this.timer);
    this.sample();
    return { rssMb: Math.round(this.peak.rss / 1048576), heapUsedMb: Math.round(this.peak.heap / 1048576) };
  }
}
