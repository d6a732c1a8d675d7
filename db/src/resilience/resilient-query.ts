import type { Execute } from "../embedded/broker.js";
import { connectionFailure } from "./classify.js";
import type { OutageMonitor } from "./outage.js";
import { committedRows, withReceipt } from "./receipts.js";

/**
 * Every statement through `execute`, waiting out connection failures (see OutageMonitor) and
 * retrying; a real SQL error is thrown at once. Writes carry a receipt so that a retry of one that
 * had committed is recognised instead of applied twice.
 */
export function resilientQuery(execute: Execute, monitor: OutageMonitor): Execute {
  return async (sql, params, mode) => {
    const receipt = withReceipt(sql, params);
    let mayHaveRun = false;
    for (let attempt = 1; ; attempt++) {
      monitor.assertUsable();
      try {
        const rows = await execute(receipt?.sql ?? sql, receipt?.params ?? params, mode);
        monitor.reachable();
        return rows;
      } catch (error) {
        let failure = connectionFailure(error);
        if (!failure && receipt && mayHaveRun) {
          // A retry refused by a unique key (its own receipt's, or a message's (session, seq)): the
          // earlier attempt did commit, and its receipt holds what it returned.
          try {
            const committed = await committedRows(execute, receipt, mode);
            if (committed) {
              monitor.reachable();
              return committed;
            }
          } catch (lookup) {
            failure = connectionFailure(lookup);
            if (!failure) throw lookup;
          }
        }
        if (!failure) throw error;
        mayHaveRun ||= failure.mayHaveRun;
        await monitor.waitToRetry(failure, attempt);
      }
    }
  };
}
