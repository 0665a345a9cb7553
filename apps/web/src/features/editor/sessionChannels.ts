import type { ChannelDef } from "../../lib/sessionChannels";
import { callChannel } from "../calls/CallSession";
import { chatChannel } from "../chat/channel";
import { diagnosticsChannel } from "../diagnostics/channel";
import { gitChannel } from "../git/channel";
import { clangdChannel } from "../intelligence/clangd/channel";
import { sessionSettingsChannel } from "../intelligence/controls/channel";
import { pullsChannel } from "../pulls/channel";
import { replayChannel } from "../replay/channel";
import { rolesChannel } from "../roles/channel";
import { terminalChannel } from "../terminal/channel";

/**
 * Every feature's channel of an open editor session, made once per session in this order
 * (and told of its lifecycle in it). A new feature adds its channel here, not to CollabSession.
 */
export const SESSION_CHANNELS: readonly ChannelDef<unknown>[] = [
  rolesChannel,
  diagnosticsChannel,
  terminalChannel,
  gitChannel,
  pullsChannel,
  callChannel,
  chatChannel,
  replayChannel,
  sessionSettingsChannel,
  clangdChannel,
];
