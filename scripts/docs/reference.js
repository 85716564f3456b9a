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
  // Each request try-it sends has a key of its own: the example's fixed one would replay the first
  // answer, and an edited body would get 409 idempotency_key_reused. A key the reader typed stays.
  const parameter = Object.values(configuration.content.components?.parameters ?? {}).find((p) => p.name === "Idempotency-Key");
  const exampleKey = parameter?.example ?? parameter?.schema?.examples?.[0];
  configuration.onRequestBuilt = ({ request }) => {
    const key = request.headers.get("Idempotency-Key");
    if (request.method === "POST" && (!key || key === exampleKey)) request.headers.set("Idempotency-Key", crypto.randomUUID());
  };
  window.Scalar.createApiReference("#reference", configuration);
})();
