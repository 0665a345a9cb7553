/** Shared limits: the server enforces them, the browser uses them to warn early. */
export const LIMITS = {
  usernameMax: 50,
  emailMax: 254,
  /** Bounded so a huge password cannot make hashing a denial of service. */
  passwordMax: 1024,
  sessionTitleMax: 100,
  sessionIdMax: 64,
  /** Largest JSON body the REST API accepts before answering 413. */
  jsonBodyBytes: 100 * 1024,
  /** Largest message a socket.io connection or a Yjs lane accepts. */
  socketMessageBytes: 1_000_000,
} as const;

/** The public playground session that always exists. */
export const DEMO_SESSION_ID = "demo-session";

/** Browser storage keys of the spec (accounts §3). */
export const STORAGE_KEYS = {
  token: "token",
  user: "user",
  userId: "userId",
  userName: "userName",
} as const;

/** Bumped whenever a socket event changes shape; checked on connect. */
export const PROTOCOL_VERSION = 6;
