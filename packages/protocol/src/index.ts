export * from "./auth";
export * from "./errors";
export * from "./limits";
export * from "./sessions";
export * from "./socket";
export * from "./events";
