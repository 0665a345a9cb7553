export * from "./client";
export * from "./lane";
export * from "./messages";
export * from "./wire";
export * from "./workspace";
