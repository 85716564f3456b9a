// What keeps Redocly's CLI from phoning home, wherever the package or its scripts start it:
// its usage telemetry (otel.cloud.redocly.com; also that of the pages build-docs renders), its
// update notice, and the common opt-out (consoledonottrack.com) its libraries also read.
export const REDOCLY_ENV: Readonly<Record<string, string>> = {
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  DO_NOT_TRACK: "1",
};
