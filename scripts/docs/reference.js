// Mounts Scalar's API reference (scalar.js) on a reference page of the docs site. The first
// server of "Test Request" is the sandbox beside the docs: try-it.json says where it is (the
// build writes `npm start`'s default, and `npm start` serves the address it listens on).
(async () => {
  const configuration = JSON.parse(document.getElementById("reference-configuration").textContent);
  const tryIt = await fetch("try-it.json")
    .then((answer) => (answer.ok ? answer.json() : {}))
    .catch(() => ({}));
  const servers = configuration.content.servers ?? [];
  if (tryIt.sandbox)
    configuration.servers = [
      { url: tryIt.sandbox, description: "The sandbox that `npm start` serves beside these docs (any bearer token is an account)." },
      ...servers.filter((server) => server.url !== tryIt.sandbox),
    ];
  window.Scalar.createApiReference("#reference", configuration);
})();
