import { describe, expect, it } from "vitest";
import { allowedHosts } from "./access.js";

// The Host headers `serve` answers, by the address it is bound to (handoff-serve.test.ts
// sends them to a real server bound to 0.0.0.0).

const own = {
  addresses: [
    { address: "127.0.0.1", family: "IPv4" },
    { address: "192.0.2.2", family: "IPv4" },
    { address: "fd00::2", family: "IPv6" },
    { address: "fe80::fc:ff:fe00:1%eth0", family: "IPv6" },
  ],
  hostname: "Build-Box",
};

describe("the Host headers serve answers", () => {
  it("bound to loopback or one address: loopback names and that address only", () => {
    expect([...allowedHosts("127.0.0.1", 4317, own)]).toEqual(["localhost:4317", "127.0.0.1:4317", "[::1]:4317"]);
    expect(allowedHosts("192.0.2.2", 4317, own).has("192.0.2.2:4317")).toBe(true);
    expect(allowedHosts("192.0.2.2", 4317, own).has("build-box:4317")).toBe(false);
  });

  it("bound to 0.0.0.0: the machine's IPv4 addresses and its name too", () => {
    const hosts = allowedHosts("0.0.0.0", 4317, own);
    expect(hosts).toEqual(new Set(["localhost:4317", "127.0.0.1:4317", "[::1]:4317", "192.0.2.2:4317", "build-box:4317"]));
  });

  it("bound to ::, its IPv6 addresses as well (bracketed, without a zone)", () => {
    const hosts = allowedHosts("::", 80, own);
    for (const host of ["192.0.2.2", "[fd00::2]:80", "[fe80::fc:ff:fe00:1]", "build-box"]) expect(hosts.has(host), host).toBe(true);
    expect(hosts.has("0.0.0.0")).toBe(false);
  });
});
