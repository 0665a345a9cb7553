import { defineChannel } from "../../../lib/sessionChannels";
import { useIntelligenceSettings } from "../settings";

/**
 * The session's settings (interview mode): asked after every join, so a late joiner and a
 * reconnect get what the server stored, and followed live as the host changes them. The
 * server checks that only the host changes them; this only asks and shows.
 */
export const sessionSettingsChannel = defineChannel("sessionSettings", ({ link, lifecycle }) => {
  const apply = (completions: boolean) =>
    useIntelligenceSettings.getState().set({ sessionCompletions: completions });
  // A new session starts from the default until the server answers.
  apply(true);
  link.listen("sessionSettings", ({ completions }) => apply(completions));
  lifecycle.on("joined", () => {
    void link.request("getSessionSettings", { sessionId: link.sessionId }).then((result) => {
      if (result.ok) apply(result.data.completions);
    });
  });
  return {
    /** Host only: completions on or off for everyone. */
    setCompletions: (completions: boolean) =>
      link.request("setSessionSettings", { sessionId: link.sessionId, completions }),
  };
});
