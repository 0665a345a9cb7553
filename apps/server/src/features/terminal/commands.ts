import type { GithubTarget, TerminalEntry } from "@ensemble/protocol";
import type { Actor } from "../../realtime/presence";

/**
 * Who typed a line or pressed Run Code: the request's actor (a viewer, `!canEdit`, gets only
 * `readsOnly` lines; runs count against its `rateKey`).
 */
export interface Runner extends Actor {
  /** Aborted when the sender's socket goes away. */
  signal?: AbortSignal;
}

/** What a command gets for one typed line. */
export interface CommandContext {
  sessionId: string;
  who: Runner;
  /** The line as typed, trimmed. */
  line: string;
  /** The words after the command's name. */
  args: string[];
  /** The workspace file the sender has open, when the browser said. */
  file: string | undefined;
  /** The sender's GitHub connection, when their browser sent it with the line (git only). */
  github?: GithubTarget | undefined;
  /** Shows everyone the typed line and then `entries`, stored first, then broadcast. */
  reply(entries: TerminalEntry[]): Promise<void>;
}

/** A terminal command as a feature registers it. */
export interface CommandDefinition {
  /** The first word of the line; one lowercase word, matched whatever the case typed. */
  name: string;
  /** One line for `help`. */
  summary: string;
  /** Whether a line (its words after the name) only reads, so a viewer may type it. */
  readsOnly?: (args: string[]) => boolean;
  /**
   * Answers the line, normally through `context.reply`. A refusal is thrown as the feature's
   * own domain error, which the terminal's socket edge maps (or reports as internal).
   */
  execute(context: CommandContext): Promise<void>;
}

const NAME = /^[a-z][a-z0-9-]*$/;
/** `help` lines up summaries after the longest name this wide. */
const NAME_COLUMN = 8;

/**
 * The shared terminal's commands. The terminal registers `run`, `clear` and `help`; other
 * features register theirs (`git`, `pr`) through the terminal feature's `commands`. The help
 * text lists whatever is registered when it is asked for.
 */
export class CommandRegistry {
  private readonly commands = new Map<string, CommandDefinition>();

  /** Adds a command; a name that is not one lowercase word, or is taken, is a programming error. */
  register(command: CommandDefinition): void {
    if (!NAME.test(command.name)) throw new Error(`terminal command name "${command.name}" is not one word`);
    if (this.commands.has(command.name)) {
      throw new Error(`terminal command "${command.name}" is registered twice`);
    }
    this.commands.set(command.name, command);
  }

  find(name: string): CommandDefinition | undefined {
    return this.commands.get(name.toLowerCase());
  }

  /** `help`'s text: every command in the order it was registered. */
  helpText(): string {
    const lines = [...this.commands.values()].map(
      ({ name, summary }) => `  ${name.padEnd(Math.max(NAME_COLUMN, name.length + 1))}${summary}`,
    );
    return ["Available commands:", ...lines].join("\n");
  }

  /** What an unknown command gets back, in the spec's words. */
  unknown(name: string): TerminalEntry[] {
    return [
      { type: "error", content: `Unknown command: ${name}. Type 'help' for available commands.` },
      { type: "output", content: this.helpText() },
    ];
  }
}
