import type {
  CompilerOptions,
  IExtraLibs,
  TypeScriptWorker,
} from "monaco-editor/languages/features/typescript/register";
import TsWorker from "monaco-editor/languages/features/typescript/ts.worker?worker";
import { monaco } from "../../../ui/monaco";

/** Monaco's worker also takes new declaration files (its d.ts leaves that method out). */
interface ConfigurableWorker extends TypeScriptWorker {
  updateExtraLibs(libs: IExtraLibs): Promise<void>;
}

/** What the worker's program holds besides the models: options and extra declaration files. */
export interface ProgramConfig {
  options: CompilerOptions;
  /** Declaration files by address (`file:///node_modules/@types/node/fs.d.ts`). */
  libs: Readonly<Record<string, string>>;
}

/**
 * One TypeScript worker for the workspace's JavaScript and TypeScript files together (Monaco's
 * own mode runs one per language, so a `.js` could not import a `.ts`). Every request first
 * syncs every such file's model, so a file a peer just created is in the program the moment
 * anyone asks. The worker is our own bundle (Vite's `?worker`), served from our origin; it
 * starts on the first request, and again after the options change.
 */
export class WorkerClient {
  private client: monaco.editor.MonacoWebWorker<ConfigurableWorker> | null = null;
  private config: Promise<ProgramConfig>;
  private libVersion = 0;

  constructor(
    config: Promise<ProgramConfig>,
    private readonly isScript: (model: monaco.editor.ITextModel) => boolean,
    /** The worker's script failed to load or run (the service cannot answer). */
    private readonly onFailed: () => void,
  ) {
    this.config = config;
  }

  /** The worker's proxy, with every workspace script in its program (what Monaco's adapters call). */
  readonly get = async (): Promise<TypeScriptWorker> => {
    if (!this.client) this.client = this.start(this.config);
    const scripts = monaco.editor
      .getModels()
      .filter(this.isScript)
      .map((model) => model.uri);
    return this.client.withSyncedResources(scripts);
  };

  /** New options restart the worker; new declaration files alone are handed to the running one. */
  async configure(next: Promise<ProgramConfig>): Promise<void> {
    const previous = await this.config;
    this.config = next;
    const config = await next;
    if (!this.client) return;
    if (JSON.stringify(previous.options) !== JSON.stringify(config.options)) {
      this.stop();
      return;
    }
    const proxy = await this.client.getProxy();
    await proxy.updateExtraLibs(extraLibs(config.libs, ++this.libVersion));
  }

  dispose(): void {
    this.stop();
  }

  private stop(): void {
    this.client?.dispose();
    this.client = null;
  }

  private start(config: Promise<ProgramConfig>): monaco.editor.MonacoWebWorker<ConfigurableWorker> {
    // The script starts loading now; the program's settings follow once known (Node's types
    // may still be on their way). The first message wakes Monaco's worker, the second configures it.
    const worker = new TsWorker();
    worker.addEventListener("error", this.onFailed);
    worker.postMessage("ignore");
    const configured = config.then(({ options, libs }) => {
      worker.postMessage({ compilerOptions: options, extraLibs: extraLibs(libs, ++this.libVersion) });
      return worker;
    });
    return monaco.editor.createWebWorker<ConfigurableWorker>({ worker: configured, keepIdleModels: true });
  }
}

function extraLibs(libs: Readonly<Record<string, string>>, version: number): IExtraLibs {
  return Object.fromEntries(Object.entries(libs).map(([path, content]) => [path, { content, version }]));
}
