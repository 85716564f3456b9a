// Prism, run in this process: its HTTP server (`@stoplight/prism-http-server`) serving the
// operations of the bundled document (`@stoplight/prism-http`), configured as `prism mock`
// configures it. The three packages are optional peers of this package: only the mock needs
// them, and they come with `@stoplight/prism-cli` too.

export interface InProcessPrism {
  /** Where Prism answers, on loopback: `http://127.0.0.1:PORT`. */
  url: string;
  close(): Promise<void>;
}

const INSTALL_HINT = "npm install --save-dev @stoplight/prism-http-server (or @stoplight/prism-cli, which brings it)";

/**
 * Starts Prism on 127.0.0.1 and a port the system picks, serving `document` (a file path of
 * the bundled OpenAPI document). With `verbose`, Prism's log goes to stdout as JSON lines.
 */
export async function startPrism(document: string, verbose: boolean): Promise<InProcessPrism> {
  const [{ createServer }, { getHttpOperationsFromSpec }, { createLogger }] = await Promise.all([
    importPeer<typeof import("@stoplight/prism-http-server")>("@stoplight/prism-http-server"),
    importPeer<typeof import("@stoplight/prism-http")>("@stoplight/prism-http"),
    importPeer<typeof import("@stoplight/prism-core")>("@stoplight/prism-core"),
  ]);
  const operations = await getHttpOperationsFromSpec(document);
  if (operations.length === 0) throw new Error(`${document} has no operations for Prism to serve.`);
  const server = createServer(operations, {
    // What `prism mock` uses by default: validate requests and security, answer with examples.
    cors: true,
    config: {
      isProxy: false,
      validateRequest: true,
      // Stryker disable next-line BooleanLiteral: every example is valid against its schema (test/openapi/examples.test.ts holds them so), so checking them never finds a violation
      validateResponse: true,
      checkSecurity: true,
      // Stryker disable next-line BooleanLiteral: it turns response violations into errors, and there are none (see validateResponse)
      errors: false,
      upstreamProxy: undefined,
      mock: { dynamic: false },
    },
    components: { logger: createLogger("PRISM", { level: verbose ? "info" : "silent" }) },
  });
  // Port 0: the system picks a free port as it binds, so nothing can take it in between.
  const url = await server.listen(0, "127.0.0.1");
  return { url, close: () => server.close() };
}

/** @internal The module of an optional peer, or an error that says what to install. */
export async function importPeer<T>(name: string): Promise<T> {
  try {
    // Prism's packages are CommonJS: their exports are the default export's properties.
    const module = await import(name);
    return (module.default ?? module) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND")
      throw new Error(`The mock runs Prism, and ${name} is not installed: ${INSTALL_HINT}.`);
    throw error;
  }
}
