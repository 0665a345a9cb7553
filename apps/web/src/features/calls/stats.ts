/** Receive-side figures per peer, for tests and the bench (from `getStats()`). */
export interface PeerStats {
  peerId: string;
  connectionState: RTCPeerConnectionState;
  audio: { bytesReceived: number; packetsReceived: number };
  video: { bytesReceived: number; framesDecoded: number; frameWidth: number };
  /** What we send as video now: its width and whether it is the screen. */
  sentVideo: { label: string | null; width: number | null };
}

/** One link's figures from `getStats()`: what arrived, and what we send as video. */
export async function peerStats(peerId: string, pc: RTCPeerConnection): Promise<PeerStats> {
  const result: PeerStats = {
    peerId,
    connectionState: pc.connectionState,
    audio: { bytesReceived: 0, packetsReceived: 0 },
    video: { bytesReceived: 0, framesDecoded: 0, frameWidth: 0 },
    sentVideo: { label: null, width: null },
  };
  const report = await pc.getStats();
  report.forEach((entry: Record<string, unknown>) => {
    if (entry.type !== "inbound-rtp") return;
    const bytes = Number(entry.bytesReceived ?? 0);
    if (entry.kind === "audio") {
      result.audio.bytesReceived += bytes;
      result.audio.packetsReceived += Number(entry.packetsReceived ?? 0);
    } else if (entry.kind === "video") {
      result.video.bytesReceived += bytes;
      result.video.framesDecoded += Number(entry.framesDecoded ?? 0);
      result.video.frameWidth = Math.max(result.video.frameWidth, Number(entry.frameWidth ?? 0));
    }
  });
  const sent = pc.getSenders().find((s) => s.track?.kind === "video")?.track ?? null;
  result.sentVideo = { label: sent?.label ?? null, width: sent?.getSettings().width ?? null };
  return result;
}
