import { describe, expect, it } from "vitest";
import { CHAT_LIMITS, CHAT_MESSAGES, ChatTextSchema } from "./chat";

const refusal = (text: unknown) => {
  const parsed = ChatTextSchema.safeParse(text);
  return parsed.success ? null : parsed.error.issues[0]?.message;
};

describe("ChatTextSchema", () => {
  it("keeps plain text with its inner line breaks and tabs, trimmed, line breaks as \\n", () => {
    expect(ChatTextSchema.parse("  a\r\nb\rc\n\td  ")).toBe("a\nb\nc\n\td");
    expect(ChatTextSchema.parse("<script>alert(1)</script>")).toBe("<script>alert(1)</script>");
  });

  it("counts characters, not UTF-16 units, so the limit holds for emoji too", () => {
    const emoji = "😀".repeat(CHAT_LIMITS.messageChars);
    expect(ChatTextSchema.parse(emoji)).toBe(emoji);
    expect(refusal(`${emoji}!`)).toBe(CHAT_MESSAGES.tooLong);
  });

  it("refuses empty text, and control characters but newline and tab", () => {
    expect(refusal("")).toBe(CHAT_MESSAGES.empty);
    expect(refusal("\n \t")).toBe(CHAT_MESSAGES.empty);
    for (const control of ["\u0000", "\u0008", "\u000b", "\u001b", "\u007f", "\u009b"])
      expect(refusal(`a${control}b`)).toBe(CHAT_MESSAGES.control);
  });
});
