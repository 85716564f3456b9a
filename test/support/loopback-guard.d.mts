// Types of loopback-guard.mjs (plain JavaScript, so that any Node can preload it).

/** The environment variable that names the log every guarded process appends to. */
export declare const LOG_VARIABLE: "PAYIN_LOOPBACK_LOG";
/** Whether `host` (a name or an address, IPv6 with or without brackets) is loopback. */
export declare function isLoopback(host: string): boolean;
/**
 * Every host something in this process tried to reach outside loopback, in order. Emptying it
 * (`length = 0`) says the test expected them: the log is told, and the run's check skips them.
 */
export declare const outsideLoopback: string[];
/** Says in each log line of this process and of the ones it starts what it is doing (the setup file: the test file). */
export declare function setLoopbackWhere(where: string | undefined): void;
/** Installs the guard in this process (once, whoever asks). */
export declare function installLoopbackGuard(): void;
/** Throws when anything in this process tried to leave loopback and no test acknowledged it. */
export declare function assertStayedOnLoopback(where: string): void;

/** One refusal in the log: which process (pid, argv[1]'s name) tried to reach which host, how. */
export interface LoopbackLogEntry {
  pid: number;
  id: string;
  process: string;
  kind: string;
  host: string;
  where: string;
}
/** The refusals a log's text holds that no test acknowledged. */
export declare function readLoopbackLog(text: string): LoopbackLogEntry[];
/** The report of refusals, one line per process and host (empty when none). */
export declare function describeLoopbackLog(entries: LoopbackLogEntry[]): string;
