import { describe, expect, it } from "vitest";
import { Lifecycle } from "./sessionChannels";

describe("Lifecycle", () => {
  it("tells each event's subscribers, in the order they subscribed, and no one else", () => {
    const lifecycle = new Lifecycle();
    const heard: string[] = [];
    lifecycle.on("left", () => heard.push("first left"));
    lifecycle.on("ended", () => heard.push("ended"));
    lifecycle.on("left", () => heard.push("second left"));
    lifecycle.emit("left", undefined);
    expect(heard).toEqual(["first left", "second left"]);
  });

  it("hands the value over", () => {
    const lifecycle = new Lifecycle();
    const self = { id: "u1", name: "Ann", isHost: true, isGuest: false, role: "host" as const };
    let heard: unknown = null;
    lifecycle.on("selfChanged", (value) => {
      heard = value;
    });
    lifecycle.emit("selfChanged", self);
    expect(heard).toBe(self);
  });
});
