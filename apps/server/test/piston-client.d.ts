/** The published `piston-client` (1.0.2), which ships no types: what the tests call of it. */
declare module "piston-client" {
  export interface PistonClient {
    /** The runtime list, or `{ success: false, error }` when the request failed. */
    runtimes(): Promise<unknown>;
    /** The server's answer as it came (a result, or an error body), or `{ success: false, error }`. */
    execute(language: string, code: string, config?: Record<string, unknown>): Promise<unknown>;
  }
  export function piston(options?: { server?: string }): PistonClient;
  export default piston;
}
