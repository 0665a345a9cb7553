export * from "./client";
export * from "./messages";
export * from "./wire";
export * from "./workspace";
