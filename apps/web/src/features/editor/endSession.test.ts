import { describe, expect, it } from "vitest";
import { defaultPrTitle, describeEndDialog, loginRoute } from "./endSession";

describe("defaultPrTitle", () => {
  const at = new Date(2026, 10, 23, 15, 4, 5);

  it("is 'Session {id} - {date-time}' with the date-time in the given locale", () => {
    expect(defaultPrTitle("abc-123", at, "en-GB")).toBe("Session abc-123 - 23/11/2026, 15:04:05");
    expect(defaultPrTitle("abc-123", at, "de-DE")).toBe("Session abc-123 - 23.11.2026, 15:04:05");
  });

  it("uses the browser's locale when none is given", () => {
    expect(defaultPrTitle("s1", at)).toBe(`Session s1 - ${at.toLocaleString()}`);
  });
});

describe("describeEndDialog", () => {
  it("shows the GitHub status as stored", () => {
    expect(describeEndDialog(true, "idle").githubStatus).toBe("Authenticated");
    expect(describeEndDialog(false, "idle").githubStatus).toBe("Not Authenticated");
  });

  it("offers Create Pull Request with or without GitHub, and End Without PR, while idle", () => {
    for (const isAuthenticated of [true, false]) {
      expect(describeEndDialog(isAuthenticated, "idle")).toMatchObject({
        createLabel: "Create Pull Request",
        canCreate: true,
        canEndWithoutPr: true,
      });
    }
  });

  it("offers GitHub Login only while not authenticated (spec §2)", () => {
    expect(describeEndDialog(false, "idle")).toMatchObject({
      showsLogin: true,
      loginLabel: "GitHub Login",
      canLogin: true,
    });
    expect(describeEndDialog(true, "idle").showsLogin).toBe(false);
  });

  it("says 'Authenticating...' and takes no other click while the page leaves for GitHub", () => {
    expect(describeEndDialog(false, "idle", true)).toMatchObject({
      loginLabel: "Authenticating...",
      canLogin: false,
      canCreate: false,
      canEndWithoutPr: false,
    });
  });

  it("says 'Creating PR...' and takes no second click while the PR is on its way", () => {
    expect(describeEndDialog(false, "creating")).toMatchObject({
      createLabel: "Creating PR...",
      canCreate: false,
      canEndWithoutPr: false,
    });
  });

  it("keeps every button off once the PR is made and the exit is counting down", () => {
    expect(describeEndDialog(true, "created")).toMatchObject({ canCreate: false, canEndWithoutPr: false });
    expect(describeEndDialog(false, "creating").canLogin).toBe(false);
    expect(describeEndDialog(false, "created").canLogin).toBe(false);
  });
});

describe("loginRoute", () => {
  it("sends the host to GitHub's consent, or to the Git panel's token when the server has no GitHub login", () => {
    expect(loginRoute(true, true)).toBe("consent");
    expect(loginRoute(true, false)).toBe("token");
  });

  it("tells anyone else the login is the host's: only the host's connection publishes", () => {
    expect(loginRoute(false, true)).toBe("host-only");
    expect(loginRoute(false, false)).toBe("host-only");
  });
});
